import { queryInt, sortSpec, z } from '@rr/platform';
import type { Knex } from './sql.ts';

/** limit/offset of a list; the defaults follow the spec's page size and list maxima. */
export function pagingQuery(maxLimit = 999, defaultLimit = 20) {
  return {
    limit: queryInt(1, maxLimit).default(defaultLimit),
    offset: queryInt(0, 10_000_000).default(0),
  };
}

/**
 * ORDER BY from a validated sort spec and a column map, ties broken by the given expressions
 * (ascending), to add to a query with `.modify()`. The expressions are the map's SQL, never input.
 */
export function orderBy<F extends string>(
  sort: { field: F; dir: 'ASC' | 'DESC' }[] | undefined,
  columns: Record<F, string | readonly string[]>,
  fallback: { field: F; dir: 'ASC' | 'DESC' }[],
  ties: string[],
): (query: Knex.QueryBuilder) => void {
  // A field may sort by several expressions, each in the requested direction.
  const terms = (sort ?? fallback)
    .flatMap((s) => {
      const exprs: string | readonly string[] = columns[s.field];
      return (typeof exprs === 'string' ? [exprs] : exprs).map((e) => `${e} ${s.dir}`);
    })
    .concat(ties.map((e) => `${e} ASC`));
  return (query) => {
    for (const term of terms) query.orderByRaw(term);
  };
}

export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export { sortSpec, z };
