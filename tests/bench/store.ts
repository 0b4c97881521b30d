/**
 * Event-store append throughput against a plain-INSERT baseline (`npm run bench:store`).
 *
 * Starts its own embedded PostgreSQL (or uses DATABASE_URL), migrates a fresh database, then runs
 * each scenario for BENCH_SECONDS (default 10) with BENCH_CLIENTS (default 10) concurrent clients:
 *   baseline         one single-row INSERT into a table with a jsonb column per transaction
 *   append-new       appendToStream of one RoomCreated to a new stream, expected `no_stream`
 *   append-existing  appendToStream of one RoomUpdated to an existing stream, numeric expected version
 * Prints operations per second and the ratio to the baseline, and merges the figures into
 * `bench-results.json` at the repository root under the key `store`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  ConcurrencyError,
  EventStore,
  RoomCreated,
  RoomUpdated,
  roomStreamId,
  validateEvent,
  type AppendOptions,
} from '@rr/events';
import {
  createPool,
  ensureDatabase,
  migrate,
  startEmbeddedPostgres,
  type EmbeddedCluster,
  makeClusterDir,
} from '@rr/platform';
import { freePort } from '../support/ports.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const resultsFile = path.join(repoRoot, 'bench-results.json');

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a positive number, not ${raw}`);
    process.exit(2);
  }
  return n;
}

const SECONDS = positiveNumber('BENCH_SECONDS', 10);
const CLIENTS = Math.round(positiveNumber('BENCH_CLIENTS', 10));
const WARMUP_SECONDS = Math.min(2, SECONDS / 5);

const appendOptions: AppendOptions = { metadata: { actor: { kind: 'system', job: 'bench' } } };

function roomDetails(roomId: string, name: string) {
  return {
    roomId,
    name,
    description: 'Quiet desks by the window, power sockets at every seat',
    capacity: 24,
    openStart: { type: 'DAY' as const, value: 2 },
    openEnd: { type: 'WORKING_DAY' as const, value: 30 },
  };
}

interface Result {
  operations: number;
  seconds: number;
  perSecond: number;
  latencyMs: { p50: number; p99: number };
  errors: number;
}

let interrupted = false;

/** Runs `op` in CLIENTS concurrent loops for `seconds`; counts completed operations. */
async function measure(
  seconds: number,
  op: (worker: number) => Promise<void>,
  isExpectedError: (err: unknown) => boolean = () => false,
): Promise<Result> {
  const latencies: number[] = [];
  let operations = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, worker) => {
      while (!interrupted && performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await op(worker);
          operations += 1;
          latencies.push(performance.now() - t0);
        } catch (err) {
          if (!isExpectedError(err)) throw err;
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies.length
      ? round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!)
      : 0;
  return {
    operations,
    seconds: round(elapsed),
    perSecond: round(operations / elapsed),
    latencyMs: { p50: pct(0.5), p99: pct(0.99) },
    errors,
  };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function mergeResults(store: unknown): Promise<void> {
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
  current.store = store;
  await writeFile(resultsFile, `${JSON.stringify(current, null, 2)}\n`);
}

async function main(): Promise<void> {
  process.once('SIGINT', () => {
    interrupted = true;
  });
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
      });
      adminUrl = cluster.url;
    }
    const url = await ensureDatabase(adminUrl, dbName);
    pool = createPool(url, CLIENTS + 2);
    await migrate(pool);
    await pool.query(
      `CREATE TABLE bench_baseline (
         id bigserial PRIMARY KEY,
         data jsonb NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await pool.query<{ version: string; fsync: string; sync: string }>(
      `SELECT version() AS version, current_setting('fsync') AS fsync,
              current_setting('synchronous_commit') AS sync`,
    );
    const server = rows[0]!;
    console.log(`${server.version}; fsync=${server.fsync}, synchronous_commit=${server.sync}`);
    console.log(`${CLIENTS} clients, ${SECONDS} s per scenario\n`);

    const store = new EventStore(pool, { validate: validateEvent });
    const db = pool;
    const baselineInsert = () =>
      db
        .query('INSERT INTO bench_baseline (data) VALUES ($1)', [
          JSON.stringify(roomDetails(randomUUID(), 'Reading room')),
        ])
        .then(() => undefined);
    const appendNew = async () => {
      const roomId = randomUUID();
      await store.appendToStream(
        roomStreamId(roomId),
        'room',
        'no_stream',
        [RoomCreated.create(roomDetails(roomId, 'Reading room'))],
        appendOptions,
      );
    };
    // Each client appends to its own set of existing streams, so a conflict would be a bug.
    const STREAMS_PER_CLIENT = 20;
    const existing = Array.from({ length: CLIENTS }, () =>
      Array.from({ length: STREAMS_PER_CLIENT }, () => ({ roomId: randomUUID(), version: 0 })),
    );
    for (const streams of existing) {
      for (const s of streams) {
        const r = await store.appendToStream(
          roomStreamId(s.roomId),
          'room',
          'no_stream',
          [RoomCreated.create(roomDetails(s.roomId, 'Reading room'))],
          appendOptions,
        );
        s.version = r.streams[0]!.version;
      }
    }
    const turn = new Array<number>(CLIENTS).fill(0);
    const appendExisting = async (worker: number) => {
      const streams = existing[worker]!;
      const s = streams[turn[worker]!++ % streams.length]!;
      const r = await store.appendToStream(
        roomStreamId(s.roomId),
        'room',
        s.version,
        [RoomUpdated.create(roomDetails(s.roomId, `Reading room v${s.version + 1}`))],
        appendOptions,
      );
      s.version = r.streams[0]!.version;
    };

    const scenarios: { key: string; label: string; op: (worker: number) => Promise<void> }[] = [
      { key: 'baseline', label: 'baseline INSERT (autocommit)', op: baselineInsert },
      { key: 'appendNewStream', label: 'appendToStream, new stream', op: appendNew },
      { key: 'appendExistingStream', label: 'appendToStream, existing', op: appendExisting },
    ];
    const results: Record<string, Result> = {};
    for (const s of scenarios) {
      if (interrupted) break;
      await measure(WARMUP_SECONDS, s.op);
      results[s.key] = await measure(SECONDS, s.op, (e) => e instanceof ConcurrencyError);
    }
    if (interrupted) {
      console.log('interrupted; no results written');
      return;
    }

    const base = results.baseline!.perSecond;
    console.log('scenario                        ops/s     ratio   p50 ms   p99 ms   conflicts');
    for (const s of scenarios) {
      const r = results[s.key]!;
      console.log(
        `${s.label.padEnd(30)} ${r.perSecond.toFixed(0).padStart(7)} ${(r.perSecond / base).toFixed(2).padStart(8)} ${r.latencyMs.p50.toFixed(2).padStart(8)} ${r.latencyMs.p99.toFixed(2).padStart(8)} ${String(r.errors).padStart(10)}`,
      );
    }
    const counts = await pool.query<{ events: string; baseline: string }>(
      'SELECT (SELECT count(*) FROM events)::text AS events, (SELECT count(*) FROM bench_baseline)::text AS baseline',
    );
    const c = counts.rows[0]!;
    const expectedEvents =
      CLIENTS * STREAMS_PER_CLIENT +
      results.appendNewStream!.operations +
      results.appendExistingStream!.operations;
    console.log(`\nrows written: ${c.baseline} baseline, ${c.events} events`);
    if (Number(c.events) < expectedEvents)
      throw new Error(`expected at least ${expectedEvents} events, found ${c.events}`);

    await mergeResults({
      measuredAt: new Date().toISOString(),
      secondsPerScenario: SECONDS,
      clients: CLIENTS,
      postgres: {
        server: server.version,
        fsync: server.fsync,
        synchronousCommit: server.sync,
        embedded: cluster !== null,
      },
      host: { cpus: os.cpus().length, node: process.version },
      unit: 'operations per second (one row or one event per transaction)',
      baseline: results.baseline,
      appendNewStream: {
        ...results.appendNewStream,
        ratioToBaseline: round(results.appendNewStream!.perSecond / base, 3),
      },
      appendExistingStream: {
        ...results.appendExistingStream,
        ratioToBaseline: round(results.appendExistingStream!.perSecond / base, 3),
      },
    });
    console.log(
      `figures written to ${path.relative(process.cwd(), resultsFile) || resultsFile} (key "store")`,
    );
  } finally {
    await pool?.end().catch(() => undefined);
    if (cluster) {
      await cluster
        .stop()
        .catch((err: unknown) => console.error('stopping PostgreSQL failed:', err));
    } else if (adminUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin
        .query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
        .finally(() => admin.end());
    }
    // As root the cluster may live elsewhere than asked (see startEmbeddedPostgres): remove both.
    if (cluster) await rm(cluster.dataDir, { recursive: true, force: true });
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('benchmark failed:', err);
    process.exit(1);
  },
);
