import { START, type EventStore, type Position, type Projection } from '@rr/events';
import type { Pool, PoolClient } from '@rr/platform';
import {
  BUILD_SCHEMA,
  buildTableName,
  createBuildTable,
  liveTables,
  secondaryIndexes,
  swapInBuildTables,
  type LiveTable,
} from './build-tables.ts';
import { ensureCheckpoint, setCheckpoint } from './checkpoints.ts';
import { applyEvents } from './projection.ts';

/** Events read per round trip by a rebuild. */
export const REBUILD_BATCH_SIZE = 10_000;

/**
 * How long the swap waits for the live tables' locks before it lets readers and the live runner
 * go on, catches up again and tries once more: below PostgreSQL's deadlock_timeout (1 s), so a
 * reader whose snapshot holds one table while it asks for another is never the one cancelled.
 */
export const SWAP_LOCK_TIMEOUT_MS = 250;
/** Swap attempts before the rebuild gives up (and leaves the live tables as they were). */
export const SWAP_ATTEMPTS = 40;

export interface RebuildResult {
  name: string;
  /** Events of the log read (every event moves the checkpoint). */
  events: number;
  /** Events the projection handles. */
  applied: number;
  /** Milliseconds its batches took to apply (side by side with the others'). */
  applyMs: number;
}

export interface RebuildOptions {
  /**
   * The indexes no constraint needs are made once the rows are written, before the catch-up
   * (default); `false` makes them with the tables, so every write maintains them.
   */
  indexesAfter?: boolean;
  /**
   * The build tables skip the WAL while the log is replayed into them, then `SET LOGGED` writes
   * each once, before the catch-up (default); `false` makes them logged from the start.
   */
  unlogged?: boolean;
  /**
   * Projections with a `replay` leave their totals out of the replay and count them once after
   * it (default); `false` applies every batch with `applyBatch`, totals and all.
   */
  totalsAfter?: boolean;
}

interface Builder {
  projection: Projection;
  client: PoolClient;
  tables: LiveTable[];
  applied: number;
  ms: number;
}

/** A rebuild in progress: its builders, where it stands in the log, and how it reads. */
interface Build {
  builders: Builder[];
  store: EventStore;
  reader: Pool | PoolClient;
  batchSize: number;
  /** The search path with the build schema first: the projections' writes go to its tables. */
  buildPath: string;
  from: Position;
  count: number;
  /** Replaying into empty tables (projections' `replay.applyBatch`), before the catch-up. */
  replaying: boolean;
}

/**
 * Rebuilds projections from zero beside the live read models (blue-green): each projection's
 * tables are made anew in the schema `rr_rebuild` with the live ones' exact definition, the log
 * is replayed into them, and once they have caught up with the head of the log they take the
 * live tables' place together with the checkpoints in one short transaction. Readers go on
 * reading the live tables meanwhile and wait only for the swap. The log is read once for all
 * projections (the next batch read while the current one is applied) and each batch is applied
 * to every projection at once, each on its own connection, committing each batch (nobody reads
 * the build tables). A batch the live runner applies meanwhile goes to the live tables, which the
 * swap drops; its next one finds its checkpoint moved and is rolled back (compare-and-set).
 */
export async function rebuildReadModels(
  pool: Pool,
  store: EventStore,
  projections: Projection[],
  batchSize = REBUILD_BATCH_SIZE,
  options: RebuildOptions = {},
): Promise<RebuildResult[]> {
  if (projections.length === 0) return [];
  const max = pool.options.max ?? 10;
  // A pool too small for a connection per projection: one after the other.
  if (projections.length > 1 && max < projections.length) {
    const results: RebuildResult[] = [];
    for (const p of projections)
      results.push(...(await rebuildReadModels(pool, store, [p], batchSize, options)));
    return results;
  }
  const builders: Builder[] = [];
  let locked = false;
  try {
    for (const projection of projections) {
      const client = await pool.connect();
      builders.push({ projection, client, tables: [], applied: 0, ms: 0 });
    }
    const first = builders[0]!.client;
    // One rebuild at a time per database: the build schema is shared.
    await first.query(`SELECT pg_advisory_lock(hashtext('rr_rebuild'))`);
    locked = true;
    const path = (await first.query<{ p: string }>(`SELECT current_setting('search_path') AS p`))
      .rows[0]!.p;
    await first.query(
      `DROP SCHEMA IF EXISTS ${BUILD_SCHEMA} CASCADE; CREATE SCHEMA ${BUILD_SCHEMA}`,
    );
    const indexesAfter = options.indexesAfter ?? true;
    await settleAll(
      builders.map(async (b) => {
        await ensureCheckpoint(b.client, b.projection.name);
        b.tables = await liveTables(b.client, b.projection.tables);
        for (const t of b.tables)
          await createBuildTable(b.client, t, {
            withoutSecondaryIndexes: indexesAfter,
            unlogged: options.unlogged ?? true,
          });
      }),
    );
    const build: Build = {
      builders,
      store,
      // The log is read on a connection of its own when the pool has one to spare.
      reader: max > builders.length ? pool : first,
      batchSize,
      buildPath: `${BUILD_SCHEMA}, ${path}`,
      from: START,
      count: 0,
      replaying: options.totalsAfter ?? true,
    };
    await replayToHead(build);
    // The totals the projections left out of the replay, counted once.
    if (build.replaying)
      await settleAll(
        builders.map(async (b) => {
          const replay = b.projection.replay;
          if (replay) await inBuild(build, b, (client) => replay.complete(client));
        }),
      );
    build.replaying = false;
    await settleAll(builders.map((b) => finishTables(b, indexesAfter, options.unlogged ?? true)));
    await swap(build);
    return builders.map((b) => ({
      name: b.projection.name,
      events: build.count,
      applied: b.applied,
      applyMs: Math.round(b.ms),
    }));
  } finally {
    const first = builders[0]?.client;
    if (first) {
      await first.query(`DROP SCHEMA IF EXISTS ${BUILD_SCHEMA} CASCADE`).catch(() => undefined);
      if (locked)
        await first
          .query(`SELECT pg_advisory_unlock(hashtext('rr_rebuild'))`)
          .catch(() => undefined);
    }
    for (const b of builders) b.client.release();
  }
}

