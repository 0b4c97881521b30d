import { DailyReportQuery, OccupancyReportQuery } from '@rr/contracts';
import { occupancyPercent, csvWithSite, withSeatNumbers } from '@rr/domain';
import {
  defineRoute,
  fromContract,
  problems,
  sendCsv,
  siteColumnOf,
  z,
  type Pool,
  type RouteDef,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/** The staff's reports: occupancy of a room's slots, and a room's daily report with seat numbers. */

// docs/product.md#validation, report filters: the contracts' rules (shared with the browser); the room is an id.
const ReportQuery = fromContract(OccupancyReportQuery).safeExtend({
  roomId: z.uuid('Not a valid id'),
});
const DailyQuery = fromContract(DailyReportQuery);

const reportSchema = z
  .array(
    z.object({
      timeSlotId: z.uuid(),
      date: z.string(),
      time: z.string(),
      count: z.number(),
      capacity: z.number(),
      percentage: z.number().nullable(),
      /** Tickets of the slot released as no-shows. */
      noShows: z.number(),
      /** The slot's tickets booked and not cancelled: still booked, or released as no-shows. */
      noShowBase: z.number(),
      /** No-shows in percent of noShowBase (null when it is 0). */
      noShowRate: z.number().nullable(),
      /** Booked tickets awaiting their visitor's confirmation (confirmed addresses); absent: none. */
      awaitingConfirmation: z.number().optional(),
    }),
  )
  .openapi('OccupancyReport');
const dailySchema = z
  .object({
    roomName: z.string(),
    date: z.string(),
    content: z.array(
      z.object({
        timeSlotId: z.uuid(),
        ticketId: z.uuid(),
        timeSlot: z.string(),
        seatNumber: z.number(),
        lastName: z.string().nullable(),
        firstName: z.string().nullable(),
        accessibility: z.boolean(),
        /** The booking awaits its visitor's confirmation (confirmed addresses); absent: not. */
        awaitingConfirmation: z.literal(true).optional(),
      }),
    ),
  })
  .openapi('DailyReport');

/** Per slot of the room and dates: its tickets of the status, its no-shows, its capacity. */
async function occupancy(pool: Pool, q: z.output<typeof ReportQuery>) {
  const r = await pool.query<{
    id: string;
    date: string;
    start_time: string;
    end_time: string;
    capacity: number;
    count: number;
    booked: number;
    no_shows: number;
    awaiting: number;
  }>(
    `SELECT s.id, s.date, s.start_time, s.end_time, s.capacity, c.count, c.booked, c.no_shows, c.awaiting
       FROM rm_time_slots s,
    LATERAL (SELECT count(*) FILTER (WHERE t.status = $4)::int AS count,
                    count(*) FILTER (WHERE t.status = 'BOOKED')::int AS booked,
                    count(*) FILTER (WHERE t.no_show)::int AS no_shows,
                    count(*) FILTER (WHERE t.status = 'BOOKED' AND t.confirm_by IS NOT NULL)::int AS awaiting
               FROM rm_tickets t WHERE t.time_slot_id = s.id) c
      WHERE s.room_id = $1 AND s.date BETWEEN $2 AND $3 ORDER BY s.date, s.start_time`,
    [q.roomId, q.fromDate, q.untilDate, q.status],
  );
  return r.rows.map((x) => ({
    timeSlotId: x.id,
    date: x.date,
    time: `${x.start_time}-${x.end_time}`,
    count: x.count,
    capacity: x.capacity,
    percentage: occupancyPercent(x.count, x.capacity),
    noShows: x.no_shows,
    noShowBase: x.booked + x.no_shows,
    noShowRate: occupancyPercent(x.no_shows, x.booked + x.no_shows),
    ...(x.awaiting > 0 ? { awaitingConfirmation: x.awaiting } : {}),
  }));
}

/** The room's booked tickets of the day, by start time and name, with their seat numbers. */
async function daily(pool: Pool, roomId: string, date: string) {
  const room = await pool.query<{ name: string }>('SELECT name FROM rm_rooms WHERE id = $1', [
    roomId,
  ]);
  if (!room.rows[0]) throw problems.notFound('Room');
  const r = await pool.query<{
    time_slot_id: string;
    start_time: string;
    end_time: string;
    last_name: string | null;
    first_name: string | null;
    accessibility: boolean | null;
    ticket_id: string;
    awaiting: boolean;
  }>(
    `SELECT t.id AS ticket_id, t.time_slot_id, t.start_time, t.end_time, p.last_name, p.first_name, p.accessibility,
            t.confirm_by IS NOT NULL AS awaiting
       FROM rm_tickets t LEFT JOIN personal_data p ON p.owner_id = t.owner_id
      WHERE t.room_id = $1 AND t.date = $2 AND t.status = 'BOOKED'
      ORDER BY t.start_time, ${nameKey("coalesce(p.last_name, '')")}, ${nameKey("coalesce(p.first_name, '')")}, t.id`,
    [roomId, date],
  );
  const rows = withSeatNumbers(
    r.rows.map((x) => ({
      timeSlotId: x.time_slot_id,
      ticketId: x.ticket_id,
      timeSlot: `${x.start_time}-${x.end_time}`,
      lastName: x.last_name,
      firstName: x.first_name,
      accessibility: x.accessibility ?? false,
      ...(x.awaiting ? { awaitingConfirmation: true as const } : {}),
    })),
  );
  return { roomName: room.rows[0].name, date, content: rows };
}

export function reportRoutes({ pool, libraryName }: QueryDeps) {
  const staff = ['admin', 'reports'] as ('admin' | 'reports')[];
  return {
    occupancy: defineRoute({
      method: 'get',
      path: '/admin/tickets/report',
      summary:
        'Occupancy report of a room: per slot date, time, count of BOOKED or CANCELLED tickets, capacity, percentage',
      tags: ['reports'],
      access: staff,
      sites: { query: { roomId: 'room' } },
      query: ReportQuery,
      responses: { 200: { description: 'Report', schema: reportSchema } },
      handler: async ({ query }) => ({ body: await occupancy(pool, query) }),
    }),
    occupancyCsv: defineRoute({
      method: 'get',
      path: '/admin/tickets/report.csv',
      summary: 'The occupancy report as CSV (Excel-friendly UTF-8)',
      tags: ['reports'],
      access: staff,
      sites: { query: { roomId: 'room' } },
      query: ReportQuery,
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ query, res }) => {
        const rows = await occupancy(pool, query);
        // The no-show columns only for a room with check-in: any other room's CSV is
        // as it always was.
        const room = await pool.query<{ check_in: boolean; confirm: boolean }>(
          `SELECT services->>'checkInMinutesBefore' IS NOT NULL AS check_in,
                  services->>'confirmBookingMinutes' IS NOT NULL AS confirm
             FROM rm_rooms WHERE id = $1`,
          [query.roomId],
        );
        const noShows = room.rows[0]?.check_in ?? false;
        // Likewise the column of bookings awaiting confirmation, for a room that asks for it.
        const confirm = room.rows[0]?.confirm ?? false;
        const site = await siteColumnOf(pool, libraryName, query.roomId, null);
        sendCsv(
          res,
          `occupancy-${query.fromDate}-${query.untilDate}.csv`,
          csvWithSite(
            [
              'Datum',
              'Zeitfenster',
              'Anzahl',
              'Kapazität',
              'Prozent',
              ...(noShows ? ['No-Shows', 'No-Show-Quote'] : []),
              ...(confirm ? ['Unbestätigt'] : []),
            ],
            rows.map((x) => [
              x.date,
              x.time,
              x.count,
              x.capacity,
              x.percentage,
              ...(noShows ? [x.noShows, x.noShowRate] : []),
              ...(confirm ? [x.awaitingConfirmation ?? 0] : []),
            ]),
            site,
          ),
        );
      },
    }),
    daily: defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/daily-report',
      summary:
        'Daily report of a room: booked tickets by start time then last name, seat numbers per slot',
      tags: ['reports'],
      access: staff,
      sites: { path: { id: 'room' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: DailyQuery,
      responses: {
        200: { description: 'Report', schema: dailySchema },
        404: { description: 'No such room' },
      },
      handler: async ({ params, query }) => ({ body: await daily(pool, params.id, query.date) }),
    }),
    dailyCsv: defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/daily-report.csv',
      summary: 'The daily report as CSV',
      tags: ['reports'],
      access: staff,
      sites: { path: { id: 'room' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: DailyQuery,
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ params, query, res }) => {
        const report = await daily(pool, params.id, query.date);
        const site = await siteColumnOf(pool, libraryName, params.id, null);
        sendCsv(
          res,
          `daily-report-${query.date}.csv`,
          csvWithSite(
            ['Zeitfenster', 'Platz', 'Nachname', 'Vorname', 'Barrierefreiheit'],
            report.content.map((x) => [
              x.timeSlot,
              x.seatNumber,
              x.lastName,
              x.firstName,
              x.accessibility ? 'ja' : 'nein',
            ]),
            site,
          ),
        );
      },
    }),
  } satisfies Record<string, RouteDef>;
}
