import type { RecordedEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

/**
 * The insights for the people who plan the rooms (docs/product.md#insights): per slot its
 * offered seats and what became of them (booked, cancelled, no-shows, the waitlist's joins and
 * offers), per room, day and hour the seat-minutes offered and booked, and per booked ticket the
 * instants lead time and late cancellations are measured by. Everything from the slot streams;
 * no personal data.
 *
 * A batch is folded into per-slot changes and written with a few set-based statements: the slot
 * rows' counters move by the batch's sums, and the hours of every room and day the batch touched
 * are counted again from the slot rows, so they never drift from them.
 */

const SLOT_PREFIX = 'timeslot-';

interface SlotDetails {
  timeSlotId: string;
  roomId: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
}

type Counter =
  'booked' | 'cancelled' | 'no_shows' | 'waitlist_joins' | 'offers_taken' | 'offers_lapsed';

const COUNTERS: readonly Counter[] = [
  'booked',
  'cancelled',
  'no_shows',
  'waitlist_joins',
  'offers_taken',
  'offers_lapsed',
];

/** Which counter of its slot an event moves, and by how much. */
const COUNTED: Readonly<Record<string, [Counter, number][]>> = {
  TicketBooked: [['booked', 1]],
  // A cancelled ticket no longer takes a seat; a no-show did take it until its release.
  TicketCancelled: [
    ['booked', -1],
    ['cancelled', 1],
  ],
  TicketNoShowReleased: [['no_shows', 1]],
  // A ticket not confirmed in time never took its seat: it is no longer counted as booked.
  TicketConfirmationLapsed: [['booked', -1]],
  WaitlistJoined: [['waitlist_joins', 1]],
  SeatOfferTaken: [['offers_taken', 1]],
  SeatOfferLapsed: [['offers_lapsed', 1]],
};

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const slotOf = (event: RecordedEvent): string | null =>
  event.streamId.startsWith(SLOT_PREFIX) ? event.streamId.slice(SLOT_PREFIX.length) : null;

const ticketOf = (event: RecordedEvent): string => (event.data as { ticketId: string }).ticketId;

/** The hours of the touched rooms' days go, to be counted again from their slot rows. */
const DROP_HOURS = `
  DELETE FROM rm_insight_hours h USING unnest($1::uuid[], $2::date[]) AS d(room_id, date)
   WHERE h.room_id = d.room_id AND h.date = d.date`;
const COUNT_HOURS = `
  INSERT INTO rm_insight_hours (room_id, date, hour, offered_seat_minutes, booked_seat_minutes)
  SELECT s.room_id, s.date, hr, sum(o.minutes * s.capacity), sum(o.minutes * greatest(s.booked, 0))
    FROM unnest($1::uuid[], $2::date[]) AS d(room_id, date)
    JOIN rm_insight_slots s ON s.room_id = d.room_id AND s.date = d.date
   CROSS JOIN LATERAL generate_series(s.start_min / 60, 23) AS hr
   CROSS JOIN LATERAL (SELECT least(s.end_min, hr * 60 + 60) - greatest(s.start_min, hr * 60) AS minutes) o
   WHERE o.minutes > 0
   GROUP BY s.room_id, s.date, hr`;

export const insightsProjection: Projection = {
  name: 'insights',
  derivedOnly: true,
  tables: ['rm_insight_slots', 'rm_insight_hours', 'rm_insight_bookings'],
  handles: new Set([
    'TimeSlotCreated',
    'TimeSlotUpdated',
    'TimeSlotCapacityChanged',
    'TimeSlotDeleted',
    ...Object.keys(COUNTED),
  ]),
  apply: (client: PoolClient, event: RecordedEvent) => applyInsights(client, [event]),
  applyBatch: applyInsights,
};

/** A batch's counter changes and booked tickets, not yet written. */
class Pending {
  readonly deltas = new Map<string, Record<Counter, number>>();
  readonly booked: { ticketId: string; timeSlotId: string; at: Date }[] = [];
  readonly cancelled: { ticketId: string; at: Date }[] = [];

  count(timeSlotId: string, counted: readonly [Counter, number][]): void {
    const delta =
      this.deltas.get(timeSlotId) ??
      (Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>);
    for (const [counter, by] of counted) delta[counter] += by;
    this.deltas.set(timeSlotId, delta);
  }

  /** Writes what has gathered: before a slot's row changes, and at the batch's end. */
  async flush(client: PoolClient): Promise<void> {
    if (this.deltas.size > 0) {
      const ids = [...this.deltas.keys()];
      const sets = COUNTERS.map((c) => `${c} = s.${c} + d.${c}`).join(', ');
      await client.query(
        `UPDATE rm_insight_slots s SET ${sets}
           FROM unnest($1::uuid[], ${COUNTERS.map((_, i) => `$${i + 2}::int[]`).join(', ')})
             AS d(time_slot_id, ${COUNTERS.join(', ')})
          WHERE s.time_slot_id = d.time_slot_id`,
        [ids, ...COUNTERS.map((c) => ids.map((id) => this.deltas.get(id)![c]))],
      );
    }
    if (this.booked.length > 0)
      await client.query(
        `INSERT INTO rm_insight_bookings (ticket_id, time_slot_id, room_id, date, starts_local, booked_at)
         SELECT b.ticket_id, s.time_slot_id, s.room_id, s.date,
                s.date + make_interval(mins => s.start_min), b.at
           FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS b(ticket_id, time_slot_id, at)
           JOIN rm_insight_slots s ON s.time_slot_id = b.time_slot_id
         ON CONFLICT (ticket_id) DO NOTHING`,
        [
          this.booked.map((b) => b.ticketId),
          this.booked.map((b) => b.timeSlotId),
          this.booked.map((b) => b.at),
        ],
      );
    if (this.cancelled.length > 0)
      await client.query(
        `UPDATE rm_insight_bookings b SET cancelled_at = c.at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS c(ticket_id, at)
          WHERE b.ticket_id = c.ticket_id`,
        [this.cancelled.map((c) => c.ticketId), this.cancelled.map((c) => c.at)],
      );
    this.deltas.clear();
    this.booked.length = 0;
    this.cancelled.length = 0;
  }
}

async function applyInsights(client: PoolClient, events: RecordedEvent[]): Promise<void> {
  // Slot changes (rare) are written in order, after what gathered before them; counters are
  // sums, so their order among themselves does not matter.
  const pending = new Pending();
  const touched = new Set<string>();
  const days = new Map<string, { roomId: string; date: string }>();
  const addDay = (roomId: string, date: string) => days.set(`${roomId}|${date}`, { roomId, date });
  for (const event of events) {
    const timeSlotId = slotOf(event);
    if (!timeSlotId) continue;
    touched.add(timeSlotId);
    switch (event.type) {
      case 'TimeSlotCreated':
      case 'TimeSlotUpdated': {
        await pending.flush(client);
        const d = event.data as SlotDetails;
        await client.query(
          `INSERT INTO rm_insight_slots (time_slot_id, room_id, date, start_min, end_min, capacity)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (time_slot_id) DO UPDATE SET room_id = $2, date = $3, start_min = $4,
             end_min = $5, capacity = $6`,
          [timeSlotId, d.roomId, d.date, minutes(d.startTime), minutes(d.endTime), d.capacity],
        );
        // A moved start moves the instant its bookings' lead times are measured to.
        if (event.type === 'TimeSlotUpdated')
          await client.query(
            `UPDATE rm_insight_bookings SET starts_local = $2::date + $3::time WHERE time_slot_id = $1`,
            [timeSlotId, d.date, d.startTime],
          );
        break;
      }
      case 'TimeSlotCapacityChanged':
        await pending.flush(client);
        await client.query(`UPDATE rm_insight_slots SET capacity = $2 WHERE time_slot_id = $1`, [
          timeSlotId,
          (event.data as { capacity: number }).capacity,
        ]);
        break;
      case 'TimeSlotDeleted': {
        await pending.flush(client);
        // Its day's hours are counted again without it.
        const gone = await client.query<{ room_id: string; date: string }>(
          `DELETE FROM rm_insight_slots WHERE time_slot_id = $1 RETURNING room_id, date::text AS date`,
          [timeSlotId],
        );
        for (const r of gone.rows) addDay(r.room_id, r.date);
        break;
      }
      default: {
        const counted = COUNTED[event.type];
        if (!counted) break;
        pending.count(timeSlotId, counted);
        if (event.type === 'TicketBooked')
          pending.booked.push({ ticketId: ticketOf(event), timeSlotId, at: event.createdAt });
        if (event.type === 'TicketCancelled')
          pending.cancelled.push({ ticketId: ticketOf(event), at: event.createdAt });
      }
    }
  }
  await pending.flush(client);
  const rows = await client.query<{ room_id: string; date: string }>(
    `SELECT DISTINCT room_id, date::text AS date FROM rm_insight_slots WHERE time_slot_id = ANY($1::uuid[])`,
    [[...touched]],
  );
  for (const r of rows.rows) addDay(r.room_id, r.date);
  if (days.size === 0) return;
  const params = [[...days.values()].map((d) => d.roomId), [...days.values()].map((d) => d.date)];
  await client.query(DROP_HOURS, params);
  await client.query(COUNT_HOURS, params);
}