/**
 * Replays the log from where the build stands until a read comes back empty, each batch applied
 * to every projection at once, each in a transaction of its own on its connection.
 */
async function replayToHead(build: Build): Promise<void> {
  const { store, reader, batchSize } = build;
  let next = store.readAll(build.from, batchSize, reader);
  for (;;) {
    const events = await next;
    if (events.length === 0) return;
    next = store.readAll(events[events.length - 1]!.position, batchSize, reader);
    // Handled after this batch is applied; a failure of the batch must not leave it unhandled.
    next.catch(() => undefined);
    await settleAll(
      build.builders.map(async (b) => {
        const handled = events.filter((e) => b.projection.handles.has(e.type));
        if (handled.length === 0) return;
        const t = performance.now();
        const replay = build.replaying ? b.projection.replay : undefined;
        await inBuild(build, b, (client) =>
          replay ? replay.applyBatch(client, handled) : applyEvents(client, b.projection, handled),
        );
        b.applied += handled.length;
        b.ms += performance.now() - t;
      }),
    );
    build.from = events[events.length - 1]!.position;
    build.count += events.length;
  }
}

/**
 * Waits for every builder's work, then throws the first failure: a builder's connection goes back
 * to the pool only once it has nothing running.
 */
async function settleAll(work: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * One transaction of a builder on the build tables (the search path finds them first), committed
 * without waiting for the WAL flush: a crash loses the whole build anyway.
 */
async function inBuild(
  build: Build,
  b: Builder,
  work: (client: PoolClient) => Promise<unknown>,
): Promise<void> {
  await b.client.query(
    `BEGIN; SET LOCAL search_path TO ${build.buildPath}; SET LOCAL synchronous_commit TO off`,
  );
  try {
    await work(b.client);
    await b.client.query('COMMIT');
  } catch (err) {
    await b.client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** After the rows are written: the tables logged, the deferred indexes made, statistics taken. */
async function finishTables(b: Builder, indexesAfter: boolean, unlogged: boolean): Promise<void> {
  for (const t of b.tables) {
    if (unlogged) await b.client.query(`ALTER TABLE ${buildTableName(t)} SET LOGGED`);
    if (indexesAfter)
      for (const sql of await secondaryIndexes(b.client, t)) await b.client.query(sql);
    // The live tables have their statistics: the swapped-in ones must not be planned blind.
    await b.client.query(`ANALYZE ${buildTableName(t)}`);
  }
}

/**
 * Swaps the build tables in, in one transaction: the live tables locked (readers and the live
 * runner wait from here), the checkpoints locked, the events that came since the last catch-up
 * applied, the live tables dropped and the build tables moved in their place, the checkpoints
 * set to where the build stands. When the locks are not had within SWAP_LOCK_TIMEOUT_MS, all is
 * rolled back, readers go on, and the build catches up again before the next attempt.
 */
async function swap(build: Build): Promise<void> {
  const client = build.builders[0]!.client;
  const live = build.builders.flatMap((b) => b.tables);
  for (let attempt = 1; ; attempt++) {
    await replayToHead(build);
    // What the swap's own catch-up applies is undone with it when it rolls back.
    const before = {
      from: build.from,
      count: build.count,
      applied: build.builders.map((b) => b.applied),
    };
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL lock_timeout = ${SWAP_LOCK_TIMEOUT_MS}`);
      if (live.length)
        await client.query(
          `LOCK TABLE ${live.map((t) => t.qualified).join(', ')} IN ACCESS EXCLUSIVE MODE`,
        );
      await client.query(
        'SELECT 1 FROM projection_checkpoints WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE',
        [build.builders.map((b) => b.projection.name)],
      );
      await client.query(`SET LOCAL search_path TO ${build.buildPath}`);
      for (;;) {
        const events = await build.store.readAll(build.from, build.batchSize, client);
        if (events.length === 0) break;
        for (const b of build.builders)
          b.applied += await applyEvents(client, b.projection, events);
        build.from = events[events.length - 1]!.position;
        build.count += events.length;
      }
      await swapInBuildTables(client, live);
      for (const b of build.builders) await setCheckpoint(client, b.projection.name, build.from);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      build.from = before.from;
      build.count = before.count;
      build.builders.forEach((b, i) => (b.applied = before.applied[i]!));
      const lockNotHad = (err as { code?: string }).code === '55P03';
      if (!lockNotHad || attempt >= SWAP_ATTEMPTS) throw err;
    }
  }
}

/** Rebuilds one projection from zero (see rebuildReadModels); answers the events read. */
export async function rebuildProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  batchSize = REBUILD_BATCH_SIZE,
): Promise<number> {
  const [result] = await rebuildReadModels(pool, store, [projection], batchSize);
  return result!.events;
}
