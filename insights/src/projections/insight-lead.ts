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
 * The lead time of the insights (docs/product.md#insights), counted ahead: per room, day and
 * whole days from the booking to the slot's start, the bookings, the cancelled ones and those
 * cancelled less than 24 hours before the start; the same per room and month for the months a
 * period covers whole. The insights read a few thousand of these rows instead of every booked
 * ticket. A batch's bookings and cancellations add to their day's and month's rows in one
 * statement each (the rows a batch changes, no more: a rebuild writes each row about once per
 * batch that touches it); a moved slot, which is rare, has its days and months counted again
 * from the projection's per-ticket rows.
 *
 * The days are measured to the slot's start in the library's time zone, which the projection is
 * made with (TIME_ZONE): a change of the zone needs a rebuild (`npm run rebuild`). Its tables are
 * new beside the insights projection's (which the previous release keeps reading during a rolling
 * upgrade); being a projection of its own, it fills them from the log on its first start.
 */

const SLOT_PREFIX = `${timeSlotStream.kind}-`;

type SlotDetails = Extract<TimeSlotLifecycleEvent, { type: 'TimeSlotCreated' }>['data'];

const slotOf = (event: RecordedEvent): string | null =>
  event.streamId.startsWith(SLOT_PREFIX) ? event.streamId.slice(SLOT_PREFIX.length) : null;

/** Whole days (24 hours) from the booking to the start; a booking after the start counts 0. */
const daysFrom = (start: string, booked: string) =>
  `greatest(0, floor(extract(epoch FROM ${start} - ${booked}) / 86400))::int`;

/**
 * Adds the counts of `n` (rows of room_id, date, days, bookings, cancelled, late) to their days'
 * and their months' rows: the one place both tables move, so a month stays the sum of its days.
 */
const ADD_COUNTS = `
  d AS (
    INSERT INTO rm_insight_lead_days AS x (room_id, date, days, bookings, cancelled, late)
    SELECT room_id, date, days, bookings, cancelled, late FROM n
    ON CONFLICT (room_id, date, days) DO UPDATE SET bookings = x.bookings + excluded.bookings,
       cancelled = x.cancelled + excluded.cancelled, late = x.late + excluded.late)
  INSERT INTO rm_insight_lead_months AS m (room_id, month, days, bookings, cancelled, late)
  SELECT room_id, date_trunc('month', date)::date, days, sum(bookings), sum(cancelled), sum(late)
    FROM n GROUP BY 1, 2, 3
  ON CONFLICT (room_id, month, days) DO UPDATE SET bookings = m.bookings + excluded.bookings,
     cancelled = m.cancelled + excluded.cancelled, late = m.late + excluded.late`;

/** A batch's booked tickets' rows (once each). */
const BOOK_TICKETS = `
    INSERT INTO rm_insight_lead_tickets (ticket_id, time_slot_id, room_id, date, starts_at, booked_at, days)
    SELECT DISTINCT ON (b.ticket_id) b.ticket_id, s.time_slot_id, s.room_id, s.date, s.starts_at,
           b.at, ${daysFrom('s.starts_at', 'b.at')}
      FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[])
           WITH ORDINALITY AS b(ticket_id, time_slot_id, at, n)
      JOIN rm_insight_lead_slots s ON s.time_slot_id = b.time_slot_id
     -- A ticket booked twice in one batch keeps its first booking, as across batches.
     ORDER BY b.ticket_id, b.n
    ON CONFLICT (ticket_id) DO NOTHING`;

/** The same, and one more booking on their days' and months' rows. */
const BOOK = `
  WITH b AS (${BOOK_TICKETS}
    RETURNING room_id, date, days),
  n AS (SELECT room_id, date, days, count(*)::int AS bookings, 0 AS cancelled, 0 AS late
          FROM b GROUP BY 1, 2, 3),
  ${ADD_COUNTS}`;

/** A batch's cancelled tickets' rows (once each). */
const CANCEL_TICKETS = `
    UPDATE rm_insight_lead_tickets t SET cancelled_at = c.at
      FROM unnest($1::uuid[], $2::timestamptz[]) AS c(ticket_id, at)
     WHERE t.ticket_id = c.ticket_id AND t.cancelled_at IS NULL`;

