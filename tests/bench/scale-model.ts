/**
 * The scale model of `bench:queries`: a large library written straight into the read models
 * (rm_rooms, rm_time_slots, rm_tickets) by `generate_series`, without events. The public reads
 * that every screen polls (the occupancy display, the visitor calendar) read only these tables,
 * and a log of a million slots would take minutes to write and rebuild for what the reads never
 * look at. Nothing rebuilds the read models afterwards, so rows without events stay as written.
 */
import type pg from 'pg';
import { addDays } from '@rr/platform';

export interface ScaleModel {
  rooms: number;
  slotsPerDay: number;
  /** Days of slots: from `firstDate`, half a year back, to half a year ahead of today. */
  days: number;
  firstDate: string;
  slots: number;
  tickets: number;
  /** The model's rooms, in their order. */
  roomIds: string[];
}

/**
 * Writes `rooms` rooms with `slotsPerDay` one-hour slots from 07:00 on each of `days` days around
 * `today` (capacity 20), and `tickets` booked tickets spread over the slots from today on. The
 * rooms' booking window is from today to a year ahead, so the calendar's month is open.
 */
export async function writeScaleModel(
  pool: pg.Pool,
  options: { rooms: number; slotsPerDay: number; days: number; tickets: number; today: string },
): Promise<ScaleModel> {
  const firstDate = addDays(options.today, -Math.floor(options.days / 2));
  const rooms = await pool.query<{ id: string }>(
    `INSERT INTO rm_rooms (id, version, name, description, capacity, open_start_type, open_start_value,
                           open_end_type, open_end_value, sort_order, created_at)
     SELECT gen_random_uuid(), 1, 'Scale room ' || lpad(n::text, 4, '0'), '', 20, 'DAY', 0, 'DAY', 365,
            1000 + n, now()
       FROM generate_series(1, $1::int) n
     RETURNING id, sort_order`,
    [options.rooms],
  );
  const roomIds = rooms.rows.map((r) => r.id);
  const slots = await pool.query(
    `INSERT INTO rm_time_slots (id, room_id, date, start_time, end_time, capacity, ticket_count, version)
     SELECT gen_random_uuid(), r.id, $2::date + d, lpad((7 + h)::text, 2, '0') || ':00',
            lpad((8 + h)::text, 2, '0') || ':00', 20, 0, 1
       FROM unnest($1::uuid[]) AS r(id), generate_series(0, $3::int - 1) d,
            generate_series(0, $4::int - 1) h`,
    [roomIds, firstDate, options.days, options.slotsPerDay],
  );
  // Booked tickets on the slots from today on, spread over them by a stride coprime to their count.
  const tickets = await pool.query(
    `WITH ahead AS (SELECT s.id, s.room_id, s.date, s.start_time, s.end_time,
                           row_number() OVER (ORDER BY s.date, s.start_time, s.room_id) AS n
                      FROM rm_time_slots s
                     WHERE s.room_id = ANY($1::uuid[]) AND s.date >= $2::date)
     INSERT INTO rm_tickets (id, transaction_id, owner_id, time_slot_id, room_id, date, start_time,
                             end_time, status, booking_number, created_at, booked_at)
     SELECT gen_random_uuid(), gen_random_uuid(), NULL, a.id, a.room_id, a.date, a.start_time,
            a.end_time, 'BOOKED', NULL, now(), now()
       FROM generate_series(0, $3::int - 1) k
       JOIN ahead a ON a.n = 1 + (k * 7919) % (SELECT count(*) FROM ahead)`,
    [roomIds, options.today, options.tickets],
  );
  await pool.query(
    `UPDATE rm_time_slots s SET ticket_count = c.n
       FROM (SELECT time_slot_id, count(*)::int AS n FROM rm_tickets
              WHERE room_id = ANY($1::uuid[]) GROUP BY time_slot_id) c
      WHERE s.id = c.time_slot_id`,
    [roomIds],
  );
  return {
    rooms: roomIds.length,
    slotsPerDay: options.slotsPerDay,
    days: options.days,
    firstDate,
    slots: slots.rowCount ?? 0,
    tickets: tickets.rowCount ?? 0,
    roomIds,
  };
}

/** Closes the second half of the model's rooms for the whole year: every slot's capacity 0. */
export async function closeHalfTheRooms(pool: pg.Pool, model: ScaleModel): Promise<string[]> {
  const closed = model.roomIds.slice(Math.ceil(model.roomIds.length / 2));
  await pool.query(`UPDATE rm_time_slots SET capacity = 0 WHERE room_id = ANY($1::uuid[])`, [
    closed,
  ]);
  return closed;
}

/**
 * Makes `sites` sites (slugs `site-01`, …) beside the first and spreads the model's rooms over
 * them in equal runs (200 rooms, 20 sites: 10 rooms each), straight into the read models as the
 * rest of the model; answers the slugs.
 */
export async function writeSites(
  pool: pg.Pool,
  model: ScaleModel,
  sites: number,
): Promise<string[]> {
  const r = await pool.query<{ id: string; slug: string }>(
    `INSERT INTO rm_sites (id, version, slug, name, contact_email, created_at)
     SELECT gen_random_uuid(), 1, 'site-' || lpad(n::text, 2, '0'), 'Scale site ' || n,
            'site' || n || '@example.at', now()
       FROM generate_series(1, $1::int) n
     RETURNING id, slug`,
    [sites],
  );
  const rows = r.rows.sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const perSite = Math.ceil(model.roomIds.length / sites);
  await pool.query(
    `UPDATE rm_rooms SET site_id = ($2::uuid[])[((i - 1) / $3::int) + 1]
       FROM unnest($1::uuid[]) WITH ORDINALITY AS m(id, i)
      WHERE rm_rooms.id = m.id`,
    [model.roomIds, rows.map((x) => x.id), perSite],
  );
  return rows.map((x) => x.slug);
}
