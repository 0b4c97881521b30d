import type { RecordedEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

/**
 * The lead time of the insights (docs/product.md#insights), counted ahead: per room, day and
 * whole days from the booking to the slot's start, the bookings, the cancelled ones and those
 * cancelled less than 24 hours before the start; the same per room and month for the months a
 * period covers whole. The insights read a few thousand of these rows instead of every booked
 * ticket. The days are counted again from the projection's own per-ticket rows for every room
 * and day a batch touched, so they never drift from them; their months move by the difference.
 *
 * The days are measured to the slot's start in the library's time zone, which the projection is
 * made with (TIME_ZONE): a change of the zone needs a rebuild (`npm run rebuild`). Its tables are
 * new beside the insights projection's (which the previous release keeps reading during a rolling
 * upgrade); being a projection of its own, it fills them from the log on its first start.
 */

const SLOT_PREFIX = 'timeslot-';

interface SlotDetails {
  roomId: string;
  date: string;
  startTime: string;
}

const slotOf = (event: RecordedEvent): string | null =>
  event.streamId.startsWith(SLOT_PREFIX) ? event.streamId.slice(SLOT_PREFIX.length) : null;

const ticketOf = (event: RecordedEvent): string => (event.data as { ticketId: string }).ticketId;

/** Whole days (24 hours) from the booking to the start; a booking after the start counts 0. */
const daysFrom = (start: string, booked: string) =>
  `greatest(0, floor(extract(epoch FROM ${start} - ${booked}) / 86400))::int`;
// $1 the rooms, $2 the days counted again.
const TOUCHED = `unnest($1::uuid[], $2::date[]) AS d(room_id, date)`;
const DROP_DAYS = `
  DELETE FROM rm_insight_lead_days x USING ${TOUCHED}
   WHERE x.room_id = d.room_id AND x.date = d.date`;
const COUNT_DAYS = `
  INSERT INTO rm_insight_lead_days (room_id, date, days, bookings, cancelled, late)
  SELECT t.room_id, t.date, t.days, count(*), count(t.cancelled_at),
         count(*) FILTER (WHERE t.cancelled_at > t.starts_at - interval '24 hours')
    FROM ${TOUCHED} JOIN rm_insight_lead_tickets t ON t.room_id = d.room_id AND t.date = d.date
   GROUP BY t.room_id, t.date, t.days`;
// The touched days' rows per month: taken off their months before the days are counted again,
// added back after, so a month stays the sum of its days without reading the whole month.
const OF_TOUCHED_BY_MONTH = `
  SELECT x.room_id, date_trunc('month', x.date)::date AS month, x.days, sum(x.bookings) AS bookings,
         sum(x.cancelled) AS cancelled, sum(x.late) AS late
    FROM ${TOUCHED} JOIN rm_insight_lead_days x ON x.room_id = d.room_id AND x.date = d.date
   GROUP BY 1, 2, 3`;
const TAKE_OFF_MONTHS = `
  UPDATE rm_insight_lead_months m SET bookings = m.bookings - o.bookings,
         cancelled = m.cancelled - o.cancelled, late = m.late - o.late
    FROM (${OF_TOUCHED_BY_MONTH}) o
   WHERE m.room_id = o.room_id AND m.month = o.month AND m.days = o.days`;
const ADD_TO_MONTHS = `
  INSERT INTO rm_insight_lead_months AS m (room_id, month, days, bookings, cancelled, late)
  SELECT room_id, month, days, bookings, cancelled, late FROM (${OF_TOUCHED_BY_MONTH}) n
  ON CONFLICT (room_id, month, days) DO UPDATE SET bookings = m.bookings + excluded.bookings,
     cancelled = m.cancelled + excluded.cancelled, late = m.late + excluded.late`;
// A month row without bookings is gone, as a rebuild would never write it.
const DROP_EMPTY_MONTHS = `
  DELETE FROM rm_insight_lead_months m
   USING (SELECT DISTINCT room_id, date_trunc('month', date)::date AS month FROM ${TOUCHED}) t
   WHERE m.room_id = t.room_id AND m.month = t.month AND m.bookings = 0`;

/** The lead time projection, its days measured in `timeZone` (the library's TIME_ZONE). */
export function insightLeadProjection(timeZone: string): Projection {
  return {
    name: 'insight-lead',
    derivedOnly: true,
    tables: [
      'rm_insight_lead_slots',
      'rm_insight_lead_tickets',
      'rm_insight_lead_days',
      'rm_insight_lead_months',
    ],
    handles: new Set([
      'TimeSlotCreated',
      'TimeSlotUpdated',
      'TimeSlotDeleted',
      'TicketBooked',
      'TicketCancelled',
    ]),
    apply: (client, event) => applyLead(client, [event], timeZone),
    applyBatch: (client, events) => applyLead(client, events, timeZone),
  };
}

/** A batch's booked and cancelled tickets, not yet written. */
interface Pending {
  booked: { ticketId: string; timeSlotId: string; at: Date }[];
  cancelled: { ticketId: string; at: Date }[];
}

async function flush(client: PoolClient, p: Pending): Promise<void> {
  if (p.booked.length > 0)
    await client.query(
      `INSERT INTO rm_insight_lead_tickets (ticket_id, time_slot_id, room_id, date, starts_at, booked_at, days)
       SELECT b.ticket_id, s.time_slot_id, s.room_id, s.date, s.starts_at, b.at,
              ${daysFrom('s.starts_at', 'b.at')}
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS b(ticket_id, time_slot_id, at)
         JOIN rm_insight_lead_slots s ON s.time_slot_id = b.time_slot_id
       ON CONFLICT (ticket_id) DO NOTHING`,
      [
        p.booked.map((b) => b.ticketId),
        p.booked.map((b) => b.timeSlotId),
        p.booked.map((b) => b.at),
      ],
    );
  if (p.cancelled.length > 0)
    await client.query(
      `UPDATE rm_insight_lead_tickets t SET cancelled_at = c.at
         FROM unnest($1::uuid[], $2::timestamptz[]) AS c(ticket_id, at)
        WHERE t.ticket_id = c.ticket_id`,
      [p.cancelled.map((c) => c.ticketId), p.cancelled.map((c) => c.at)],
    );
  p.booked.length = 0;
  p.cancelled.length = 0;
}

async function applyLead(client: PoolClient, events: RecordedEvent[], timeZone: string) {
  const pending: Pending = { booked: [], cancelled: [] };
  const touched = new Set<string>();
  const days = new Map<string, { roomId: string; date: string }>();
  const addDay = (roomId: string, date: string) => days.set(`${roomId}|${date}`, { roomId, date });
  for (const event of events) {
    const timeSlotId = slotOf(event);
    if (!timeSlotId) continue;
    switch (event.type) {
      case 'TimeSlotCreated':
      case 'TimeSlotUpdated': {
        // Slot changes (rare) are written in order, after the tickets gathered before them.
        await flush(client, pending);
        const d = event.data as SlotDetails;
        const before = await client.query<{ room_id: string; date: string }>(
          `SELECT room_id, date::text AS date FROM rm_insight_lead_slots WHERE time_slot_id = $1`,
          [timeSlotId],
        );
        for (const r of before.rows) addDay(r.room_id, r.date);
        await client.query(
          `INSERT INTO rm_insight_lead_slots (time_slot_id, room_id, date, starts_at)
           VALUES ($1, $2, $3, ($3::date + $4::time) AT TIME ZONE $5::text)
           ON CONFLICT (time_slot_id) DO UPDATE SET room_id = $2, date = $3,
             starts_at = ($3::date + $4::time) AT TIME ZONE $5::text`,
          [timeSlotId, d.roomId, d.date, d.startTime, timeZone],
        );
        // A moved start moves the instant its bookings' lead times are measured to.
        if (event.type === 'TimeSlotUpdated') {
          await client.query(
            `UPDATE rm_insight_lead_tickets t SET room_id = s.room_id, date = s.date,
                    starts_at = s.starts_at, days = ${daysFrom('s.starts_at', 't.booked_at')}
               FROM rm_insight_lead_slots s
              WHERE s.time_slot_id = $1 AND t.time_slot_id = s.time_slot_id`,
            [timeSlotId],
          );
          addDay(d.roomId, d.date);
        }
        break;
      }
      case 'TimeSlotDeleted':
        // Its booked tickets keep counting, as in the insights projection's per-ticket rows.
        await flush(client, pending);
        await client.query(`DELETE FROM rm_insight_lead_slots WHERE time_slot_id = $1`, [
          timeSlotId,
        ]);
        break;
      case 'TicketBooked':
        touched.add(timeSlotId);
        pending.booked.push({ ticketId: ticketOf(event), timeSlotId, at: event.createdAt });
        break;
      case 'TicketCancelled':
        touched.add(timeSlotId);
        pending.cancelled.push({ ticketId: ticketOf(event), at: event.createdAt });
        break;
    }
  }
  await flush(client, pending);
  if (touched.size > 0) {
    const rows = await client.query<{ room_id: string; date: string }>(
      `SELECT DISTINCT room_id, date::text AS date FROM rm_insight_lead_tickets
        WHERE time_slot_id = ANY($1::uuid[])`,
      [[...touched]],
    );
    for (const r of rows.rows) addDay(r.room_id, r.date);
  }
  if (days.size === 0) return;
  const params = [[...days.values()].map((d) => d.roomId), [...days.values()].map((d) => d.date)];
  await client.query(TAKE_OFF_MONTHS, params);
  await client.query(DROP_DAYS, params);
  await client.query(COUNT_DAYS, params);
  await client.query(ADD_TO_MONTHS, params);
  await client.query(DROP_EMPTY_MONTHS, params);
}
