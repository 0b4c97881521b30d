// Over 300 lines: the one library every benchmark script imports most of (database, load loops,
// figures); split, each script would import from several files for nothing.
/**
 * What every benchmark under tests/bench shares: its own throw-away database, closed-loop and
 * open-loop load, percentiles, the printed table and `bench-results.json`.
 *
 * Each script owns one key of `bench-results.json` at the repository root and replaces only that
 * key, so `npm run bench` (all scripts in a row) and a single `npm run bench:<name>` both leave a
 * complete file behind.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createPool,
  ensureDatabase,
  makeClusterDir,
  migrate,
  startEmbeddedPostgres,
  type EmbeddedCluster,
} from '@rr/platform';
import { SCHEMA_MIGRATION_DIRS } from '@rr/server/schema';
import { runAsAdmin } from '../support/pg-admin.ts';
import { freePort } from '../support/ports.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const resultsFile = path.join(repoRoot, 'bench-results.json');

/** A positive number from the environment, or the fallback; anything else stops the script. */
export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a positive number, not ${raw}`);
    process.exit(2);
  }
  return n;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of latencies in milliseconds. */
export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length
      ? round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!)
      : 0;
  return {
    count: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted.length ? round(sorted[sorted.length - 1]!) : 0,
  };
}

export interface LoadResult {
  operations: number;
  seconds: number;
  perSecond: number;
  latencyMs: Percentiles;
  /** Operations that failed in the way the caller expected (a conflict), not counted above. */
  expectedErrors: number;
}

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
});
export const wasInterrupted = () => interrupted;

/**
 * Closed loop: `clients` workers each run `op` back to back for `seconds`. An error the caller
 * does not expect stops the benchmark: a figure is only worth printing when every operation did
 * what it should.
 */
export async function closedLoop(options: {
  clients: number;
  seconds: number;
  op: (worker: number, iteration: number) => Promise<void>;
  isExpectedError?: (err: unknown) => boolean;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let expectedErrors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.clients }, async (_, worker) => {
      for (let i = 0; !interrupted && performance.now() < deadline; i++) {
        const t0 = performance.now();
        try {
          await options.op(worker, i);
          latencies.push(performance.now() - t0);
        } catch (err) {
          if (!options.isExpectedError?.(err)) throw err;
          expectedErrors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    operations: latencies.length,
    seconds: round(elapsed),
    perSecond: round(latencies.length / elapsed),
    latencyMs: percentiles(latencies),
    expectedErrors,
  };
}

/**
 * Open loop: starts `op` at a steady `perSecond` for `seconds`, whether or not earlier ones have
 * finished (a queue forming shows in the latencies instead of lowering the rate).
 */
export async function openLoop(options: {
  perSecond: number;
  seconds: number;
  op: (i: number) => Promise<void>;
}): Promise<{ started: number; seconds: number; latencyMs: Percentiles }> {
  const latencies: number[] = [];
  const running: Promise<void>[] = [];
  const t0 = performance.now();
  const total = Math.round(options.perSecond * options.seconds);
  for (let i = 0; i < total && !interrupted; i++) {
    const due = t0 + (i * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const s = performance.now();
    running.push(options.op(i).then(() => void latencies.push(performance.now() - s)));
  }
  await Promise.all(running);
  return {
    started: running.length,
    seconds: round((performance.now() - t0) / 1000),
    latencyMs: percentiles(latencies),
  };
}

/** Times `op` `count` times one after the other (a single client), after `warmup` untimed runs. */
export async function sequential(
  count: number,
  op: (i: number) => Promise<void>,
  warmup = Math.min(50, Math.ceil(count / 10)),
): Promise<Percentiles> {
  for (let i = 0; i < warmup; i++) await op(i);
  const latencies: number[] = [];
  for (let i = 0; i < count && !interrupted; i++) {
    const s = performance.now();
    await op(i);
    latencies.push(performance.now() - s);
  }
  return percentiles(latencies);
}

export interface BenchDatabase {
  /** Connection string of the migrated benchmark database. */
  url: string;
  /** Connection string of the cluster's `postgres` database (to create more databases). */
  adminUrl: string;
  pool: pg.Pool;
  server: { version: string; fsync: string; synchronousCommit: string; embedded: boolean };
}

/**
 * Runs `fn` with a fresh, migrated database: on an embedded PostgreSQL of its own, or in the
 * cluster of DATABASE_URL (a new database that is dropped afterwards).
 */
export async function withBenchDatabase<T>(
  options: {
    poolSize: number;
    /** PostgreSQL's statistics of statements (pg_stat_statements; see statementStats). */
    statementStats?: boolean;
  },
  fn: (db: BenchDatabase) => Promise<T>,
): Promise<T> {
  let cluster: EmbeddedCluster | null = null;
  let dir: string | null = null;
  let adminUrl = process.env.DATABASE_URL;
  const dbName = `rr_bench_${randomBytes(4).toString('hex')}`;
  let pool: pg.Pool | null = null;
  try {
    if (!adminUrl) {
      dir = await makeClusterDir('rr-bench-pg-');
      console.log('starting embedded PostgreSQL ...');
      cluster = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'data'),
        port: await freePort(),
        ...(options.statementStats ? { settings: STATEMENT_STATS_SETTINGS } : {}),
      });
      adminUrl = cluster.url;
    }
    const url = await ensureDatabase(adminUrl, dbName);
    pool = createPool(url, options.poolSize);
    await migrate(pool, SCHEMA_MIGRATION_DIRS);
    if (options.statementStats) await enableStatementStats(pool);
    const { rows } = await pool.query<{ version: string; fsync: string; sync: string }>(
      `SELECT version() AS version, current_setting('fsync') AS fsync,
              current_setting('synchronous_commit') AS sync`,
    );
    const s = rows[0]!;
    console.log(`${s.version}; fsync=${s.fsync}, synchronous_commit=${s.sync}`);
    return await fn({
      url,
      adminUrl,
      pool,
      server: {
        version: s.version,
        fsync: s.fsync,
        synchronousCommit: s.sync,
        embedded: cluster !== null,
      },
    });
  } finally {
    await pool?.end().catch(() => undefined);
    if (cluster) {
      await cluster
        .stop()
        .catch((err: unknown) => console.error('stopping PostgreSQL failed:', err));
      // As root the cluster may live elsewhere than asked (see startEmbeddedPostgres): remove both.
      await rm(cluster.dataDir, { recursive: true, force: true });
    } else if (adminUrl) {
      await runAsAdmin(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

// --- PostgreSQL's statistics of statements ------------------------------------------------------

/** What the embedded cluster starts with when a benchmark asks for statement statistics. */
const STATEMENT_STATS_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_planning': 'on',
};

async function enableStatementStats(pool: pg.Pool): Promise<void> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT pg_stat_statements_reset()');
  } catch (err) {
    throw new Error(
      `statement statistics need pg_stat_statements in shared_preload_libraries of DATABASE_URL's ` +
        `server (the embedded one is started so): ${String(err)}`,
    );
  }
}

