/** The order of a sortable list's column (the API's `ASC` / `DESC`). */
export type SortOrder = 'ASC' | 'DESC';

export interface ColumnSort<C extends string> {
  readonly column: C;
  readonly order: SortOrder;
}

/** Clicking the active column toggles its order; another column starts ascending. */
export function nextSort<C extends string>(current: ColumnSort<C>, column: C): ColumnSort<C> {
  if (current.column === column) {
    return { column, order: current.order === 'ASC' ? 'DESC' : 'ASC' };
  }
  return { column, order: 'ASC' };
}

/** `aria-sort` of a column header: only the sorted column has one. */
export function ariaSort<C extends string>(
  sort: ColumnSort<C>,
  column: C,
): 'ascending' | 'descending' | undefined {
  if (sort.column !== column) return undefined;
  return sort.order === 'ASC' ? 'ascending' : 'descending';
}
