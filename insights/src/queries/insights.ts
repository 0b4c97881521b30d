import { INSIGHTS_PARTS, InsightsQuery as InsightsContract } from '@rr/contracts';
import { csvWithSite, type CsvCell } from '@rr/domain';
import {
  defineRoute,
  fromContract,
  sendCsv,
  siteFilterParam,
  siteColumnOf,
  sitesOfFilter,
  z,
  type RouteDef,
} from '@rr/platform';
import type { InsightsDeps } from '../deps.ts';

/**
 * The insights for the people who plan the rooms (docs/product.md#insights), read from the
 * insights projection's tables (counts per slot, per room, day and hour, per booked ticket) and
 * the record of refused cart requests; nothing of personal data.
 */

// docs/product.md#validation: the contract's rules (shared with the browser); the room is an id.
const Query = fromContract(InsightsContract).safeExtend({
  roomId: z.uuid('Not a valid id').optional(),
  site: siteFilterParam,
});
export type InsightsFilter = z.output<typeof Query>;

const insightsSchema = z
  .object({
    heatmap: z.array(
      z.object({
        weekday: z.number().int().min(1).max(7),
        hour: z.number().int().min(0).max(23),
        offeredSeatHours: z.number(),
        bookedSeatHours: z.number(),
      }),
    ),
    weeks: z.array(
      z.object({
        weekStart: z.string(),
        offeredSeats: z.number(),
        bookedSeats: z.number(),
        cancelled: z.number(),
        noShows: z.number(),
      }),
    ),
    demand: z.object({
      refused: z.number(),
      waitlistJoins: z.number(),
      offersTaken: z.number(),
      offersLapsed: z.number(),
    }),
    leadTimeDays: z.object({
      p50: z.number().nullable(),
      p90: z.number().nullable(),
      /** Bookings by whole days from the booking to the slot's start. */
      histogram: z.array(z.object({ days: z.number(), bookings: z.number() })),
    }),
    cancellations: z.number(),
    lateCancellations: z.number(),
    /** Cancellations less than 24 hours before the start, of all cancellations; null: none. */
    lateCancellationShare: z.number().nullable(),
  })
  .openapi('Insights');
export type Insights = z.infer<typeof insightsSchema>;

const hours = (seatMinutes: string | number) => Math.round((Number(seatMinutes) / 60) * 100) / 100;

/**
 * The rooms of the sites `$n` (null: every site's), for a user whose roles are for some sites
 * (docs/product.md#roles): her rooms' insights only.
 */
const OF_SITES = (n: number) =>
  `($${n}::uuid[] IS NULL OR room_id IN (SELECT id FROM rm_rooms WHERE site_id = ANY($${n}::uuid[])))`;

// $1 the room (null: every room), $2 and $3 the period, $4 the sites (null: every site).
const WHERE = `($1::uuid IS NULL OR room_id = $1) AND date BETWEEN $2::date AND $3::date AND ${OF_SITES(4)}`;

const HEATMAP = `
  SELECT extract(isodow FROM date)::int AS weekday, hour::int AS hour,
         sum(offered_seat_minutes)::bigint AS offered, sum(booked_seat_minutes)::bigint AS booked
    FROM rm_insight_hours WHERE ${WHERE}
   GROUP BY 1, 2 ORDER BY 1, 2`;
const WEEKS = `
  SELECT (date - (extract(isodow FROM date)::int - 1))::text AS week_start,
         sum(capacity)::int AS offered, sum(booked)::int AS booked,
         sum(cancelled)::int AS cancelled, sum(no_shows)::int AS no_shows
    FROM rm_insight_slots WHERE ${WHERE}
   GROUP BY 1 ORDER BY 1`;
const DEMAND = `
  SELECT coalesce(sum(waitlist_joins), 0)::int AS joins, coalesce(sum(offers_taken), 0)::int AS taken,
         coalesce(sum(offers_lapsed), 0)::int AS lapsed,
         (SELECT count(*)::int FROM cart_refusals
           WHERE ${WHERE} AND rule = 'timeslot_no_tickets_left') AS refused
    FROM rm_insight_slots WHERE ${WHERE}`;
