import { toCsv } from '@rr/domain';
import {
  defineRoute,
  localDateTime,
  sendCsv,
  siteNamesIfSeveral,
  z,
  type Pool,
  type RouteDef,
  nameKey,
} from '@rr/platform';
import { Ticket, TICKET_COLUMNS, toTicket, type TicketRow } from './booking.ts';
import type { QueryDeps } from './deps.ts';
import { orderBy } from './paging.ts';
import { run, sql, type Knex } from './sql.ts';
import { SORT, TicketQuery, ticketFilter, type TicketFilter } from './staff-list-filter.ts';

/**
 * The staff's reservations list (`/admin/tickets` and its CSV): filters (staff-list-filter.ts),
 * search, sort and paging. Its statements are built with knex's query builder (`sql.ts`) and run
 * on the pg pool.
 */

// The name keys in German order: what the index personal_data_name holds.
const LAST = nameKey("coalesce(p.last_name, '')");
const FIRST = nameKey("coalesce(p.first_name, '')");
const BLANK_NAME = `(${LAST} = '' AND ${FIRST} = '')`;
/**
 * Owners erased after the tickets read model's checkpoint: their personal data is gone (in this
 * statement's snapshot) but their tickets are not flagged yet.
 */
const LAGGING_ERASURES = `SELECT e.data->>'ownerId' FROM events e JOIN projection_checkpoints c ON c.name = 'tickets'
   WHERE (e.transaction_id, e.global_position) > (c.last_tx, c.last_gp) AND e.event_type = 'PersonalDataErased'`;
const WITHOUT_PERSONAL_DATA =
  'NOT EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = t.owner_id)';

/** Tickets (t) with their room (r) and, while it exists, the owner's personal data (p): TICKET_SELECT of booking.ts. */
const ticketsWithOwners = (...columns: string[]) =>
  sql
    .select(sql.raw([...columns, TICKET_COLUMNS].join(', ')))
    .from('rm_tickets as t')
    .leftJoin('rm_rooms as r', 'r.id', 't.room_id')
    .leftJoin('personal_data as p', 'p.owner_id', 't.owner_id');

/** By name key in the direction, then date, time, id. */
const byName =
  (
    dir: 'ASC' | 'DESC',
    [last, first, date, start, id] = [LAST, FIRST, 't.date', 't.start_time', 't.id'],
  ) =>
  (query: Knex.QueryBuilder) => {
    query.orderByRaw(`${last} ${dir}, ${first} ${dir}, ${date}, ${start}, ${id}`);
  };
/** LIMIT and OFFSET as numbers in the text (validated integers), as the plans were tuned with. */
const paged = (limit: number, offset: number) => (query: Knex.QueryBuilder) => {
  query.limit(limit, { skipBinding: true });
  // knex leaves out an OFFSET of 0.
  query.offset(offset, { skipBinding: true });
};

/** The filtered tickets of the people with personal data (p), each joined to its owner's row. */
const ticketsOfPeople = (f: TicketFilter): Knex.QueryBuilder =>
  sql
    .from('personal_data as p')
    .join('rm_tickets as t', 't.owner_id', 'p.owner_id')
    .modify(f.tickets);

/**
 * The tickets whose name key is ('', ''): those without personal data (no owner or erased: the
 * flag, or an erasure the read model has not seen yet, checked against personal_data itself) and
 * those whose names are empty. A flagged ticket needs no such check: the erasure deleted its
 * owner's personal data in the transaction that appended the event the flag was set from, so any
 * snapshot that sees the flag sees the row gone; the tickets are then read from their partial
 * index alone (rm_tickets_without_personal_data), without a join.
 *
 * `first`: only the first so many of those without personal data, in date order (what a page
 * within the first so many needs: the partial index gives that order for one status), where they
 * may be most of the list, as after years of erasures.
 */
function blankNameTickets(f: TicketFilter, first?: number): Knex.QueryBuilder {
  // Every branch of the union reads the same columns: the ticket and its date order.
  const columns = ['t.id', 't.date', 't.start_time'];
  const ids = () => sql.select(columns);
  const withoutPersonalData = ids()
    .from('rm_tickets as t')
    .modify(f.tickets)
    .whereRaw('(t.owner_id IS NULL OR t.personal_data_erased)');
  if (first !== undefined)
    withoutPersonalData
      .orderByRaw('t.date, t.start_time, t.id')
      .limit(first, { skipBinding: true });
  return sql
    .select('b.id', 'b.date', 'b.start_time')
    .from(
      sql
        .unionAll(
          [
            withoutPersonalData,
            ids()
              .from('rm_tickets as t')
              .modify(f.tickets)
              .whereRaw('NOT (t.owner_id IS NULL OR t.personal_data_erased)')
              .whereRaw(`t.owner_id IN (${LAGGING_ERASURES})`)
              .whereRaw(WITHOUT_PERSONAL_DATA),
            ticketsOfPeople(f).select(columns).whereRaw(BLANK_NAME),
          ],
          true,
        )
        .as('b'),
    );
}

