import net from 'node:net';
import pg from 'pg';

// DATE columns are local calendar dates: read them as 'YYYY-MM-DD' strings, never as JS Dates
// (which would shift them by the process's time zone).
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/**
 * How a pool's connections talk to PostgreSQL. `pipeline`: a query is sent while the answers of
 * earlier ones are still on their way (they come back in order), so a transaction's statements
 * that need no answer before the next (BEGIN with the first read; the append, the tables beside
 * the log and the commit of a command) cost one round trip together instead of one each.
 * `coalesceWrites`: the queries written in one turn of the event loop leave in one system call
 * (the driver sends each query's messages with one call of its own, CoalescingSocket).
 * Both on by default; `DB_PIPELINE` and `DB_COALESCE_WRITES` switch them off (for an A/B).
 */
export interface PoolOptions {
  pipeline?: boolean;
  coalesceWrites?: boolean;
}

/**
 * A socket whose writes of one turn of the event loop leave together: the driver corks it around
 * each query's messages and uncorks after them; the uncork that would send is put off to the end
 * of the turn, so the queries written in the same turn (a pipelined transaction's) go out in one
 * `writev`. (Overriding `write` would not do: a connecting net.Socket sets its own.) Over TLS
 * the driver writes to a TLS socket wrapped around this one, which sends as it always does.
 */
export class CoalescingSocket extends net.Socket {
  #sendPending = false;

  override uncork(): void {
    if (this.writableCorked === 1 && !this.#sendPending) {
      this.#sendPending = true;
      process.nextTick(() => {
        this.#sendPending = false;
        super.uncork();
      });
      return;
    }
    super.uncork();
  }
}

// int8 (bigint) columns come back as strings by default; counts and positions fit in a JS number
// only up to 2^53, so positions stay strings while count(*) results are parsed where read.
export function createPool(
  connectionString: string,
  max = 10,
  { pipeline = true, coalesceWrites = true }: PoolOptions = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    pipeline,
    ...(coalesceWrites ? { stream: () => new CoalescingSocket() } : {}),
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

/** The URL of the database `name` on the server of `adminUrl`, with its credentials. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
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

const CONNECTION_ERROR_CODES = new Set([
  // The network and the socket.
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: class 08 (connection exception) and shutdowns, and no connection slot free.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  // A write reached a server that is (now) a read-only standby: a failover is under way and the
  // proxy still routes to the demoted primary (or DATABASE_URL names a replica).
  '25006', // read_only_sql_transaction
]);

/**
 * What node-postgres and its pool say when the connection is gone: the socket closed (also when
 * a pooled client lost it between queries: "Client has encountered a connection error and is not
 * queryable", or "... was closed and is not queryable"), or no connection came up in time. And a
 * streaming replica cancelling a read that its replay must not wait for ("canceling statement due
 * to conflict with recovery", SQLSTATE 40001): the read may be tried again.
 */
const CONNECTION_ERROR_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|conflict with recovery/i;

/** True for errors that mean the database is unreachable (restart, network), not a bad query. */
export function isConnectionError(err: unknown): boolean {
  // The pool wraps the socket's error as the cause of its own: a few causes deep are looked at.
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 4; depth++, e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
    if (CONNECTION_ERROR_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/**
 * SQLSTATEs of class 22 (data exception) with which PostgreSQL refuses a value a request brought:
 * a string too long (22001), a number out of range (22003), a date it cannot read or has not got
 * (22007, 22008), NUL or an invalid character (22021, 22P05), text that is not of the type (22P02,
 * such as a lone surrogate in jsonb).
 */
const INPUT_DATA_ERROR_CODES = new Set([
  '22001',
  '22003',
  '22007',
  '22008',
  '22021',
  '22P02',
  '22P05',
]);

/**
 * True when PostgreSQL refused a value as data (see INPUT_DATA_ERROR_CODES): the request's input
 * got past the edge's validation. The problem handler answers 400 for it, as the edge would have.
 */
export function isRefusedInputData(err: unknown): err is pg.DatabaseError {
  return err instanceof pg.DatabaseError && INPUT_DATA_ERROR_CODES.has(err.code ?? '');
}