// Lead time: whole days (24 hours) from the booking to the slot's start in the library's zone,
// counted ahead by the insight-lead projection per room, day and days (and per room and month):
// the months the period covers whole from the month rows (m.first up to m.after), the days before
// and after them from the day rows. The months are reckoned here, where a date may pass the year
// 9999 (the day after a period that ends on 9999-12-31), which an ISO date string cannot.
const LEAD = `
  WITH b AS (
    SELECT CASE WHEN extract(day FROM $2::date) = 1 THEN $2::date
                ELSE (date_trunc('month', $2::date) + interval '1 month')::date END AS first,
           date_trunc('month', $3::date + 1)::date AS after
  ), m AS (
    -- No whole month: an empty range at the day after the period, whose days are all day rows.
    SELECT CASE WHEN first < after THEN first ELSE $3::date + 1 END AS first,
           CASE WHEN first < after THEN after ELSE $3::date + 1 END AS after
      FROM b
  )
  SELECT days, sum(bookings)::int AS bookings, sum(cancelled)::int AS cancelled,
         sum(late)::int AS late
    FROM (
      SELECT days, bookings, cancelled, late FROM rm_insight_lead_months, m
       WHERE ($1::uuid IS NULL OR room_id = $1) AND month >= m.first AND month < m.after
         AND ${OF_SITES(4)}
      UNION ALL
      SELECT days, bookings, cancelled, late FROM rm_insight_lead_days, m
       WHERE ($1::uuid IS NULL OR room_id = $1) AND date >= $2::date AND date < m.first
         AND ${OF_SITES(4)}
      UNION ALL
      SELECT days, bookings, cancelled, late FROM rm_insight_lead_days, m
       WHERE ($1::uuid IS NULL OR room_id = $1) AND date >= m.after AND date <= $3::date
         AND ${OF_SITES(4)}
    ) x
   GROUP BY days ORDER BY days`;

/** The share of p (0..1) of a histogram sorted by value: the least value with that share. */
function percentile(histogram: { days: number; bookings: number }[], p: number): number | null {
  const total = histogram.reduce((n, h) => n + h.bookings, 0);
  if (total === 0) return null;
  const rank = Math.ceil(p * total);
  let seen = 0;
  for (const h of histogram) {
    seen += h.bookings;
    if (seen >= rank) return h.days;
  }
  return histogram[histogram.length - 1]!.days;
}

export function insightsOf({ pool }: Pick<InsightsDeps, 'pool'>) {
  return async (q: InsightsFilter, sites: readonly string[] | null = null): Promise<Insights> => {
    const args = [q.roomId ?? null, q.fromDate, q.untilDate, sites];
    const [heat, weeks, demand, lead] = await Promise.all([
      pool.query<{ weekday: number; hour: number; offered: string; booked: string }>(HEATMAP, args),
      pool.query<{
        week_start: string;
        offered: number;
        booked: number;
        cancelled: number;
        no_shows: number;
      }>(WEEKS, args),
      pool.query<{ joins: number; taken: number; lapsed: number; refused: number }>(DEMAND, args),
      pool.query<{ days: number; bookings: number; cancelled: number; late: number }>(LEAD, args),
    ]);
    const histogram = lead.rows.map((r) => ({ days: r.days, bookings: r.bookings }));
    const cancellations = lead.rows.reduce((n, r) => n + r.cancelled, 0);
    const lateCancellations = lead.rows.reduce((n, r) => n + r.late, 0);
    const d = demand.rows[0]!;
    return {
      heatmap: heat.rows.map((r) => ({
        weekday: r.weekday,
        hour: r.hour,
        offeredSeatHours: hours(r.offered),
        bookedSeatHours: hours(r.booked),
      })),
      weeks: weeks.rows.map((r) => ({
        weekStart: r.week_start,
        offeredSeats: r.offered,
        bookedSeats: r.booked,
        cancelled: r.cancelled,
        noShows: r.no_shows,
      })),
      demand: {
        refused: d.refused,
        waitlistJoins: d.joins,
        offersTaken: d.taken,
        offersLapsed: d.lapsed,
      },
      leadTimeDays: { p50: percentile(histogram, 0.5), p90: percentile(histogram, 0.9), histogram },
      cancellations,
      lateCancellations,
      lateCancellationShare: cancellations === 0 ? null : lateCancellations / cancellations,
    };
  };
}

