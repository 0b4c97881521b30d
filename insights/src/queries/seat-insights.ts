import { InsightsQuery as InsightsContract } from '@rr/contracts';
import { SEAT_ATTRIBUTES } from '@rr/contracts/seats';
import { csvWithSite, type CsvCell } from '@rr/domain';
import { defineRoute, fromContract, sendCsv, siteColumnOf, z, type RouteDef } from '@rr/platform';
import type { InsightsDeps } from '../deps.ts';

/**
 * The seats' use of one room with a seat plan over a period (docs/product.md#insights): per seat
 * its booked hours of the hours it was offered, per attribute its seats' use, how early they are
 * booked and how often they were all taken while the room still had a free seat, and the cart
 * requests refused for their seat wish by attribute. Read from the insights projections' tables,
 * the plan's read model and the record of refused requests; nothing of personal data.
 */

const Query = fromContract(InsightsContract).safeExtend({ roomId: z.uuid('Not a valid id') });
export type SeatInsightsFilter = z.output<typeof Query>;

const share = z.number().nullable();
const seatInsightsSchema = z
  .object({
    /** Whether the room checks tickets in now (without it, checked-in hours are null). */
    checkIn: z.boolean(),
    seats: z.array(
      z.object({
        seatId: z.string(),
        label: z.string(),
        zone: z.string().nullable(),
        attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
        offeredHours: z.number(),
        bookedHours: z.number(),
        /** Booked of offered hours; null: never offered in the period. */
        useShare: share,
        checkedInHours: z.number().nullable(),
      }),
    ),
    attributes: z.array(
      z.object({
        attribute: z.enum(SEAT_ATTRIBUTES),
        seats: z.number(),
        offeredHours: z.number(),
        bookedHours: z.number(),
        useShare: share,
        /** Median whole days from the booking to the slot's start of its seats' bookings. */
        medianLeadDays: z.number().nullable(),
        /** Slots of the period in which at least one of its seats was offered. */
        slots: z.number(),
        /** Slots in which every one of its seats was booked. */
        soldOutSlots: z.number(),
        /** Of those, the slots in which it was all booked while the room still had a free seat. */
        soldOutFirstSlots: z.number(),
        /** Of the slots, the share sold out first; null: no slot. */
        soldOutFirstShare: share,
        refusedNoneMatching: z.number(),
        refusedTaken: z.number(),
      }),
    ),
    /** Every refused seat wish, an attribute's or not (a seat without attributes asked for). */
    refused: z.object({ noneMatching: z.number(), taken: z.number() }),
  })
  .openapi('SeatInsights');
export type SeatInsights = z.infer<typeof seatInsightsSchema>;
type Attribute = (typeof SEAT_ATTRIBUTES)[number];

const hours = (minutes: string | number) => Math.round((Number(minutes) / 60) * 100) / 100;
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10000) / 10000);

// $1 the room, $2 and $3 the period. The seats are the plan's as it is now; a seat counts as
// offered in a slot when the slot offers it (all seats, or those staff chose for it) and it is
// not out of service on the slot's day.
const OFFERED = `
  slots AS (
    SELECT s.time_slot_id, s.date, s.end_min - s.start_min AS minutes,
           string_to_array(ts.seat_ids, ',') AS chosen
      FROM rm_insight_slots s LEFT JOIN rm_time_slots ts ON ts.id = s.time_slot_id
     WHERE s.room_id = $1 AND s.date BETWEEN $2::date AND $3::date),
  seats AS (SELECT id, position, label, zone, attributes FROM rm_seats WHERE room_id = $1),
  offered AS (
    SELECT st.id AS seat_id, s.time_slot_id, s.minutes FROM seats st CROSS JOIN slots s
     WHERE (s.chosen IS NULL OR st.id::text = ANY (s.chosen))
       AND NOT EXISTS (SELECT 1 FROM rm_seat_out_of_service o
                        WHERE o.room_id = $1 AND o.seat_id = st.id
                          AND s.date BETWEEN o.from_date AND o.until)),
  booked AS (
    SELECT t.ticket_id, t.seat_id, t.time_slot_id, t.booked_at, t.checked_in, s.minutes
      FROM rm_insight_seat_tickets t JOIN slots s USING (time_slot_id)
     WHERE t.booked_at IS NOT NULL)`;

