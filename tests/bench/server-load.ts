/**
 * What the benchmarks against a spawned server share (`commands`, `rush`): the server's settings,
 * the TPC-B baseline of the same PostgreSQL, and the CPU accounting of the server processes, the
 * benchmark and PostgreSQL from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { closedLoop, round, settle, type LoadResult } from './lib.ts';

// --- the server ----------------------------------------------------------------------------------

export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';
export const BENCH_TIME_ZONE = 'Europe/Vienna';

/**
 * The settings of a benchmark's server on database `url` with data folder `dataDir`: its admin,
 * the library's time zone, and no rate limits (the load comes from one address).
 */
export const benchServerEnv = (url: string, dataDir: string): Record<string, string> => ({
  DATABASE_URL: url,
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
  DATA_DIR: dataDir,
  TIME_ZONE: BENCH_TIME_ZONE,
  RATE_LIMIT_CARTS: '1000000',
  RATE_LIMIT_OWNER_LOOKUPS: '1000000',
  LOG_LEVEL: 'error',
});

// --- the TPC-B baseline -------------------------------------------------------------------------

const ACCOUNTS_PER_BRANCH = 100_000;
const TELLERS_PER_BRANCH = 10;

/** The TPC-B tables of `scale` branches (pgbench's layout), vacuumed and analysed. */
export async function createTpcbTables(pool: pg.Pool, scale: number): Promise<void> {
  await pool.query(`
    CREATE TABLE bench_branches (bid int PRIMARY KEY, bbalance int NOT NULL, filler char(88));
    CREATE TABLE bench_tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance int NOT NULL, filler char(84));
    CREATE TABLE bench_accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL, filler char(84));
    CREATE TABLE bench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));`);
  await pool.query('INSERT INTO bench_branches SELECT b, 0, NULL FROM generate_series(1, $1) b', [
    scale,
  ]);
  await pool.query(
    'INSERT INTO bench_tellers SELECT t, (t - 1) / $2 + 1, 0, NULL FROM generate_series(1, $1) t',
    [scale * TELLERS_PER_BRANCH, TELLERS_PER_BRANCH],
  );
  await pool.query(
    `INSERT INTO bench_accounts SELECT a, (a - 1) / $2 + 1, 0, '' FROM generate_series(1, $1) a`,
    [scale * ACCOUNTS_PER_BRANCH, ACCOUNTS_PER_BRANCH],
  );
  await settle(pool, 'VACUUM ANALYZE bench_branches, bench_tellers, bench_accounts');
}

/** A closed loop of TPC-B-like transactions from `clients` connections for `seconds`. */
export async function tpcb(
  pool: pg.Pool,
  scale: number,
  seconds: number,
  clientCount: number,
): Promise<LoadResult> {
  const clients = await Promise.all(Array.from({ length: clientCount }, () => pool.connect()));
  const random = (n: number) => 1 + Math.floor(Math.random() * n);
  try {
    return await closedLoop({
      clients: clientCount,
      seconds,
      op: async (worker) => {
        const c = clients[worker]!;
        const aid = random(scale * ACCOUNTS_PER_BRANCH);
        const tid = random(scale * TELLERS_PER_BRANCH);
        const bid = random(scale);
        const delta = random(10_000) - 5_000;
        await c.query('BEGIN');
        await c.query('UPDATE bench_accounts SET abalance = abalance + $1 WHERE aid = $2', [
          delta,
          aid,
        ]);
        await c.query('SELECT abalance FROM bench_accounts WHERE aid = $1', [aid]);
        await c.query('UPDATE bench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', [
          delta,
          tid,
        ]);
        await c.query('UPDATE bench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [
          delta,
          bid,
        ]);
        await c.query(
          'INSERT INTO bench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)',
          [tid, bid, aid, delta],
        );
        await c.query('COMMIT');
      },
    });
  } finally {
    for (const c of clients) c.release();
  }
}

// --- cart adds on slots of a client's own ------------------------------------------------------

/** A cart command's answer: the cart and the position of its events. */
export interface CartAnswer {
  transactionId: string;
  position: string;
}

/**
 * A client that fills carts on slots of its own, one ticket per command: a new cart on the first
 * slot, then one add per further slot, then the next cart (`commands`' cart adds, `rush`'s ratio).
 */
export class CartFiller {
  private cart: string | null = null;
  private inCart = 0;

  constructor(
    private readonly slots: readonly string[],
    private readonly add: (cart: string | null, timeSlotId: string) => Promise<CartAnswer>,
  ) {}

  /** Adds the next ticket; answers the position of the command's events. */
  async addTicket(): Promise<string> {
    const r = await this.add(this.cart, this.slots[this.inCart]!);
    this.cart = r.transactionId;
    this.inCart += 1;
    if (this.inCart === this.slots.length) {
      this.cart = null;
      this.inCart = 0;
    }
    return r.position;
  }
}

// --- CPU accounting ----------------------------------------------------------------------------

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process ended meanwhile
  }
}

/** CPU seconds (user + system) a process has used so far. */
function used(pid: number | string): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND : 0;
}

/** CPU seconds a process has used so far in the kernel (its system calls: sockets, files). */
function usedInKernel(pid: number | string): number {
  const f = statFields(pid);
  return f ? Number(f[12]) / TICKS_PER_SECOND : 0;
}

/** CPU seconds used by the ended children that a process has waited for. */
function usedByEndedChildren(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND : 0;
}

/**
 * CPU seconds used so far by the server processes (summed, and of it in the kernel), this
 * process, and the benchmark's PostgreSQL (its postmaster, every process it runs, and those that
 * ended, such as the backends of closed connections; other clusters on the machine do not count).
 */
export function cpuSeconds(
  serverPids: number | number[],
  postmasterPid: number,
): { server: number; serverKernel: number; bench: number; postgres: number } {
  let postgres = used(postmasterPid) + usedByEndedChildren(postmasterPid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f && Number(f[1]) === postmasterPid) postgres += used(entry);
  }
  const server = [serverPids].flat().reduce((sum, pid) => sum + used(pid), 0);
  const serverKernel = [serverPids].flat().reduce((sum, pid) => sum + usedInKernel(pid), 0);
  return { server, serverKernel, bench: used(process.pid), postgres };
}

/** CPU milliseconds per operation of each party between two readings. */
export function cpuPerOperation(
  before: ReturnType<typeof cpuSeconds>,
  after: ReturnType<typeof cpuSeconds>,
  operations: number,
) {
  const ms = (k: keyof typeof before) => round(((after[k] - before[k]) * 1000) / operations, 3);
  return {
    server: ms('server'),
    // Of the server's: in the kernel (its sockets' system calls).
    serverKernel: ms('serverKernel'),
    bench: ms('bench'),
    postgres: ms('postgres'),
  };
}
