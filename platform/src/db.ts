import pg from 'pg';

// DATE columns are local calendar dates: read them as 'YYYY-MM-DD' strings, never as JS Dates
// (which would shift them by the process's time zone).
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

// int8 (bigint) columns come back as strings by default; counts and positions fit in a JS number
// only up to 2^53, so positions stay strings while count(*) results are parsed where read.
export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
  });
  // A client losing its connection (database restart) must not crash the process: idle ones
  // report on the pool, checked-out ones (between the queries of a transaction, or holding an
  // advisory lock) on themselves. The query in flight still fails, and callers handle that.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/**
 * Runs fn in one database transaction; rolls back on any error. With `waitForFlush: false` the
 * commit returns before its WAL reaches the disk (synchronous_commit off, set with BEGIN in one
 * round trip): only for changes that can be made again after a crash, as a crash may lose the
 * last fraction of a second of such commits (whole transactions, never parts of one).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: { waitForFlush?: boolean } = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(
      options.waitForFlush === false ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN',
    );
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** True for errors that mean the database is unreachable (restart, network), not a bad query. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === '57P01' || // admin_shutdown
    code === '57P02' ||
    code === '57P03' || // cannot_connect_now
    code === '08006' ||
    code === '08001' ||
    code === '08003' ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(err.message)
  );
}
