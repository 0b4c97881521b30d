import {
  isBookingNumber,
  isBookingNumberPart,
  normalBookingNumber,
  ReservationFilterQuery,
} from '@rr/contracts';
import {
  fromContract,
  isoDate,
  isValidLocalTime,
  messages,
  siteFilterParam,
  siteIdOfSlug,
  slugOf,
  sortSpec,
  z,
  nameKey,
} from '@rr/platform';
import { likePattern, pagingQuery } from './paging.ts';
import { sql, type Knex } from './sql.ts';

/** The reservations list's query (filters, search, sort, page) and its WHERE, built with knex. */

const STATUS = z.enum([
  'BOOKED',
  'CANCELED_ONLY',
  'CANCELLED',
  'NEW',
  'INVALID',
  'NO_SHOW',
  'AWAITING_CONFIRMATION',
  'ALL',
]);
/** The ticket status each status filter shows (ALL: any). */
const STATUS_VALUE: Record<z.infer<typeof STATUS>, string | null> = {
  BOOKED: 'BOOKED',
  CANCELED_ONLY: 'CANCELLED',
  CANCELLED: 'CANCELLED',
  NEW: 'NEW',
  INVALID: 'INVALID',
  // Tickets released as no-shows (INVALID, flagged; the flag is added below).
  NO_SHOW: 'INVALID',
  // Booked tickets awaiting their visitor's confirmation (docs/product.md#confirmed-addresses).
  AWAITING_CONFIRMATION: 'BOOKED',
  ALL: null,
};
/** The sort fields' expressions (tickets t, rooms r, personal data p). */
export const SORT = {
  room: nameKey('r.name'),
  name: [nameKey("coalesce(p.last_name, '')"), nameKey("coalesce(p.first_name, '')")],
  institution: nameKey("coalesce(p.organisation, '')"),
  email: "coalesce(p.email, '')",
  date: ['t.date', 't.start_time'],
} as const;
const time = z.string().refine(isValidLocalTime, messages.time);

