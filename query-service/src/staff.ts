import type { Response } from 'express';
import { occupancyPercent, toCsv, withSeatNumbers } from '@rr/domain';
import {
  defineRoute,
  isoDate,
  isValidLocalTime,
  localDateTime,
  problems,
  sortSpec,
  z,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { likePattern, orderBy, pagingQuery } from './paging.ts';
import { Ticket, TICKET_COLUMNS, TICKET_SELECT, toTicket, type TicketRow } from './booking.ts';

const STATUS = z.enum(['BOOKED', 'CANCELED_ONLY', 'CANCELLED', 'NEW', 'INVALID', 'ALL']);
const STATUS_SQL: Record<z.infer<typeof STATUS>, string | null> = {
  BOOKED: `t.status = 'BOOKED'`,
  CANCELED_ONLY: `t.status = 'CANCELLED'`,
  CANCELLED: `t.status = 'CANCELLED'`,
  NEW: `t.status = 'NEW'`,
  INVALID: `t.status = 'INVALID'`,
  ALL: null,
};
const SORT = {
  room: 'lower(r.name)',
  name: ["lower(coalesce(p.last_name, ''))", "lower(coalesce(p.first_name, ''))"],
  institution: "lower(coalesce(p.organisation, ''))",
  email: "coalesce(p.email, '')",
  date: ['t.date', 't.start_time'],
} as const;
const time = z.string().refine(isValidLocalTime, 'Select a valid time');

const TicketQuery = z.object({
  searchTerm: z.string().max(200).optional(),
  status: STATUS.optional(),
  roomId: z.uuid().optional(),
  timeSlotId: z.uuid().optional(),
  transactionId: z.uuid().optional(),
  ownerId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  ticketId: z.uuid().optional(),
  bookingNumber: z.string().max(20).optional(),
  fromDate: isoDate.optional(),
  untilDate: isoDate.optional(),
  fromTime: time.optional(),
  untilTime: time.optional(),
  ...pagingQuery(999, 20),
  sort: sortSpec(['room', 'name', 'institution', 'email', 'date']).optional(),
});
type TicketQuery = z.output<typeof TicketQuery>;

/** WHERE of the reservations list; the booked tab sends no status (= booked), the cancelled tab CANCELED_ONLY. */
function ticketFilter(q: Omit<TicketQuery, 'limit' | 'offset' | 'sort'>): {
  sql: string;
  /** The conditions on tickets (t) only. */
  where: string[];
  args: unknown[];
  /** The search term's condition on personal data (p): only tickets with personal data match. */
  search: string | null;
  /** Only status, room and dates filter: `where` also reads on rm_ticket_counts (as t). */
  countable: boolean;
} {
  const where: string[] = [];
  const args: unknown[] = [];
  // Whether every condition is on a column rm_ticket_counts has too (status, room, date).
  let countable = true;
  const add = (sql: (n: string) => string, value: unknown, onCounts = false) => {
    args.push(value);
    where.push(sql(`$${args.length}`));
    if (!onCounts) countable = false;
  };
  const status = STATUS_SQL[q.status ?? 'BOOKED'];
  if (status) where.push(status);
  let search: string | null = null;
  if (q.searchTerm?.trim()) {
    // The text of every searched field must contain the term (what the trigram index finds),
    // then each field is checked on its own.
    args.push(likePattern(q.searchTerm.trim()));
    const n = `$${args.length}`;
    countable = false;
    search = `(${SEARCH_TEXT} ILIKE ${n} AND (p.first_name ILIKE ${n} OR p.last_name ILIKE ${n} OR p.organisation ILIKE ${n} OR p.email ILIKE ${n} OR (p.first_name || ' ' || p.last_name) ILIKE ${n} OR (p.last_name || ', ' || p.first_name) ILIKE ${n}))`;
  }
  if (q.roomId) add((n) => `t.room_id = ${n}`, q.roomId, true);
  if (q.timeSlotId) add((n) => `t.time_slot_id = ${n}`, q.timeSlotId);
  if (q.transactionId) add((n) => `t.transaction_id = ${n}`, q.transactionId);
  if (q.ownerId) add((n) => `t.owner_id = ${n}`, q.ownerId);
  if (q.ticketId) add((n) => `t.id = ${n}`, q.ticketId);
  if (q.bookingNumber?.trim())
    add((n) => `upper(t.booking_number) = upper(${n})`, q.bookingNumber.trim());
  if (q.fromDate) add((n) => `t.date >= ${n}`, q.fromDate, true);
  if (q.untilDate) add((n) => `t.date <= ${n}`, q.untilDate, true);
  if (q.fromTime) add((n) => `t.start_time >= ${n}`, q.fromTime);
  if (q.untilTime) add((n) => `t.start_time <= ${n}`, q.untilTime);
  const all = search ? [search, ...where] : where;
  return { sql: all.length ? `WHERE ${all.join(' AND ')}` : '', where, args, search, countable };
}

/** Every field the search looks at, in one text: the expression of the trigram index (migration 009). */
const SEARCH_TEXT = `(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '') || ' ' || coalesce(p.organisation, '') || ' ' || coalesce(p.email, '') || ' ' || coalesce(p.last_name, '') || ', ' || coalesce(p.first_name, ''))`;

const LAST = "lower(coalesce(p.last_name, ''))";
const FIRST = "lower(coalesce(p.first_name, ''))";
const BLANK_NAME = `(${LAST} = '' AND ${FIRST} = '')`;
/**
 * Owners erased after the tickets read model's checkpoint: their personal data is gone (in this
 * statement's snapshot) but their tickets are not flagged yet.
 */
const LAGGING_ERASURES = `SELECT e.data->>'ownerId' FROM events e JOIN projection_checkpoints c ON c.name = 'tickets'
   WHERE (e.transaction_id, e.global_position) > (c.last_tx, c.last_gp) AND e.event_type = 'PersonalDataErased'`;

/**
 * The tickets whose name key is ('', ''): those without personal data (no owner or erased: the
 * flag, or an erasure the read model has not seen yet; each checked against personal_data itself)
 * and those whose names are empty.
 */
function blankNameTickets(where: string): string {
  const without = 'NOT EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = t.owner_id)';
  return `SELECT t.id, t.date, t.start_time FROM rm_tickets t
      WHERE ${where} AND (t.owner_id IS NULL OR t.personal_data_erased) AND ${without}
    UNION ALL
    SELECT t.id, t.date, t.start_time FROM rm_tickets t
      WHERE ${where} AND NOT (t.owner_id IS NULL OR t.personal_data_erased)
        AND t.owner_id IN (${LAGGING_ERASURES}) AND ${without}
    UNION ALL
    SELECT t.id, t.date, t.start_time FROM personal_data p JOIN rm_tickets t ON t.owner_id = p.owner_id
      WHERE ${where} AND ${BLANK_NAME}`;
}

function sendCsv(res: Response, filename: string, csv: string): void {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.status(200).send(csv);
}

const HistoryEntry = z
  .object({
    at: z.string(),
    event: z.string(),
    what: z.string(),
    actor: z.object({
      kind: z.string(),
      username: z.string().optional(),
      job: z.string().optional(),
    }),
  })
  .openapi('HistoryEntry');

/** What an event means in a reservation's history. */
function describe(type: string, data: Record<string, unknown>): string {
  switch (type) {
    case 'TicketHeld':
      return 'held';
    case 'TicketHoldExtended':
      return 'hold-extended';
    case 'TicketReleased':
      return data.reason === 'expired' ? 'expired' : 'released';
    case 'TicketBooked':
      return 'booked';
    case 'TicketCancelled':
      return 'cancelled';
    case 'OwnerDataChanged':
      return 'owner-changed';
    case 'PersonalDataErased':
      return 'personal-data-erased';
    case 'TimeSlotCreated':
      return 'slot-created';
    case 'TimeSlotUpdated':
      return 'slot-changed';
    case 'TimeSlotCapacityChanged':
      return 'capacity-changed';
    case 'TimeSlotDeleted':
      return 'slot-deleted';
    default:
      return type;
  }
}

export function staffQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { pool, clock, timeZone } = deps;
  const localNow = () => localDateTime(clock.now(), timeZone);

  /**
   * The list sorted by name (the default): the same rows and order as the generic query, read
   * without sorting every ticket. The order is the name key (last, first name, lower case; ''
   * without personal data), then date, time, id. Tickets with the key ('', '') come first (ASC)
   * or last (DESC), sorted by date; the others are read by walking personal data in name order
   * (index personal_data_name) and each owner's tickets. Counts and page in one snapshot.
   */
  async function listTicketsByName(q: TicketQuery, dir: 'ASC' | 'DESC') {
    const { where, args, search, countable } = ticketFilter(q);
    const w = where.length ? where.join(' AND ') : 'true';
    // The people a search matches, found first (by the trigram index), then their tickets.
    const people = search
      ? `(SELECT * FROM personal_data p WHERE ${search} OFFSET 0) p`
      : 'personal_data p';
    if (search) {
      // A search matches few people: their tickets are sorted whole, counted by a window, in
      // one statement (rows without personal data never match a search).
      const r = await pool.query<TicketRow & { total: string }>(
        // The page's ids first (each person's tickets from the owner index alone), then their rows.
        `WITH page AS (
           SELECT count(*) OVER () AS total, t.id, ${LAST} AS last_key, ${FIRST} AS first_key,
                  t.date AS d, t.start_time AS st
             FROM ${people} JOIN rm_tickets t ON t.owner_id = p.owner_id
            WHERE ${w} ORDER BY ${LAST} ${dir}, ${FIRST} ${dir}, t.date, t.start_time, t.id
            LIMIT ${q.limit} OFFSET ${q.offset})
         SELECT page.total, ${TICKET_COLUMNS}
           FROM page JOIN rm_tickets t ON t.id = page.id LEFT JOIN rm_rooms r ON r.id = t.room_id
           LEFT JOIN personal_data p ON p.owner_id = t.owner_id
          ORDER BY page.last_key ${dir}, page.first_key ${dir}, page.d, page.st, page.id`,
        args,
      );
      let total = r.rows[0] ? Number(r.rows[0].total) : 0;
      if (r.rows.length === 0 && q.offset > 0) {
        const c = await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${people} JOIN rm_tickets t ON t.owner_id = p.owner_id WHERE ${w}`,
          args,
        );
        total = Number(c.rows[0]!.n);
      }
      const now = localNow();
      return { content: r.rows.map((x) => toTicket(x, now)), totalCount: total };
    }
    const blank = blankNameTickets(w);
    // The total from the kept counts when the filter allows, else by counting the tickets.
    const totalSql = countable
      ? `SELECT coalesce(sum(t.n), 0) FROM rm_ticket_counts t WHERE ${w}`
      : `SELECT count(*) FROM rm_tickets t WHERE ${w}`;
    const client = await pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const counts = await client.query<{ total: string; blank: string }>(
        `SELECT (${totalSql}) AS total,
                (SELECT count(*) FROM (${blank}) b) AS blank`,
        args,
      );
      const total = Number(counts.rows[0]!.total);
      const blankCount = Number(counts.rows[0]!.blank);
      // ASC: the blank keys, then the names; DESC: the names, then the blank keys.
      const firstCount = dir === 'ASC' ? blankCount : total - blankCount;
      const firstTake = Math.max(0, Math.min(q.limit, firstCount - q.offset));
      const secondOffset = Math.max(0, q.offset - firstCount);
      const secondTake = Math.min(
        q.limit - firstTake,
        Math.max(0, total - firstCount - secondOffset),
      );
      const parts = {
        blank: (limit: number, offset: number) =>
          `(SELECT b.id FROM (${blank}) b ORDER BY b.date, b.start_time, b.id LIMIT ${limit} OFFSET ${offset})`,
        named: (limit: number, offset: number) =>
          `(SELECT t.id FROM personal_data p JOIN rm_tickets t ON t.owner_id = p.owner_id
             WHERE ${w} AND NOT ${BLANK_NAME}
             ORDER BY ${LAST} ${dir}, ${FIRST} ${dir}, t.date, t.start_time, t.id LIMIT ${limit} OFFSET ${offset})`,
      };
      const [first, second] =
        dir === 'ASC' ? [parts.blank, parts.named] : [parts.named, parts.blank];
      const pieces = [
        ...(firstTake > 0 ? [first(firstTake, q.offset)] : []),
        ...(secondTake > 0 ? [second(secondTake, secondOffset)] : []),
      ];
      let rows: TicketRow[] = [];
      if (pieces.length) {
        const r = await client.query<TicketRow>(
          `${TICKET_SELECT} WHERE t.id IN (${pieces.join(' UNION ALL ')})
            ORDER BY ${LAST} ${dir}, ${FIRST} ${dir}, t.date, t.start_time, t.id`,
          args,
        );
        rows = r.rows;
      }
      await client.query('COMMIT');
      const now = localNow();
      return { content: rows.map((x) => toTicket(x, now)), totalCount: total };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async function listTickets(q: TicketQuery) {
    if (!q.sort || (q.sort.length === 1 && q.sort[0]!.field === 'name'))
      return listTicketsByName(q, q.sort?.[0]?.dir ?? 'ASC');
    const { sql, args } = ticketFilter(q);
    const order = orderBy(
      q.sort,
      SORT,
      [{ field: 'name', dir: 'ASC' }],
      ['t.date ASC', 't.start_time ASC', 't.id ASC'],
    );
    const r = await pool.query<TicketRow & { total: string }>(
      `${TICKET_SELECT.replace('SELECT t.id,', 'SELECT count(*) OVER () AS total, t.id,')} ${sql}
        ORDER BY ${order} LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, q.limit, q.offset],
    );
    let total = r.rows[0] ? Number(r.rows[0].total) : 0;
    if (r.rows.length === 0 && q.offset > 0) {
      total = Number(
        (
          await pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM rm_tickets t LEFT JOIN rm_rooms r ON r.id = t.room_id LEFT JOIN personal_data p ON p.owner_id = t.owner_id ${sql}`,
            args,
          )
        ).rows[0]!.n,
      );
    }
    const now = localNow();
    return { content: r.rows.map((x) => toTicket(x, now)), totalCount: total };
  }

  async function history(streamFilter: string, args: unknown[]) {
    const r = await pool.query<{
      event_type: string;
      data: Record<string, unknown>;
      metadata: { actor: { kind: string; username?: string; job?: string } };
      created_at: Date;
    }>(
      `SELECT event_type, data, metadata, created_at FROM events WHERE ${streamFilter} ORDER BY transaction_id, global_position`,
      args,
    );
    return r.rows.map((e) => ({
      at: e.created_at.toISOString(),
      event: e.event_type,
      what: describe(e.event_type, e.data),
      actor: e.metadata.actor,
    }));
  }

  const ReportQuery = z.object({
    roomId: z.uuid('Not a valid id'),
    fromDate: isoDate,
    untilDate: isoDate,
    status: z.enum(['BOOKED', 'CANCELLED']),
  });
  async function occupancy(q: z.output<typeof ReportQuery>) {
    const r = await pool.query<{
      id: string;
      date: string;
      start_time: string;
      end_time: string;
      capacity: number;
      count: number;
    }>(
      `SELECT s.id, s.date, s.start_time, s.end_time, s.capacity,
              (SELECT count(*)::int FROM rm_tickets t WHERE t.time_slot_id = s.id AND t.status = $4) AS count
         FROM rm_time_slots s WHERE s.room_id = $1 AND s.date BETWEEN $2 AND $3 ORDER BY s.date, s.start_time`,
      [q.roomId, q.fromDate, q.untilDate, q.status],
    );
    return r.rows.map((x) => ({
      timeSlotId: x.id,
      date: x.date,
      time: `${x.start_time}-${x.end_time}`,
      count: x.count,
      capacity: x.capacity,
      percentage: occupancyPercent(x.count, x.capacity),
    }));
  }

  const DailyQuery = z.object({ date: isoDate });
  async function daily(roomId: string, date: string) {
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
    }>(
      `SELECT t.id AS ticket_id, t.time_slot_id, t.start_time, t.end_time, p.last_name, p.first_name, p.accessibility
         FROM rm_tickets t LEFT JOIN personal_data p ON p.owner_id = t.owner_id
        WHERE t.room_id = $1 AND t.date = $2 AND t.status = 'BOOKED'
        ORDER BY t.start_time, lower(coalesce(p.last_name, '')), lower(coalesce(p.first_name, '')), t.id`,
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
      })),
    );
    return { roomName: room.rows[0].name, date, content: rows };
  }

  const reportSchema = z
    .array(
      z.object({
        timeSlotId: z.uuid(),
        date: z.string(),
        time: z.string(),
        count: z.number(),
        capacity: z.number(),
        percentage: z.number().nullable(),
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
        }),
      ),
    })
    .openapi('DailyReport');
  const staff = ['admin', 'reports'] as ('admin' | 'reports')[];

  return [
    defineRoute({
      method: 'get',
      path: '/admin/tickets/report',
      summary:
        'Occupancy report of a room: per slot date, time, count of BOOKED or CANCELLED tickets, capacity, percentage',
      tags: ['reports'],
      access: staff,
      query: ReportQuery,
      responses: { 200: { description: 'Report', schema: reportSchema } },
      handler: async ({ query }) => ({ body: await occupancy(query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets/report.csv',
      summary: 'The occupancy report as CSV (Excel-friendly UTF-8)',
      tags: ['reports'],
      access: staff,
      query: ReportQuery,
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ query, res }) => {
        const rows = await occupancy(query);
        sendCsv(
          res,
          `occupancy-${query.fromDate}-${query.untilDate}.csv`,
          toCsv(
            ['Datum', 'Zeitfenster', 'Anzahl', 'Kapazität', 'Prozent'],
            rows.map((x) => [x.date, x.time, x.count, x.capacity, x.percentage]),
          ),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets/export.csv',
      summary: 'The reservations list as CSV, with the same filters and sort',
      tags: ['staff'],
      access: staff,
      query: TicketQuery,
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ query, res }) => {
        const page = await listTickets({ ...query, limit: 999, offset: 0 });
        sendCsv(
          res,
          'reservations.csv',
          toCsv(
            [
              'Raum',
              'Nachname',
              'Vorname',
              'Organisation',
              'E-Mail',
              'Telefon',
              'Datum',
              'Beginn',
              'Ende',
              'Status',
              'Reservierungsnummer',
            ],
            page.content.map((t) => [
              t.roomName,
              t.lastName,
              t.firstName,
              t.organisation,
              t.email,
              t.phone,
              t.date,
              t.startTime,
              t.endTime,
              t.status,
              t.bookingNumber,
            ]),
          ),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets',
      summary: 'Reservations: searchable (name, organisation, e-mail), filterable, sortable, paged',
      tags: ['staff'],
      access: staff,
      query: TicketQuery,
      responses: {
        200: {
          description: 'A page of tickets',
          schema: z
            .object({ content: z.array(Ticket), totalCount: z.number() })
            .openapi('TicketPage'),
        },
      },
      handler: async ({ query }) => ({ body: await listTickets(query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}',
      summary: 'One ticket with its owner data',
      tags: ['staff'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'The ticket', schema: Ticket },
        404: { description: 'No such ticket' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<TicketRow>(`${TICKET_SELECT} WHERE t.id = $1`, [params.id]);
        if (!r.rows[0]) throw problems.notFound('Ticket');
        return { body: toTicket(r.rows[0], localNow()) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}/related',
      summary: 'The other tickets of the same booking (owner)',
      tags: ['staff'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'Tickets', schema: z.array(Ticket) },
        404: { description: 'No such ticket' },
      },
      handler: async ({ params }) => {
        const t = await pool.query<{ owner_id: string | null }>(
          'SELECT owner_id FROM rm_tickets WHERE id = $1',
          [params.id],
        );
        if (!t.rows[0]) throw problems.notFound('Ticket');
        if (!t.rows[0].owner_id) return { body: [] };
        const r = await pool.query<TicketRow>(
          `${TICKET_SELECT} WHERE t.owner_id = $1 AND t.id <> $2 ORDER BY t.date, t.start_time`,
          [t.rows[0].owner_id, params.id],
        );
        const now = localNow();
        return { body: r.rows.map((x) => toTicket(x, now)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}/history',
      summary: 'Audit history of a ticket from the event log: what happened, when, by whom',
      tags: ['staff'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'History', schema: z.array(HistoryEntry) },
        404: { description: 'No such ticket' },
      },
      handler: async ({ params }) => {
        const t = await pool.query<{
          transaction_id: string;
          time_slot_id: string;
          owner_id: string | null;
        }>('SELECT transaction_id, time_slot_id, owner_id FROM rm_tickets WHERE id = $1', [
          params.id,
        ]);
        const row = t.rows[0];
        if (!row) throw problems.notFound('Ticket');
        return {
          body: await history(
            `(stream_id = $1 AND data->>'ticketId' = $3) OR (stream_id = $2 AND ((event_type = 'OwnerDataChanged' AND data->>'ticketId' = $3) OR event_type = 'PersonalDataErased'))`,
            [`timeslot-${row.time_slot_id}`, `transaction-${row.transaction_id}`, params.id],
          ),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/history',
      summary: 'Audit history of a time slot from the event log',
      tags: ['staff'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      responses: { 200: { description: 'History', schema: z.array(HistoryEntry) } },
      handler: async ({ params }) => ({
        body: await history(
          `stream_id = $1 AND (data->>'roomId' IS NULL OR data->>'roomId' = $2)`,
          [`timeslot-${params.timeSlotId}`, params.id],
        ),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/active-ticket-count',
      summary: 'Held or booked tickets of a room from today on',
      tags: ['staff'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: { 200: { description: 'Count', schema: z.object({ count: z.number() }) } },
      handler: async ({ params }) => {
        const r = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM rm_tickets WHERE room_id = $1 AND status IN ('NEW', 'BOOKED') AND date >= $2`,
          [params.id, localNow().date],
        );
        return { body: { count: r.rows[0]!.n } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/daily-report',
      summary:
        'Daily report of a room: booked tickets by start time then last name, seat numbers per slot',
      tags: ['reports'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: DailyQuery,
      responses: {
        200: { description: 'Report', schema: dailySchema },
        404: { description: 'No such room' },
      },
      handler: async ({ params, query }) => ({ body: await daily(params.id, query.date) }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/daily-report.csv',
      summary: 'The daily report as CSV',
      tags: ['reports'],
      access: staff,
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: DailyQuery,
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ params, query, res }) => {
        const report = await daily(params.id, query.date);
        sendCsv(
          res,
          `daily-report-${query.date}.csv`,
          toCsv(
            ['Zeitfenster', 'Platz', 'Nachname', 'Vorname', 'Barrierefreiheit'],
            report.content.map((x) => [
              x.timeSlot,
              x.seatNumber,
              x.lastName,
              x.firstName,
              x.accessibility ? 'ja' : 'nein',
            ]),
          ),
        );
      },
    }),
  ];
}
