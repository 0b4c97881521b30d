/**
 * Event-store append throughput against a plain-INSERT baseline (`npm run bench:store`).
 *
 * Starts its own embedded PostgreSQL (or uses DATABASE_URL), migrates a fresh database (lib.ts), then runs
 * each scenario for BENCH_SECONDS (default 10) with BENCH_CLIENTS (default 10) concurrent clients:
 *   baseline         one single-row INSERT into a table with a jsonb column per transaction
 *   append-new       appendToStream of one RoomCreated to a new stream, expected `no_stream`
 *   append-existing  appendToStream of one RoomUpdated to an existing stream, numeric expected version
 * Prints operations per second and the ratio to the baseline, and merges the figures into
 * `bench-results.json` at the repository root under the key `store`.
 */
import { randomUUID } from 'node:crypto';
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
  closedLoop,
  positiveNumber,
  printTable,
  round,
  runMain,
  wasInterrupted,
  withBenchDatabase,
  writeResults,
  type LoadResult,
} from './lib.ts';
import { roomDetails } from '../support/room-events.ts';

const SECONDS = positiveNumber('BENCH_SECONDS', 10);
const CLIENTS = Math.round(positiveNumber('BENCH_CLIENTS', 10));
const WARMUP_SECONDS = Math.min(2, SECONDS / 5);

const appendOptions: AppendOptions = { metadata: { actor: { kind: 'system', job: 'bench' } } };

async function main(): Promise<void> {
  await withBenchDatabase({ poolSize: CLIENTS + 2 }, async ({ pool, server }) => {
    await pool.query(
      `CREATE TABLE bench_baseline (
         id bigserial PRIMARY KEY,
         data jsonb NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    console.log(`${CLIENTS} clients, ${SECONDS} s per scenario\n`);

    const store = new EventStore(pool, { validate: validateEvent });
    const baselineInsert = () =>
      pool
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
    const results: Record<string, LoadResult> = {};
    for (const s of scenarios) {
      if (wasInterrupted()) break;
      await closedLoop({ clients: CLIENTS, seconds: WARMUP_SECONDS, op: s.op });
      results[s.key] = await closedLoop({
        clients: CLIENTS,
        seconds: SECONDS,
        op: s.op,
        isExpectedError: (e) => e instanceof ConcurrencyError,
      });
    }
    if (wasInterrupted()) {
      console.log('interrupted; no results written');
      return;
    }

    const base = results.baseline!.perSecond;
    printTable(
      ['scenario', 'ops/s', 'ratio', 'p50 ms', 'p99 ms', 'conflicts'],
      scenarios.map((s) => {
        const r = results[s.key]!;
        return [
          s.label,
          Math.round(r.perSecond),
          round(r.perSecond / base),
          r.latencyMs.p50,
          r.latencyMs.p99,
          r.expectedErrors,
        ];
      }),
    );
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

    await writeResults('store', {
      secondsPerScenario: SECONDS,
      clients: CLIENTS,
      postgres: server,
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
  });
}

runMain(main);
