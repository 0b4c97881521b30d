import {
  handlersFor,
  ignore,
  timeSlotStream,
  type RecordedEvent,
  type TimeSlotLifecycleEvent,
  type Projection,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

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

const SLOT_PREFIX = `${timeSlotStream.kind}-`;

type Counter =
  'booked' | 'cancelled' | 'no_shows' | 'waitlist_joins' | 'offers_taken' | 'offers_lapsed';

const noCounts = (): Record<Counter, number> => ({
  booked: 0,
  cancelled: 0,
  no_shows: 0,
  waitlist_joins: 0,
  offers_taken: 0,
  offers_lapsed: 0,
});
const COUNTERS: readonly Counter[] = [
  'booked',
  'cancelled',
  'no_shows',
  'waitlist_joins',
  'offers_taken',
  'offers_lapsed',
];

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const slotOf = (event: RecordedEvent): string | null =>
  event.streamId.startsWith(SLOT_PREFIX) ? event.streamId.slice(SLOT_PREFIX.length) : null;

/** The hours of the touched rooms' days go, to be counted again from their slot rows. */
const DROP_HOURS = `
  DELETE FROM rm_insight_hours h USING unnest($1::uuid[], $2::date[]) AS d(room_id, date)
   WHERE h.room_id = d.room_id AND h.date = d.date`;
/** Counts the hours of the slots `slots` gives (`s`, rows of rm_insight_slots) per room and day. */
const countHours = (slots: string) => `
  INSERT INTO rm_insight_hours (room_id, date, hour, offered_seat_minutes, booked_seat_minutes)
  SELECT s.room_id, s.date, hr, sum(o.minutes * s.capacity), sum(o.minutes * greatest(s.booked, 0))
    FROM ${slots}
   CROSS JOIN LATERAL generate_series(s.start_min / 60, 23) AS hr
   CROSS JOIN LATERAL (SELECT least(s.end_min, hr * 60 + 60) - greatest(s.start_min, hr * 60) AS minutes) o
   WHERE o.minutes > 0
   GROUP BY s.room_id, s.date, hr`;
const COUNT_HOURS = countHours(`unnest($1::uuid[], $2::date[]) AS d(room_id, date)
    JOIN rm_insight_slots s ON s.room_id = d.room_id AND s.date = d.date`);
/** Every room's and day's hours (after a rebuild's replay, see `replay`). */
const COUNT_ALL_HOURS = countHours('rm_insight_slots s');

/** A batch's counter changes and booked tickets, not yet written. */
class Pending {
  readonly deltas = new Map<string, Record<Counter, number>>();
  readonly booked: { ticketId: string; timeSlotId: string; at: Date }[] = [];
  /** The last cancellation of each ticket, as one UPDATE per event would leave it. */
  readonly cancelled = new Map<string, Date>();

  count(timeSlotId: string, counter: Counter, by: number): void {
    let delta = this.deltas.get(timeSlotId);
    if (!delta) this.deltas.set(timeSlotId, (delta = noCounts()));
    delta[counter] += by;
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
         SELECT DISTINCT ON (b.ticket_id) b.ticket_id, s.time_slot_id, s.room_id, s.date,
                s.date + make_interval(mins => s.start_min), b.at
           FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[])
                WITH ORDINALITY AS b(ticket_id, time_slot_id, at, n)
           JOIN rm_insight_slots s ON s.time_slot_id = b.time_slot_id
          -- A ticket booked twice in one batch keeps its first booking, as across batches.
          ORDER BY b.ticket_id, b.n
         ON CONFLICT (ticket_id) DO NOTHING`,
        [
          this.booked.map((b) => b.ticketId),
          this.booked.map((b) => b.timeSlotId),
          this.booked.map((b) => b.at),
        ],
      );
    if (this.cancelled.size > 0)
      await client.query(
        `UPDATE rm_insight_bookings b SET cancelled_at = c.at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS c(ticket_id, at)
          WHERE b.ticket_id = c.ticket_id`,
        [[...this.cancelled.keys()], [...this.cancelled.values()]],
      );
    this.deltas.clear();
    this.booked.length = 0;
    this.cancelled.clear();
  }
}

/** A batch being applied: what gathered, the days to count again, and the event's slot. */
interface Batch {
  client: PoolClient;
  pending: Pending;
  days: Map<string, { roomId: string; date: string }>;
  timeSlotId: string;
}

const addDay = (b: Batch, roomId: string, date: string) =>
  b.days.set(`${roomId}|${date}`, { roomId, date });

/**
 * Slot changes (rare) are written in order, after what gathered before them; counters are sums,
 * so their order among themselves does not matter. Each counter moves by the events of its slot:
 * a cancelled ticket no longer takes a seat (a no-show did take it until its release), and a
 * ticket not confirmed in time never took its seat.
 */
const insights = handlersFor(timeSlotStream).with<Batch, Step>({
  TimeSlotCreated: (e, b) => slotDetails(e.data, b),
  async TimeSlotUpdated(e, b) {
    // A slot moved to another day leaves its former day's hours, to be counted again without it.
    const before = await b.client.query<{ room_id: string; date: string }>(
      `SELECT room_id, date::text AS date FROM rm_insight_slots WHERE time_slot_id = $1`,
      [b.timeSlotId],
    );
    for (const r of before.rows) addDay(b, r.room_id, r.date);
    await slotDetails(e.data, b);
    // A moved start moves the instant its bookings' lead times are measured to.
    await b.client.query(
      `UPDATE rm_insight_bookings SET starts_local = $2::date + $3::time WHERE time_slot_id = $1`,
      [b.timeSlotId, e.data.date, e.data.startTime],
    );
  },
  async TimeSlotCapacityChanged(e, b) {
    await b.pending.flush(b.client);
    await b.client.query(`UPDATE rm_insight_slots SET capacity = $2 WHERE time_slot_id = $1`, [
      b.timeSlotId,
      e.data.capacity,
    ]);
  },
  // Which seats a slot offers leaves its capacity as it is: the insights count by capacity.
  TimeSlotSeatsChosen: ignore,
  async TimeSlotDeleted(_e, b) {
    await b.pending.flush(b.client);
    // Its day's hours are counted again without it.
    const gone = await b.client.query<{ room_id: string; date: string }>(
      `DELETE FROM rm_insight_slots WHERE time_slot_id = $1 RETURNING room_id, date::text AS date`,
      [b.timeSlotId],
    );
    for (const r of gone.rows) addDay(b, r.room_id, r.date);
  },
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ignore,
  async TicketBooked(e, b) {
    // A cancellation gathered before it found no booking row to cancel (rare): written first.
    if (b.pending.cancelled.has(e.data.ticketId)) await b.pending.flush(b.client);
    b.pending.count(b.timeSlotId, 'booked', 1);
    b.pending.booked.push({ ticketId: e.data.ticketId, timeSlotId: b.timeSlotId, at: e.createdAt });
  },
  TicketCancelled(e, b) {
    b.pending.count(b.timeSlotId, 'booked', -1);
    b.pending.count(b.timeSlotId, 'cancelled', 1);
    b.pending.cancelled.delete(e.data.ticketId);
    b.pending.cancelled.set(e.data.ticketId, e.createdAt);
  },
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  TicketSeatChanged: ignore,
  TicketNoShowReleased: (_e, b) => b.pending.count(b.timeSlotId, 'no_shows', 1),
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: (_e, b) => b.pending.count(b.timeSlotId, 'booked', -1),
  WaitlistJoined: (_e, b) => b.pending.count(b.timeSlotId, 'waitlist_joins', 1),
  SeatOffered: ignore,
  SeatOfferLapsed: (_e, b) => b.pending.count(b.timeSlotId, 'offers_lapsed', 1),
  SeatOfferTaken: (_e, b) => b.pending.count(b.timeSlotId, 'offers_taken', 1),
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

type SlotDetails = Extract<TimeSlotLifecycleEvent, { type: 'TimeSlotCreated' }>['data'];

/** A slot created or changed: its row, after what gathered before. */
async function slotDetails(d: SlotDetails, b: Batch): Promise<void> {
  await b.pending.flush(b.client);
  await b.client.query(
    `INSERT INTO rm_insight_slots (time_slot_id, room_id, date, start_min, end_min, capacity)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (time_slot_id) DO UPDATE SET room_id = $2, date = $3, start_min = $4,
       end_min = $5, capacity = $6`,
    [b.timeSlotId, d.roomId, d.date, minutes(d.startTime), minutes(d.endTime), d.capacity],
  );
}

/** Applies a batch; `hours: false` leaves the hours to be counted once after a replay. */
async function applyInsights(
  client: PoolClient,
  events: RecordedEvent[],
  hours = true,
): Promise<void> {
  const batch: Batch = { client, pending: new Pending(), days: new Map(), timeSlotId: '' };
  const touched = new Set<string>();
  for (const event of events) {
    const timeSlotId = slotOf(event);
    if (!timeSlotId) continue;
    touched.add(timeSlotId);
    batch.timeSlotId = timeSlotId;
    await insights.handle(event, batch);
  }
  await batch.pending.flush(client);
  if (!hours) return;
  const rows = await client.query<{ room_id: string; date: string }>(
    `SELECT DISTINCT room_id, date::text AS date FROM rm_insight_slots WHERE time_slot_id = ANY($1::uuid[])`,
    [[...touched]],
  );
  for (const r of rows.rows) addDay(batch, r.room_id, r.date);
  const days = [...batch.days.values()];
  if (days.length === 0) return;
  const params = [days.map((d) => d.roomId), days.map((d) => d.date)];
  await client.query(DROP_HOURS, params);
  await client.query(COUNT_HOURS, params);
}

export const insightsProjection: Projection = {
  name: 'insights',
  derivedOnly: true,
  tables: ['rm_insight_slots', 'rm_insight_hours', 'rm_insight_bookings'],
  handles: insights.handles,
  apply: (client: PoolClient, event: RecordedEvent) => applyInsights(client, [event]),
  applyBatch: (client, events) => applyInsights(client, events),
  // A rebuild counts the hours once from the slot rows, not again for every batch.
  replay: {
    applyBatch: (client, events) => applyInsights(client, events, false),
    async complete(client) {
      await client.query('DELETE FROM rm_insight_hours');
      await client.query(COUNT_ALL_HOURS);
    },
  },
};