/** The same, and one more cancellation on their days' and months' rows, and a late one if late. */
const CANCEL = `
  WITH c AS (${CANCEL_TICKETS}
    RETURNING t.room_id, t.date, t.days,
              t.cancelled_at > t.starts_at - interval '24 hours' AS late),
  n AS (SELECT room_id, date, days, 0 AS bookings, count(*)::int AS cancelled,
               count(*) FILTER (WHERE late)::int AS late
          FROM c GROUP BY 1, 2, 3),
  ${ADD_COUNTS}`;

// A moved slot (rare): the days of its room and dates before and after are counted again from
// the ticket rows, and their months from the days. $1 the rooms, $2 the days.
const TOUCHED = `unnest($1::uuid[], $2::date[]) AS d(room_id, date)`;
const RECOUNT_DAYS = [
  `DELETE FROM rm_insight_lead_days x USING ${TOUCHED}
    WHERE x.room_id = d.room_id AND x.date = d.date`,
  `INSERT INTO rm_insight_lead_days (room_id, date, days, bookings, cancelled, late)
   SELECT t.room_id, t.date, t.days, count(*), count(t.cancelled_at),
          count(*) FILTER (WHERE t.cancelled_at > t.starts_at - interval '24 hours')
     FROM ${TOUCHED} JOIN rm_insight_lead_tickets t ON t.room_id = d.room_id AND t.date = d.date
    GROUP BY t.room_id, t.date, t.days`,
];
const MONTHS_OF_TOUCHED = `SELECT DISTINCT room_id, date_trunc('month', date)::date AS month FROM ${TOUCHED}`;
const RECOUNT_MONTHS = [
  `DELETE FROM rm_insight_lead_months x USING (${MONTHS_OF_TOUCHED}) m
    WHERE x.room_id = m.room_id AND x.month = m.month`,
  `INSERT INTO rm_insight_lead_months (room_id, month, days, bookings, cancelled, late)
   SELECT x.room_id, m.month, x.days, sum(x.bookings), sum(x.cancelled), sum(x.late)
     FROM (${MONTHS_OF_TOUCHED}) m
     JOIN rm_insight_lead_days x
       ON x.room_id = m.room_id AND x.date >= m.month AND x.date < m.month + interval '1 month'
    GROUP BY x.room_id, m.month, x.days`,
];

/**
 * Every day's and month's counts from the ticket rows (after a rebuild's replay, see `replay`):
 * what adding them batch by batch comes to, as each ticket row is written once and its
 * cancellation once, and a moved slot's days and months are counted again the same way.
 */
const COUNT_ALL = [
  `DELETE FROM rm_insight_lead_days`,
  `DELETE FROM rm_insight_lead_months`,
  `INSERT INTO rm_insight_lead_days (room_id, date, days, bookings, cancelled, late)
   SELECT t.room_id, t.date, t.days, count(*), count(t.cancelled_at),
          count(*) FILTER (WHERE t.cancelled_at > t.starts_at - interval '24 hours')
     FROM rm_insight_lead_tickets t GROUP BY t.room_id, t.date, t.days`,
  `INSERT INTO rm_insight_lead_months (room_id, month, days, bookings, cancelled, late)
   SELECT room_id, date_trunc('month', date)::date, days, sum(bookings), sum(cancelled), sum(late)
     FROM rm_insight_lead_days GROUP BY 1, 2, 3`,
];

/** A batch's booked and cancelled tickets, not yet written; `counts: false` in a replay. */
interface Pending {
  booked: { ticketId: string; timeSlotId: string; at: Date }[];
  /** The first cancellation of each ticket: a later one changes nothing, as per event. */
  cancelled: Map<string, Date>;
  counts: boolean;
}

async function flush(client: PoolClient, p: Pending): Promise<void> {
  if (p.booked.length > 0)
    await client.query(p.counts ? BOOK : BOOK_TICKETS, [
      p.booked.map((b) => b.ticketId),
      p.booked.map((b) => b.timeSlotId),
      p.booked.map((b) => b.at),
    ]);
  if (p.cancelled.size > 0)
    await client.query(p.counts ? CANCEL : CANCEL_TICKETS, [
      [...p.cancelled.keys()],
      [...p.cancelled.values()],
    ]);
  p.booked.length = 0;
  p.cancelled.clear();
}

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
    handles: lead.handles,
    apply: (client, event) => applyLead(client, [event], timeZone, true),
    applyBatch: (client, events) => applyLead(client, events, timeZone, true),
    // A rebuild counts the days and months once from the ticket rows, not batch by batch.
    replay: {
      applyBatch: (client, events) => applyLead(client, events, timeZone, false),
      async complete(client) {
        for (const sql of COUNT_ALL) await client.query(sql);
      },
    },
  };
}