const SEATS = `
  WITH ${OFFERED}
  SELECT st.id, st.label, st.zone, st.attributes,
         coalesce((SELECT sum(minutes) FROM offered o WHERE o.seat_id = st.id), 0)::bigint AS offered,
         coalesce((SELECT sum(minutes) FROM booked b WHERE b.seat_id = st.id), 0)::bigint AS booked,
         coalesce((SELECT sum(minutes) FROM booked b WHERE b.seat_id = st.id AND b.checked_in), 0)::bigint
           AS checked_in
    FROM seats st ORDER BY st.position`;

// Per slot and attribute (and for the whole room, attribute null): the seats offered, the seats
// booked and the instant the last of them was booked, as the bookings stand.
const SOLD_OUT = `
  WITH ${OFFERED},
  per AS (
    SELECT o.time_slot_id, a.attribute, count(DISTINCT o.seat_id) AS seats,
           count(DISTINCT b.seat_id) AS taken, max(b.booked_at) AS last_at
      FROM offered o JOIN seats st ON st.id = o.seat_id
     CROSS JOIN LATERAL unnest(st.attributes || ARRAY[NULL::text]) AS a(attribute)
      LEFT JOIN booked b ON b.time_slot_id = o.time_slot_id AND b.seat_id = o.seat_id
     GROUP BY o.time_slot_id, a.attribute)
  SELECT p.attribute, count(*)::int AS slots,
         count(*) FILTER (WHERE p.taken = p.seats)::int AS sold_out,
         count(*) FILTER (WHERE p.taken = p.seats AND (r.taken < r.seats OR p.last_at < r.last_at))::int
           AS sold_out_first
    FROM per p JOIN per r ON r.time_slot_id = p.time_slot_id AND r.attribute IS NULL
   WHERE p.attribute IS NOT NULL
   GROUP BY p.attribute`;

const LEAD = `
  WITH ${OFFERED}
  SELECT a.attribute, percentile_disc(0.5) WITHIN GROUP (ORDER BY l.days)::int AS median
    FROM booked b JOIN rm_insight_lead_tickets l ON l.ticket_id = b.ticket_id
    JOIN seats st ON st.id = b.seat_id CROSS JOIN LATERAL unnest(st.attributes) AS a(attribute)
   GROUP BY a.attribute`;

const REFUSED = `
  SELECT a.attribute,
         count(*) FILTER (WHERE r.rule = 'seat__none_matching')::int AS none_matching,
         count(*) FILTER (WHERE r.rule = 'seat__taken')::int AS taken
    FROM cart_seat_refusals r
   CROSS JOIN LATERAL unnest(r.attributes || ARRAY[NULL::text]) AS a(attribute)
   WHERE r.room_id = $1 AND r.date BETWEEN $2::date AND $3::date
   GROUP BY a.attribute`;

const CHECK_IN = `SELECT (services->>'checkInMinutesBefore') IS NOT NULL AS on FROM rm_rooms WHERE id = $1`;

interface SeatRow {
  id: string;
  label: string;
  zone: string | null;
  attributes: Attribute[];
  offered: string;
  booked: string;
  checked_in: string;
}

