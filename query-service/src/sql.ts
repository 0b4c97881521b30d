import createKnex, { type Knex } from 'knex';
import type { QueryResultRow } from 'pg';
import type { Pool, PoolClient } from '@rr/platform';

export type { Knex };

/**
 * knex as a query builder only, for the statements whose WHERE and ORDER BY depend on a list's
 * filters, sort and page: it never connects (no connection, so no pool of its own); a built
 * statement runs through the service's pg pool (`run`). Statements that do not vary (the
 * calendar, the cart, the event store) stay SQL text, prepared where they are hot.
 *
 * Write expressions that are not plain columns as `sql.raw(...)` (a string column is quoted as
 * an identifier), and mind that `?` in raw SQL is a placeholder.
 */
export const sql: Knex = createKnex({ client: 'pg' });

/** Runs a built statement (its values as parameters $1, $2, ...) on the pool or a client. */
export async function run<R extends QueryResultRow>(
  db: Pool | PoolClient,
  query: Knex.QueryBuilder | Knex.Raw,
): Promise<R[]> {
  const { sql: text, bindings } = query.toSQL().toNative();
  return (await db.query<R>(text, bindings as unknown[])).rows;
}

/**
 * One page of a filtered list and the list's total: `columns` (raw SQL) gain
 * `count(*) OVER () AS total`, the rows are filtered, ordered and cut to the page; a page past
 * the end has no row to carry the total, so it is then counted on its own.
 */
export async function fetchPage<R extends QueryResultRow>(
  db: Pool | PoolClient,
  columns: string,
  filtered: (query: Knex.QueryBuilder) => void,
  order: (query: Knex.QueryBuilder) => void,
  page: { limit: number; offset: number },
): Promise<{ rows: R[]; total: number }> {
  const rows = await run<R & { total: string }>(
    db,
    sql
      .select(sql.raw(`${columns}, count(*) OVER () AS total`))
      .modify(filtered)
      .modify(order)
      .limit(page.limit)
      .offset(page.offset),
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (rows.length === 0 && page.offset > 0)
    total = Number((await run<{ n: string }>(db, sql.count('* as n').modify(filtered)))[0]!.n);
  return { rows, total };
}
