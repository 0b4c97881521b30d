import type pg from 'pg';

let cursors = 0;

/**
 * The rows of a query in batches of at most `batchSize`, through a server-side cursor: the caller
 * holds two batches at a time (the one it works through and the next, fetched meanwhile), never
 * the whole answer. The client must be in a transaction, which
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
  const fetch = () => {
    const batch = client.query<R>(`FETCH ${batchSize} FROM ${name}`);
    // Awaited below (or when the reader stops): a failure while the reader works is not lost.
    batch.catch(() => undefined);
    return batch;
  };
  let open = true;
  let next = fetch();
  try {
    for (;;) {
      const r = await next;
      if (r.rows.length < batchSize) open = false;
      // The next batch is on its way while the reader works through this one.
      else next = fetch();
      if (r.rows.length > 0) yield r.rows;
      if (!open) return;
    }
  } finally {
    // Read to its end or stopped early, the cursor frees its sort at once, not at the end of
    // the transaction (a reader may open more in the same one).
    if (open) await next.catch(() => undefined);
    await client.query(`CLOSE ${name}`).catch(() => undefined);
  }
}
