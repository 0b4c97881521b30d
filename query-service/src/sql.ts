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
