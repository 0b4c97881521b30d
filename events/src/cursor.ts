import type pg from 'pg';

let cursors = 0;

/**
 * The rows of a query in batches of at most `batchSize`, through a server-side cursor: the caller
 * holds one batch at a time, never the whole answer. The client must be in a transaction, which
 * the cursor lives in. The query is planned for all its rows (`cursor_tuple_fraction` 1 for the
 * rest of the transaction), as the same query without a cursor is: every row will be fetched.
 */
export async function* inBatches<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  text: string,
  values: unknown[],
  batchSize: number,
): AsyncGenerator<R[], void, undefined> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`bad batch size ${batchSize}`);
  const name = `rr_cursor_${++cursors}`;
  await client.query('SET LOCAL cursor_tuple_fraction = 1');
  await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, values);
  let open = true;
  try {
    for (;;) {
      const r = await client.query<R>(`FETCH ${batchSize} FROM ${name}`);
      if (r.rows.length < batchSize) open = false;
      if (r.rows.length > 0) yield r.rows;
      if (!open) return;
    }
  } finally {
    // A reader that stopped early frees the cursor's snapshot and sort at once.
    if (open) await client.query(`CLOSE ${name}`).catch(() => undefined);
  }
}