/**
 * Where PostgreSQL's time went between `reset` and `print`: the statements of the benchmark's
 * database that took the most time (executing plus planning), each with its calls, its
 * milliseconds of execution and of planning per call, its rows per call and the start of its
 * text. A statement planned on every call shows planning time per call; one kept planned none.
 */
export const statementStats = (pool: pg.Pool) => ({
  reset: async (): Promise<void> => {
    await pool.query('SELECT pg_stat_statements_reset()');
  },
  print: async (label: string, operations: number, top = 15): Promise<void> => {
    const r = await pool.query<{
      calls: string;
      exec: number;
      plan: number;
      rows: string;
      query: string;
    }>(
      `SELECT s.calls, s.total_exec_time AS exec, s.total_plan_time AS plan, s.rows,
              left(regexp_replace(s.query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = current_database() AND s.calls > 0
        ORDER BY s.total_exec_time + s.total_plan_time DESC LIMIT $1`,
      [top],
    );
    console.log(
      `${label}: statements by PostgreSQL's time (per ${operations} operations: calls; per call ` +
        `ms executing / planning, rows)`,
    );
    for (const row of r.rows) {
      const calls = Number(row.calls);
      const perCall = (ms: number) => (ms / calls).toFixed(3);
      console.log(
        `  ${String(calls).padStart(7)}  ${perCall(row.exec)} / ${perCall(row.plan)}  ` +
          `${(Number(row.rows) / calls).toFixed(1).padStart(6)}  ${row.query}`,
      );
    }
  },
});

/**
 * Writes out what loading the data left dirty (a CHECKPOINT, after VACUUM ANALYZE), so that the
 * checkpoint it would cause does not fall into a measurement. Needs a superuser or the
 * pg_checkpoint role; without, the measurement goes on and says so.
 */
export async function settle(pool: pg.Pool, vacuum = 'VACUUM ANALYZE'): Promise<void> {
  await pool.query(vacuum);
  try {
    await pool.query('CHECKPOINT');
  } catch (err) {
    console.warn(`CHECKPOINT not allowed (${String(err)}); measuring without it`);
  }
}

export const hostInfo = () => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGiB: round(os.totalmem() / 2 ** 30, 1),
  node: process.version,
});

/** Replaces one key of bench-results.json, keeping the others. */
export async function writeResults(key: string, value: unknown): Promise<void> {
  let current: Record<string, unknown> = {};
  if (existsSync(resultsFile)) {
    try {
      const parsed: unknown = JSON.parse(await readFile(resultsFile, 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        current = parsed as Record<string, unknown>;
      }
    } catch {
      console.warn(`${resultsFile} is not valid JSON; starting a new object`);
    }
  }
  current[key] = { measuredAt: new Date().toISOString(), host: hostInfo(), ...(value as object) };
  await writeFile(resultsFile, `${JSON.stringify(current, null, 2)}\n`);
  console.log(`figures written to bench-results.json (key "${key}")`);
}

/** Prints rows as a table with right-aligned numbers. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  for (const [n, row] of cells.entries()) {
    console.log(
      row
        .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!)))
        .join('  '),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const fmt = (n: number) =>
  Number.isInteger(n)
    ? n.toLocaleString('en')
    : n.toLocaleString('en', { maximumFractionDigits: 2 });

/** Runs a benchmark's main function and exits with its outcome (pools and timers may linger). */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error('benchmark failed:', err);
      process.exit(1);
    },
  );
}