/** A batch being applied: the library's time zone, what gathered, and the event's slot. */
interface Batch {
  client: PoolClient;
  timeZone: string;
  pending: Pending;
  timeSlotId: string;
}

const lead = handlersFor(timeSlotStream).with<Batch, Step>({
  async TimeSlotCreated(e, b) {
    await slotDetails(e.data, b);
  },
  async TimeSlotUpdated(e, b) {
    const before = await slotDetails(e.data, b);
    await slotMoved(e.data, b, before);
  },
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  async TimeSlotDeleted(_e, b) {
    // Its booked tickets keep counting, as in the insights projection's per-ticket rows.
    await flush(b.client, b.pending);
    await b.client.query(`DELETE FROM rm_insight_lead_slots WHERE time_slot_id = $1`, [
      b.timeSlotId,
    ]);
  },
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ignore,
  async TicketBooked(e, b) {
    // A cancellation gathered before it found no booking row to cancel (rare): written first.
    if (b.pending.cancelled.has(e.data.ticketId)) await flush(b.client, b.pending);
    b.pending.booked.push({ ticketId: e.data.ticketId, timeSlotId: b.timeSlotId, at: e.createdAt });
  },
  TicketCancelled(e, b) {
    // After the bookings gathered before it (a ticket booked and cancelled in one batch).
    if (!b.pending.cancelled.has(e.data.ticketId))
      b.pending.cancelled.set(e.data.ticketId, e.createdAt);
  },
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  TicketSeatChanged: ignore,
  TicketNoShowReleased: ignore,
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: ignore,
  WaitlistJoined: ignore,
  SeatOffered: ignore,
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

/**
 * A slot created or changed: its row, written in order after the tickets gathered before it
 * (slot changes are rare). Answers the room and day it had before.
 */
async function slotDetails(d: SlotDetails, b: Batch): Promise<{ room_id: string; date: string }[]> {
  await flush(b.client, b.pending);
  const before = await b.client.query<{ room_id: string; date: string }>(
    `SELECT room_id, date::text AS date FROM rm_insight_lead_slots WHERE time_slot_id = $1`,
    [b.timeSlotId],
  );
  await b.client.query(
    `INSERT INTO rm_insight_lead_slots (time_slot_id, room_id, date, starts_at)
     VALUES ($1, $2, $3, ($3::date + $4::time) AT TIME ZONE $5::text)
     ON CONFLICT (time_slot_id) DO UPDATE SET room_id = $2, date = $3,
       starts_at = ($3::date + $4::time) AT TIME ZONE $5::text`,
    [b.timeSlotId, d.roomId, d.date, d.startTime, b.timeZone],
  );
  return before.rows;
}

/** A moved start moves the instant its bookings' lead times are measured to. */
async function slotMoved(
  d: SlotDetails,
  b: Batch,
  before: { room_id: string; date: string }[],
): Promise<void> {
  const moved = await b.client.query(
    `UPDATE rm_insight_lead_tickets t SET room_id = s.room_id, date = s.date,
            starts_at = s.starts_at, days = ${daysFrom('s.starts_at', 't.booked_at')}
       FROM rm_insight_lead_slots s
      WHERE s.time_slot_id = $1 AND t.time_slot_id = s.time_slot_id`,
    [b.timeSlotId],
  );
  if (!moved.rowCount || !b.pending.counts) return;
  // Its room and day before and after, each once (a day twice would count its tickets twice).
  const touched = new Map(
    [...before, { room_id: d.roomId, date: d.date }].map((r) => [`${r.room_id}|${r.date}`, r]),
  );
  const params = [
    [...touched.values()].map((r) => r.room_id),
    [...touched.values()].map((r) => r.date),
  ];
  for (const sql of [...RECOUNT_DAYS, ...RECOUNT_MONTHS]) await b.client.query(sql, params);
}

async function applyLead(
  client: PoolClient,
  events: RecordedEvent[],
  timeZone: string,
  counts: boolean,
) {
  const pending: Pending = { booked: [], cancelled: new Map(), counts };
  const batch: Batch = { client, timeZone, pending, timeSlotId: '' };
  for (const event of events) {
    const timeSlotId = slotOf(event);
    if (!timeSlotId) continue;
    batch.timeSlotId = timeSlotId;
    await lead.handle(event, batch);
  }
  await flush(client, batch.pending);
}