export const TicketQuery = z.object({
  searchTerm: fromContract(ReservationFilterQuery).shape.searchTerm,
  status: STATUS.optional(),
  roomId: z.uuid().optional(),
  site: siteFilterParam,
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
export type TicketQuery = z.output<typeof TicketQuery> & {
  /** The sites a user whose roles are for some sites reaches: their rooms' tickets only. */
  sites?: readonly string[] | null;
};

/** Adds conditions to a query (knex's `.modify()`). */
export type Condition = (query: Knex.QueryBuilder) => void;

/** The list's filter; the booked tab sends no status (= booked), the cancelled tab CANCELED_ONLY. */
export interface TicketFilter {
  /** Adds the conditions on tickets (t). */
  tickets: Condition;
  /** Adds the search term's condition on personal data (p); only tickets with personal data match. */
  search: Condition | null;
  /** Only status, room and dates filter: `tickets` also reads on rm_ticket_counts (as t). */
  countable: boolean;
  /**
   * A search term narrows the list to the tickets it matches, each set found by its index: the
   * list sorted by name sorts those whole instead of walking every person in name order.
   */
  narrow: boolean;
}

export function ticketFilter(q: Omit<TicketQuery, 'limit' | 'offset' | 'sort'>): TicketFilter {
  const conditions: Condition[] = [];
  // Whether every condition is on a column rm_ticket_counts has too (status, room, date).
  let countable = true;
  const add = (condition: Condition, onCounts = false) => {
    conditions.push(condition);
    if (!onCounts) countable = false;
  };
  const status = STATUS_VALUE[q.status ?? 'BOOKED'];
  if (q.status === 'CANCELED_ONLY')
    // The cancelled tab: every booking that ended by a cancellation, and those released because
    // their address was not confirmed in time (no-shows have their own tab).
    add((w) => w.where((any) => any.where('t.status', 'CANCELLED').orWhere('t.unconfirmed', true)));
  else if (status) add((w) => w.where('t.status', status), true);
  if (q.status === 'NO_SHOW') add((w) => w.where('t.no_show', true));
  if (q.status === 'AWAITING_CONFIRMATION') add((w) => w.whereNotNull('t.confirm_by'));
  const { roomId, timeSlotId, transactionId, ownerId, ticketId, fromDate, untilDate } = q;
  const { fromTime, untilTime } = q;
  if (roomId) add((w) => w.where('t.room_id', roomId), true);
  if (q.sites) {
    const rooms = sql
      .select('id')
      .from('rm_rooms')
      .whereIn('site_id', [...q.sites]);
    add((w) => w.whereIn('t.room_id', rooms), true);
  }
  if (q.site !== undefined) {
    const slug = slugOf(q.site);
    const rooms = sql
      .select('id')
      .from('rm_rooms')
      .whereRaw(`site_id IN ${siteIdOfSlug('?')}`, [slug, slug]);
    add((w) => w.whereIn('t.room_id', rooms), true);
  }
  if (timeSlotId) add((w) => w.where('t.time_slot_id', timeSlotId));
  if (transactionId) add((w) => w.where('t.transaction_id', transactionId));
  if (ownerId) add((w) => w.where('t.owner_id', ownerId));
  if (ticketId) add((w) => w.where('t.id', ticketId));
  const bookingNumber = q.bookingNumber?.trim();
  if (bookingNumber) add((w) => w.whereRaw('upper(t.booking_number) = upper(?)', [bookingNumber]));
  if (fromDate) add((w) => w.where('t.date', '>=', fromDate), true);
  if (untilDate) add((w) => w.where('t.date', '<=', untilDate), true);
  if (fromTime) add((w) => w.where('t.start_time', '>=', fromTime));
  if (untilTime) add((w) => w.where('t.start_time', '<=', untilTime));

  let search: Condition | null = null;
  const term = q.searchTerm?.trim();
  if (term && isBookingNumber(term)) {
    // A booking number typed into the search finds that booking's tickets (no name has its shape).
    const number = normalBookingNumber(term);
    add((w) => w.whereRaw('upper(t.booking_number) = ?', [number]));
  } else if (term && isBookingNumberPart(term)) {
    // A part of a booking number may be a part of a name too ("ANNA"): the tickets whose number
    // contains it (the number's trigram index) and those of the people the search finds (the
    // names' trigram index, then each person's tickets), as one set of ids. Written as a
    // condition on each ticket with OR, neither index could serve it.
    const part = likePattern(normalBookingNumber(term));
    const ids = sql
      .select('n.id')
      .from('rm_tickets as n')
      .where('n.booking_number', 'like', part)
      .unionAll(
        sql
          .select('o.id')
          .from('personal_data as p')
          .join('rm_tickets as o', 'o.owner_id', 'p.owner_id')
          .modify(nameSearch(term)),
      );
    add((w) => w.whereIn('t.id', ids));
  } else if (term) {
    search = nameSearch(term);
    countable = false;
  }
  return {
    tickets: (query) => {
      for (const condition of conditions) condition(query);
    },
    search,
    countable,
    narrow: Boolean(term),
  };
}

/**
 * The search's condition on personal data (p): the text of every searched field must contain the
 * term (what the trigram index finds), then each field is checked on its own.
 */
function nameSearch(term: string): Condition {
  const pattern = likePattern(term);
  return (w) => {
    w.where(sql.raw(SEARCH_TEXT), 'ilike', pattern).where((any) => {
      any
        .where('p.first_name', 'ilike', pattern)
        .orWhere('p.last_name', 'ilike', pattern)
        .orWhere('p.organisation', 'ilike', pattern)
        .orWhere('p.email', 'ilike', pattern)
        .orWhere(sql.raw(`(p.first_name || ' ' || p.last_name)`), 'ilike', pattern)
        .orWhere(sql.raw(`(p.last_name || ', ' || p.first_name)`), 'ilike', pattern);
    });
  };
}

/** Every field the search looks at, in one text: the expression of the trigram index (migration 009). */
const SEARCH_TEXT = `(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '') || ' ' || coalesce(p.organisation, '') || ' ' || coalesce(p.email, '') || ' ' || coalesce(p.last_name, '') || ', ' || coalesce(p.first_name, ''))`;
