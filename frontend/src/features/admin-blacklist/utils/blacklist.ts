import type { ColumnSort, SortOrder } from '../../../lib/sorting';
import { blacklistEntryInput, blacklistEntryUpdateInput } from '@rr/contracts/blacklist';
import type { BlacklistEntry } from '../../../api/types';
import { addYearsIso } from '../../../lib/staff-dates';
import { formCheck } from '../../../lib/form-check';
import { text } from '../../../lib/staff-forms';

/* ---- Forms ---- */

export const ADD_FIELDS = ['email', 'expiredAt', 'description'] as const;
export type AddField = (typeof ADD_FIELDS)[number];
export type AddFormValues = Record<AddField, string>;

export const EDIT_FIELDS = ['expiredAt', 'description'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];
export type EditFormValues = Record<EditField, string>;

const entryRequest = (values: EditFormValues) => ({
  expiredAt: text(values.expiredAt),
  description: values.description,
});

/**
 * docs/product.md#validation, blacklist edit: the request of the form's values, checked with the contract
 * (expiry after `today`). The body leaves out an empty description.
 */
export function checkEditForm(today: string) {
  return formCheck(
    blacklistEntryUpdateInput(() => today),
    entryRequest,
  );
}

/** Blacklist add: as the edit, plus the address. */
export function checkAddForm(today: string) {
  return formCheck(
    blacklistEntryInput(() => today),
    (values: AddFormValues) => ({
      email: values.email,
      ...entryRequest(values),
    }),
  );
}

/** docs/product.md#limits: the entry expires one year from today by default. */
export function addFormDefaults(today: string): AddFormValues {
  return { email: '', expiredAt: addYearsIso(today, 1), description: '' };
}

export function entryToEditValues(entry: BlacklistEntry): EditFormValues {
  return { expiredAt: entry.expiredAt, description: entry.description ?? '' };
}

/* ---- List sort ---- */

export const SORT_COLUMNS = ['email', 'expiredAt', 'description'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type { SortOrder };
export type BlacklistSort = ColumnSort<SortColumn>;

/** docs/product.md#screens: default email ascending. */
export const DEFAULT_SORT: BlacklistSort = { column: 'email', order: 'ASC' };

/** The sort of the query parameters `sortColumn` and `sortOrder`; invalid parts use the default. */
export function parseSort(params: {
  readonly sortColumn: string | null;
  readonly sortOrder: string | null;
}): BlacklistSort {
  const column = (SORT_COLUMNS as readonly string[]).includes(params.sortColumn ?? '')
    ? (params.sortColumn as SortColumn)
    : DEFAULT_SORT.column;
  const order = params.sortOrder === 'DESC' ? 'DESC' : 'ASC';
  return { column, order };
}

/** The API's sort spec `field:ASC|DESC`. */
export function sortSpec(sort: BlacklistSort): string {
  return `${sort.column}:${sort.order}`;
}

/* ---- Links ---- */

/** The edit page; `fromSearch=y` makes leaving it go back in history, to the search result. */
export function editPath(emailAddress: string, fromSearch: boolean): string {
  return `/blacklist-edit/${encodeURIComponent(emailAddress)}${fromSearch ? '?fromSearch=y' : ''}`;
}