export function seatInsightsOf({ pool }: Pick<InsightsDeps, 'pool'>) {
  return async (q: SeatInsightsFilter): Promise<SeatInsights> => {
    const args = [q.roomId, q.fromDate, q.untilDate];
    const [seatRows, soldOut, lead, refused, checkIn] = await Promise.all([
      pool.query<SeatRow>(SEATS, args),
      pool.query<{ attribute: string; slots: number; sold_out: number; sold_out_first: number }>(
        SOLD_OUT,
        args,
      ),
      pool.query<{ attribute: string; median: number }>(LEAD, args),
      pool.query<{ attribute: string | null; none_matching: number; taken: number }>(REFUSED, args),
      pool.query<{ on: boolean }>(CHECK_IN, [q.roomId]),
    ]);
    const withCheckIn = checkIn.rows[0]?.on ?? false;
    const seats = seatRows.rows.map((r) => ({
      seatId: r.id,
      label: r.label,
      zone: r.zone,
      attributes: r.attributes,
      offeredHours: hours(r.offered),
      bookedHours: hours(r.booked),
      useShare: ratio(Number(r.booked), Number(r.offered)),
      checkedInHours: withCheckIn ? hours(r.checked_in) : null,
      minutes: { offered: Number(r.offered), booked: Number(r.booked) },
    }));
    const byAttribute = <T extends { attribute: string | null }>(rows: T[]) =>
      new Map(rows.map((r) => [r.attribute, r]));
    const sold = byAttribute(soldOut.rows);
    const leads = byAttribute(lead.rows);
    const refusals = byAttribute(refused.rows);
    const attributes = SEAT_ATTRIBUTES.map((attribute) => {
      const having = seats.filter((s) => s.attributes.includes(attribute));
      const offered = having.reduce((n, s) => n + s.minutes.offered, 0);
      const booked = having.reduce((n, s) => n + s.minutes.booked, 0);
      const s = sold.get(attribute);
      return {
        attribute,
        seats: having.length,
        offeredHours: hours(offered),
        bookedHours: hours(booked),
        useShare: ratio(booked, offered),
        medianLeadDays: leads.get(attribute)?.median ?? null,
        slots: s?.slots ?? 0,
        soldOutSlots: s?.sold_out ?? 0,
        soldOutFirstSlots: s?.sold_out_first ?? 0,
        soldOutFirstShare: ratio(s?.sold_out_first ?? 0, s?.slots ?? 0),
        refusedNoneMatching: refusals.get(attribute)?.none_matching ?? 0,
        refusedTaken: refusals.get(attribute)?.taken ?? 0,
      };
    });
    const all = refusals.get(null);
    return {
      checkIn: withCheckIn,
      seats: seats.map(({ minutes: _minutes, ...seat }) => seat),
      attributes,
      refused: { noneMatching: all?.none_matching ?? 0, taken: all?.taken ?? 0 },
    };
  };
}

const SEAT_PARTS = ['seats', 'attributes'] as const;

/** One part of the seats' use as a table: its CSV's header and rows (the screen's tables). */
function tableOf(part: (typeof SEAT_PARTS)[number], x: SeatInsights): [string[], CsvCell[][]] {
  if (part === 'seats')
    return [
      [
        'Platz',
        'Zone',
        'Merkmale',
        'Angebotene Stunden',
        'Gebuchte Stunden',
        'Auslastung',
        'Eingecheckte Stunden',
      ],
      x.seats.map((s) => [
        s.label,
        s.zone ?? '',
        s.attributes.join(' '),
        s.offeredHours,
        s.bookedHours,
        s.useShare ?? '',
        s.checkedInHours ?? '',
      ]),
    ];
  return [
    [
      'Merkmal',
      'Plätze',
      'Angebotene Stunden',
      'Gebuchte Stunden',
      'Auslastung',
      'Median Vorlauf (Tage)',
      'Zeitfenster',
      'Ausgebucht',
      'Zuerst ausgebucht',
      'Abgewiesen: kein passender Platz',
      'Abgewiesen: Platz vergeben',
    ],
    x.attributes.map((a) => [
      a.attribute,
      a.seats,
      a.offeredHours,
      a.bookedHours,
      a.useShare ?? '',
      a.medianLeadDays ?? '',
      a.slots,
      a.soldOutSlots,
      a.soldOutFirstSlots,
      a.refusedNoneMatching,
      a.refusedTaken,
    ]),
  ];
}

/** GET /admin/insights/seats (and its parts as CSV) for the admin and reports roles. */
export function seatInsightsRoutes(deps: InsightsDeps): RouteDef[] {
  const seatInsights = seatInsightsOf(deps);
  return [
    defineRoute({
      method: 'get',
      path: '/admin/insights/seats.csv',
      summary: "One part of a room's seats' use (seats, attributes) as CSV",
      tags: ['reports'],
      access: ['admin', 'reports'],
      sites: { query: { roomId: 'room' } },
      query: Query.safeExtend({ part: z.enum(SEAT_PARTS) }),
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ query, res }) => {
        const x = await seatInsights(query);
        // With several sites the room's site as the last column (as the other insights' CSVs).
        const site = await siteColumnOf(deps.pool, deps.libraryName, query.roomId, null);
        sendCsv(
          res,
          `insights-seats-${query.part}-${query.fromDate}-${query.untilDate}.csv`,
          csvWithSite(...tableOf(query.part, x), site),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/insights/seats',
      summary:
        "A room's seats' use over a period: per seat and per attribute, how early they sell out, and seat wishes refused",
      tags: ['reports'],
      access: ['admin', 'reports'],
      sites: { query: { roomId: 'room' } },
      query: Query,
      responses: { 200: { description: 'Seat insights', schema: seatInsightsSchema } },
      handler: async ({ query }) => ({ body: await seatInsights(query) }),
    }),
  ];
}