/** One part of the insights as a table: its CSV's header and rows (the screen's tables). */
function tableOf(part: (typeof INSIGHTS_PARTS)[number], x: Insights): [string[], CsvCell[][]] {
  switch (part) {
    case 'heatmap':
      return [
        ['Wochentag', 'Stunde', 'Angebotene Platzstunden', 'Gebuchte Platzstunden'],
        x.heatmap.map((c) => [c.weekday, c.hour, c.offeredSeatHours, c.bookedSeatHours]),
      ];
    case 'weeks':
      return [
        ['Wochenbeginn', 'Angebotene Plätze', 'Gebuchte Plätze', 'Stornierungen', 'No-Shows'],
        x.weeks.map((w) => [w.weekStart, w.offeredSeats, w.bookedSeats, w.cancelled, w.noShows]),
      ];
    case 'demand':
      return [
        ['Abgewiesen', 'Warteliste', 'Angebote angenommen', 'Angebote verfallen'],
        [[x.demand.refused, x.demand.waitlistJoins, x.demand.offersTaken, x.demand.offersLapsed]],
      ];
    case 'lead-time':
      return [['Tage', 'Buchungen'], x.leadTimeDays.histogram.map((h) => [h.days, h.bookings])];
  }
}

/**
 * The part as CSV; with several sites each row names the sites its figures count ("Standort",
 * last, as the reservations' "Platz": a library of one site keeps the columns it always had).
 */
function csvOf(part: (typeof INSIGHTS_PARTS)[number], x: Insights, site: string | null) {
  return csvWithSite(...tableOf(part, x), site);
}

/** GET /admin/insights (and its parts as CSV) for the admin and reports roles. */
export function insightsQueryRoutes(deps: InsightsDeps): RouteDef[] {
  const insights = insightsOf(deps);
  return [
    defineRoute({
      method: 'get',
      path: '/admin/insights.csv',
      summary: 'One part of the insights (heatmap, weeks, demand, lead-time) as CSV',
      tags: ['reports'],
      access: ['admin', 'reports'],
      // One room or site: hers (a user whose roles are for some sites); all rooms: all of hers.
      sites: { query: { roomId: 'room', site: 'slug' }, leftOutFilters: true },
      query: Query.safeExtend({ part: z.enum(INSIGHTS_PARTS) }),
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ query, res, sites }) => {
        const of = await sitesOfFilter(deps.pool, query.site, sites);
        const x = await insights(query, of);
        const site = await siteColumnOf(deps.pool, deps.libraryName, query.roomId, of);
        sendCsv(
          res,
          `insights-${query.part}-${query.fromDate}-${query.untilDate}.csv`,
          csvOf(query.part, x, site),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/insights',
      summary:
        'Insights of one room, one site (site={slug}) or all rooms over a period: occupancy by weekday and hour, weekly trend, unmet demand, lead time, late cancellations',
      tags: ['reports'],
      access: ['admin', 'reports'],
      // One room or site: hers (a user whose roles are for some sites); all rooms: all of hers.
      sites: { query: { roomId: 'room', site: 'slug' }, leftOutFilters: true },
      query: Query,
      responses: { 200: { description: 'Insights', schema: insightsSchema } },
      handler: async ({ query, sites }) => ({
        body: await insights(query, await sitesOfFilter(deps.pool, query.site, sites)),
      }),
    }),
  ];
}
