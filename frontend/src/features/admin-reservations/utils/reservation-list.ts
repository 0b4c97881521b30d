import type { ColumnSort, SortOrder } from '../../../lib/sorting';
import { ReservationFilterQuery } from '@rr/contracts/reports';
import { isIsoDate } from '../../../lib/dates';
import { PAGING_SIZE } from '../../../lib/constants';
import { formCheck } from '../../../lib/form-check';
import { text, withFieldNames } from '../../../lib/staff-forms';

/**
 * State of the reservations list (docs/product.md#screens): tab, date range, term, sort and page. It lives
 * in the address as `searchType`, `searchFrom`, `searchUntil`, `sortColumn`, `sortOrder`,
 * `offset` and `searchTerm`, so reloading, sharing or going back restores the result.
 */

/** The tabs; `no-show` (tickets released as no-shows) shows only when it has rows. */
export const LIST_TYPES = ['booked', 'cancelled', 'no-show'] as const;
export type ListType = (typeof LIST_TYPES)[number];

export const SORT_COLUMNS = ['room', 'name', 'institution', 'email', 'date'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type { SortOrder };
export type ListSort = ColumnSort<SortColumn>;

export interface ListState {
  readonly type: ListType;
  /** `YYYY-MM-DD`, or '' for no lower bound. */
  readonly from: string;
  /** `YYYY-MM-DD`, or '' for no upper bound. */
  readonly until: string;
  readonly term: string;
  readonly sort: ListSort;
  readonly offset: number;
}

/** docs/product.md#screens: default sort is date and time ascending (the desk works through the day). */
export const DEFAULT_SORT: ListSort = { column: 'date', order: 'ASC' };

/** The first search: booked tickets from today on. */
export function defaultListState(today: string): ListState {
  return { type: 'booked', from: today, until: '', term: '', sort: DEFAULT_SORT, offset: 0 };
}

/** A query parameter reader (`URLSearchParams` has `get`). */
export interface ParamSource {
  get(name: string): string | null;
}

function dateParam(value: string | null, fallback: string): string {
  if (value === null) return fallback;
  const trimmed = value.trim();
  if (trimmed === '') return '';
  return isIsoDate(trimmed) ? trimmed : fallback;
}

/**
 * The list state of the address. A missing `searchFrom` means today (the default); an empty one
 * means no lower bound. Invalid values fall back to the defaults.
 */
export function parseListState(params: ParamSource, today: string): ListState {
  const asked = params.get('searchType');
  const type = LIST_TYPES.find((x) => x === asked) ?? 'booked';
  const sortColumn = params.get('sortColumn') ?? '';
  const column = (SORT_COLUMNS as readonly string[]).includes(sortColumn)
    ? (sortColumn as SortColumn)
    : DEFAULT_SORT.column;
  const order: SortOrder = params.get('sortOrder') === 'DESC' ? 'DESC' : 'ASC';
  const rawOffset = params.get('offset') ?? '';
  const offset = /^\d{1,9}$/.test(rawOffset) ? Number(rawOffset) : 0;
  return {
    type,
    from: dateParam(params.get('searchFrom'), today),
    until: dateParam(params.get('searchUntil'), ''),
    term: (params.get('searchTerm') ?? '').trim(),
    sort: { column, order },
    offset,
  };
}

/** The query parameters of a list state; `parseListState` reads them back unchanged. */
export function listStateToParams(state: ListState): Record<string, string> {
  const params: Record<string, string> = {
    searchType: state.type,
    searchFrom: state.from,
  };
  if (state.until) params.searchUntil = state.until;
  if (state.term) params.searchTerm = state.term;
  params.sortColumn = state.sort.column;
  params.sortOrder = state.sort.order;
  params.offset = String(state.offset);
  return params;
}

/** The address search (`?searchType=…`) of a list state, for links to it. */
export function searchOf(state: ListState): string {
  return `?${new URLSearchParams(listStateToParams(state))}`;
}

/** A new search (other tab, filters or sort) starts at the first page (docs/product.md#states). */
export function newSearch(
  state: ListState,
  change: Partial<Pick<ListState, 'type' | 'from' | 'until' | 'term' | 'sort'>>,
): ListState {
  return { ...state, ...change, offset: 0 };
}

/** The reset button shows when the from date is not today, or an until date or a term is set. */
export function showReset(state: ListState, today: string): boolean {
  return state.from !== today || state.until !== '' || state.term !== '';
}

/** Filters of `GET admin/tickets` (and its CSV export) without paging. */
export interface TicketFilter {
  /**
   * No status: booked tickets; `CANCELED_ONLY`: the cancelled ones (docs/product.md#states); `NO_SHOW`:
   * the ones released as no-shows.
   */
  status?: 'CANCELED_ONLY' | 'NO_SHOW';
  fromDate?: string;
  untilDate?: string;
  searchTerm?: string;
  sort: string;
}

export interface TicketQuery extends TicketFilter {
  limit: number;
  offset: number;
}

/** The filters of a tab with the state's dates, term and sort. */
export function ticketFilter(state: ListState, type: ListType = state.type): TicketFilter {
  return {
    ...(type === 'cancelled' ? { status: 'CANCELED_ONLY' as const } : {}),
    ...(type === 'no-show' ? { status: 'NO_SHOW' as const } : {}),
    ...(state.from ? { fromDate: state.from } : {}),
    ...(state.until ? { untilDate: state.until } : {}),
    ...(state.term ? { searchTerm: state.term } : {}),
    // Tickets of one slot come in name order.
    sort:
      state.sort.column === 'date'
        ? `date:${state.sort.order},name:ASC`
        : `${state.sort.column}:${state.sort.order}`,
  };
}

/** The page shown: `pagingSize` tickets from the offset. */
export function ticketQuery(state: ListState): TicketQuery {
  return { ...ticketFilter(state), limit: PAGING_SIZE, offset: state.offset };
}

/** Only the count of a tab (its `totalCount`), for the tab labels. */
export function countQuery(state: ListState, type: ListType): TicketQuery {
  return { ...ticketFilter(state, type), limit: 1, offset: 0 };
}

/** docs/product.md#limits: room names in the list are cut at 18 characters plus ' ...'. */
export const ROOM_NAME_MAX = 18;

export function cutRoomName(name: string, max = ROOM_NAME_MAX): string {
  const chars = Array.from(name);
  return chars.length > max ? `${chars.slice(0, max).join('')} ...` : name;
}

/** The search form's fields, in form order. */
export const SEARCH_FIELDS = ['from', 'until', 'term'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * docs/product.md#validation (the list's filters): dates optional and in order, the term at most 200
 * characters; checked with the contract of the list's query.
 */
export const checkSearchForm = withFieldNames(
  formCheck(ReservationFilterQuery, (values: Record<SearchField, string>) => ({
    fromDate: text(values.from),
    untilDate: text(values.until),
    searchTerm: text(values.term),
  })),
  { from: 'fromDate', until: 'untilDate', term: 'searchTerm' },
);