/** One page of the list's rows and the list's total. */
interface RowsPage {
  rows: TicketRow[];
  totalCount: number;
}

/**
 * The list sorted by name (the default): the same rows and order as the generic query, read
 * without sorting every ticket. The order is the name key (last, first name, lower case; ''
 * without personal data), then date, time, id.
 */
function readByName(pool: Pool, q: TicketQuery, dir: 'ASC' | 'DESC'): Promise<RowsPage> {
  const f = ticketFilter(q);
  return f.narrow ? searchByName(pool, f, q, dir) : readAllByName(pool, f, q, dir);
}

/**
 * A search matches few tickets: they are sorted whole, counted by a window, in one statement.
 * A search of names finds the people first (by the trigram index; OFFSET 0, which knex's
 * offset() leaves out, keeps the planner from flattening it into the join), and rows without
 * personal data never match it; a booking number or a part of one finds its tickets by a
 * condition on them (ticketFilter), with or without personal data.
 */
async function searchByName(
  pool: Pool,
  f: TicketFilter,
  q: TicketQuery,
  dir: 'ASC' | 'DESC',
): Promise<RowsPage> {
  const { search } = f;
  const people = (s: NonNullable<TicketFilter['search']>) =>
    sql.raw('(? OFFSET 0) p', [sql.select('*').from('personal_data as p').modify(s)]);
  const matches = () =>
    (search
      ? sql.from(people(search)).join('rm_tickets as t', 't.owner_id', 'p.owner_id')
      : sql.from('rm_tickets as t').leftJoin('personal_data as p', 'p.owner_id', 't.owner_id')
    ).modify(f.tickets);
  // The page's ids first (each person's tickets from the owner index alone), then their rows.
  const rows = await run<TicketRow & { total: string }>(
    pool,
    sql
      .with(
        'page',
        matches()
          .select(
            sql.raw(
              `count(*) OVER () AS total, t.id, ${LAST} AS last_key, ${FIRST} AS first_key, t.date AS d, t.start_time AS st`,
            ),
          )
          .modify(byName(dir))
          .modify(paged(q.limit, q.offset)),
      )
      .select(sql.raw(`page.total, ${TICKET_COLUMNS}`))
      .from('page')
      .join('rm_tickets as t', 't.id', 'page.id')
      .leftJoin('rm_rooms as r', 'r.id', 't.room_id')
      .leftJoin('personal_data as p', 'p.owner_id', 't.owner_id')
      .modify(byName(dir, ['page.last_key', 'page.first_key', 'page.d', 'page.st', 'page.id'])),
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (rows.length === 0 && q.offset > 0) {
    const c = await run<{ n: string }>(pool, matches().count('* as n'));
    total = Number(c[0]!.n);
  }
  return { rows, totalCount: total };
}

/**
 * Without a search: tickets with the key ('', '') come first (ASC) or last (DESC), sorted by
 * date; the others are read by walking personal data in name order (index personal_data_name)
 * and each owner's tickets. Counts and page in one snapshot.
 */
async function readAllByName(
  pool: Pool,
  f: TicketFilter,
  q: TicketQuery,
  dir: 'ASC' | 'DESC',
): Promise<RowsPage> {
  // The total from the kept counts when the filter allows, else by counting the tickets.
  const total = f.countable
    ? sql.from('rm_ticket_counts as t').select(sql.raw('coalesce(sum(t.n), 0)')).modify(f.tickets)
    : sql.from('rm_tickets as t').count('*').modify(f.tickets);
  // The part that comes first (ASC: the blank keys, DESC: the names) is counted up to the page's
  // end only: a page that ends within it needs no more, and the others need its exact count, which
  // is then below the end. So the count reads no further than the page's end, however many
  // tickets lie beyond it (years of erased bookings).
  const end = q.offset + q.limit;
  const named = () => ticketsOfPeople(f).whereRaw(`NOT ${BLANK_NAME}`);
  const first =
    dir === 'ASC'
      ? blankNameTickets(f, end).limit(end, { skipBinding: true })
      : named().select('t.id').limit(end, { skipBinding: true });
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const counts = await run<{ total: string; first: string }>(
      client,
      sql.select(sql.raw('? AS total, ? AS first', [total, sql.count('*').from(first.as('c'))])),
    );
    const totalCount = Number(counts[0]!.total);
    // ASC: the blank keys, then the names; DESC: the names, then the blank keys.
    const firstCount = Number(counts[0]!.first);
    const firstTake = Math.max(0, Math.min(q.limit, firstCount - q.offset));
    const secondOffset = Math.max(0, q.offset - firstCount);
    const secondTake = Math.min(
      q.limit - firstTake,
      Math.max(0, totalCount - firstCount - secondOffset),
    );
    const parts = {
      // The first offset + limit of them in date order are among the first so many without
      // personal data and all the others.
      blank: (limit: number, offset: number) =>
        blankNameTickets(f, offset + limit)
          .clearSelect()
          .select('b.id')
          .orderByRaw('b.date, b.start_time, b.id')
          .modify(paged(limit, offset)),
      named: (limit: number, offset: number) =>
        named().select('t.id').modify(byName(dir)).modify(paged(limit, offset)),
    };
    const [firstPart, secondPart] =
      dir === 'ASC' ? [parts.blank, parts.named] : [parts.named, parts.blank];
    const pieces = [
      ...(firstTake > 0 ? [firstPart(firstTake, q.offset)] : []),
      ...(secondTake > 0 ? [secondPart(secondTake, secondOffset)] : []),
    ];
    let rows: TicketRow[] = [];
    if (pieces.length)
      rows = await run<TicketRow>(
        client,
        ticketsWithOwners().whereIn('t.id', sql.unionAll(pieces, true)).modify(byName(dir)),
      );
    await client.query('COMMIT');
    return { rows, totalCount };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The list in any other order: sorted whole, counted by a window. */
async function readSorted(pool: Pool, q: TicketQuery): Promise<RowsPage> {
  const f = ticketFilter(q);
  const filtered = (query: Knex.QueryBuilder) => {
    if (f.search) query.modify(f.search);
    query.modify(f.tickets);
  };
  const rows = await run<TicketRow & { total: string }>(
    pool,
    ticketsWithOwners('count(*) OVER () AS total')
      .modify(filtered)
      .modify(
        orderBy(q.sort, SORT, [{ field: 'name', dir: 'ASC' }], ['t.date', 't.start_time', 't.id']),
      )
      .limit(q.limit)
      .offset(q.offset),
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (rows.length === 0 && q.offset > 0) {
    const c = await run<{ n: string }>(
      pool,
      sql
        .from('rm_tickets as t')
        .leftJoin('rm_rooms as r', 'r.id', 't.room_id')
        .leftJoin('personal_data as p', 'p.owner_id', 't.owner_id')
        .modify(filtered)
        .count('* as n'),
    );
    total = Number(c[0]!.n);
  }
  return { rows, totalCount: total };
}

export function ticketListRoutes(deps: QueryDeps) {
  const { pool, clock, timeZone } = deps;

  async function listTickets(q: TicketQuery) {
    const { rows, totalCount } =
      !q.sort || (q.sort.length === 1 && q.sort[0]!.field === 'name')
        ? await readByName(pool, q, q.sort?.[0]?.dir ?? 'ASC')
        : await readSorted(pool, q);
    const now = localDateTime(clock.now(), timeZone);
    return { content: rows.map((x) => toTicket(x, now)), totalCount };
  }

  const staff = ['admin', 'reports'] as ('admin' | 'reports')[];
  return {
    exportCsv: defineRoute({
      method: 'get',
      path: '/admin/tickets/export.csv',
      summary: 'The reservations list as CSV, with the same filters and sort',
      tags: ['staff'],
      access: staff,
      // Her sites' tickets only; a site filter names one of hers (docs/product.md#roles).
      sites: { query: { site: 'slug' }, leftOutFilters: true },
      query: TicketQuery,
      responses: { 200: { description: 'CSV', schema: z.string(), contentType: 'text/csv' } },
      handler: async ({ query, res, sites }) => {
        const list = await listTickets({ ...query, limit: 999, offset: 0, sites });
        // The seat's column only where a listed ticket holds a seat of a room's plan: an export
        // of rooms without a plan keeps the columns it always had (docs/product.md#seat-plans).
        const seated = list.content.some((t) => t.seat !== null);
        // Likewise the site's, only in a library of several sites (docs/product.md#sites).
        // Each ticket names its room's site.
        const siteNames = await siteNamesIfSeveral(pool, deps.libraryName);
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
              'Buchungsnummer',
              ...(seated ? ['Platz'] : []),
              ...(siteNames ? ['Standort'] : []),
            ],
            list.content.map((t) => [
              t.roomName,
              t.lastName,
              t.firstName,
              t.organisation,
              t.email,
              t.phone,
              t.date,
              t.startTime,
              t.endTime,
              // A booked ticket awaiting confirmation, and one released unconfirmed, say so.
              t.confirmBy ? 'AWAITING_CONFIRMATION' : t.unconfirmed ? 'UNCONFIRMED' : t.status,
              t.bookingNumber,
              ...(seated ? [t.seat?.label ?? ''] : []),
              ...(siteNames ? [siteNames.get(t.siteId ?? '') ?? ''] : []),
            ]),
          ),
        );
      },
    }),
    list: defineRoute({
      method: 'get',
      path: '/admin/tickets',
      summary: 'Reservations: searchable (name, organisation, e-mail), filterable, sortable, paged',
      tags: ['staff'],
      access: staff,
      sites: { query: { site: 'slug' }, leftOutFilters: true },
      query: TicketQuery,
      responses: {
        200: {
          description: 'A page of tickets',
          schema: z
            .object({ content: z.array(Ticket), totalCount: z.number() })
            .openapi('TicketPage'),
        },
      },
      handler: async ({ query, sites }) => ({ body: await listTickets({ ...query, sites }) }),
    }),
  } satisfies Record<string, RouteDef>;
}
