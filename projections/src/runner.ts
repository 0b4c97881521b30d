import {
  comparePositions,
  runSubscription,
  START,
  type EventNotifier,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '@rr/events';
import pg from 'pg';
import { inTransaction, type Logger, type Pool, type PoolClient } from '@rr/platform';
import { applyEvents, type Projection } from './projection.ts';
import { sleep } from './runner-sleep.ts';

export class CheckpointMovedError extends Error {
  override name = 'CheckpointMovedError';
}

export async function ensureCheckpoint(pool: Pick<Pool, 'query'>, name: string): Promise<void> {
  await pool.query(
    'INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING',
    [name],
  );
}

export async function readCheckpoint(pool: Pick<Pool, 'query'>, name: string): Promise<Position> {
  const r = await pool.query<{ tx: string; gp: string }>(
    'SELECT last_tx::text AS tx, last_gp::text AS gp FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  const row = r.rows[0];
  return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : START;
}

/**
 * Applies one batch to one projection: the read-model changes and the checkpoint move commit
 * together, and the checkpoint moves compare-and-set from the batch's start, so a replay never
 * double-applies (a group of one, see applyGroupBatch).
 */
export function applyBatch(
  client: PoolClient,
  projection: Projection,
  from: Position,
  events: RecordedEvent[],
): Promise<void> {
  return applyGroupBatch(client, [projection], new Map([[projection.name, from]]), events);
}

/**
 * Applies one batch to a group of projections in one transaction: each projection gets the events
 * after its own checkpoint, and every checkpoint that was behind moves to the batch end. The
 * checkpoints move compare-and-set from the positions the caller loaded (`from`), in one UPDATE
 * after the changes: when any of them moved meanwhile (a replay, a rebuild), CheckpointMovedError
 * rolls the whole batch back, so nothing is ever applied twice.
 */
export async function applyGroupBatch(
  client: PoolClient,
  group: Projection[],
  from: Map<string, Position>,
  events: RecordedEvent[],
): Promise<void> {
  for (const p of group) {
    const after = from.get(p.name);
    if (!after) throw new CheckpointMovedError(`no checkpoint of ${p.name} loaded`);
    const mine = events.filter((e) => comparePositions(e.position, after) > 0);
    if (mine.length) await applyEvents(client, p, mine);
  }
  const last = events[events.length - 1]!.position;
  const r = await client.query<{ name: string }>({
    name: 'rr_move_checkpoints',
    text: `UPDATE projection_checkpoints c
              SET last_tx = CASE WHEN (c.last_tx, c.last_gp) < ($2::text::xid8, $3::bigint)
                                 THEN $2::text::xid8 ELSE c.last_tx END,
                  last_gp = CASE WHEN (c.last_tx, c.last_gp) < ($2::text::xid8, $3::bigint)
                                 THEN $3::bigint ELSE c.last_gp END,
                  updated_at = now()
             FROM unnest($1::text[], $4::text[], $5::bigint[]) AS e(name, tx, gp)
            WHERE c.name = e.name AND c.last_tx = e.tx::xid8 AND c.last_gp = e.gp
           RETURNING c.name`,
    values: [
      group.map((p) => p.name),
      last.tx.toString(),
      last.gp.toString(),
      group.map((p) => from.get(p.name)!.tx.toString()),
      group.map((p) => from.get(p.name)!.gp.toString()),
    ],
  });
  if (r.rows.length !== group.length) {
    const moved = group.filter((p) => !r.rows.some((row) => row.name === p.name));
    throw new CheckpointMovedError(`checkpoint of ${moved.map((p) => p.name).join(', ')} moved`);
  }
}

async function loadPositions(pool: Pool, group: Projection[]): Promise<Map<string, Position>> {
  const positions = new Map<string, Position>();
  for (const p of group) {
    await ensureCheckpoint(pool, p.name);
    positions.set(p.name, await readCheckpoint(pool, p.name));
  }
  return positions;
}

/** How long a quiet checkpoint (see Projection.quietCheckpoint) may stay behind the log. */
export const QUIET_CHECKPOINT_MS = 1000;

export interface RunnerOptions {
  pool: Pool;
  store: EventStore;
  notifier: EventNotifier;
  logger: Logger;
  batchSize?: number;
  /** See SubscriptionOptions.gatherMs; projections gather commits for 5 ms by default. */
  gatherMs?: number;
}

/**
 * Runs projections in groups. A group reads the log once per batch and applies it to all its
 * projections in one transaction (the read models of the query side form one group; the mail
 * outbox reactor, whose work has other failure modes, runs on its own). Each group has one
 * active runner across all processes: a session advisory lock, held on a connection of its own
 * outside the pool; a second runner stands by until it is free.
 */
export class ProjectionRunner {
  private readonly abort = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly groups: Projection[][];

  constructor(
    private readonly options: RunnerOptions,
    groups: (Projection | Projection[])[],
  ) {
    this.groups = groups.map((g) => (Array.isArray(g) ? g : [g]));
  }

  start(): void {
    for (const g of this.groups) this.loops.push(this.runWithLock(g));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.loops);
  }

  private async runWithLock(group: Projection[]): Promise<void> {
    const { pool, logger } = this.options;
    const signal = this.abort.signal;
    const names = group.map((p) => p.name);
    const lockName = `projection:${names.join('+')}`;
    while (!signal.aborted) {
      let lockClient: pg.Client | null = null;
      let locked = false;
      try {
        // Not from the pool: a lock held for hours must not take a connection commands need.
        lockClient = new pg.Client(pool.options);
        lockClient.on('error', () => undefined);
        await lockClient.connect();
        const r = await lockClient.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
          [lockName],
        );
        if (!r.rows[0]?.ok) {
          await lockClient.end().catch(() => undefined);
          lockClient = null;
          await sleep(1000, signal);
          continue;
        }
        locked = true;
        logger.info({ projections: names }, 'projections active');
        const lost = new AbortController();
        const onAbort = () => lost.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        lockClient.on('error', () => lost.abort());
        lockClient.on('end', () => lost.abort());
        const lockHolder = lockClient;
        // The lock lives as long as its connection; check it now and then so a lost connection
        // stops us. A check still unanswered two rounds later counts as lost too: a connection
        // can hang without an error when its server vanished without a reset (a failover), and
        // meanwhile the pool may already reach the new primary, where another runner takes the
        // lock.
        let unanswered = 0;
        const watch = setInterval(() => {
          if (unanswered >= 2) {
            lost.abort();
            return;
          }
          unanswered += 1;
          lockHolder.query('SELECT 1').then(
            () => (unanswered -= 1),
            () => lost.abort(),
          );
        }, 2000);
        let positions = new Map<string, Position>();
        const quiet = group.every((p) => p.quietCheckpoint);
        const waitForFlush = !group.every((p) => p.derivedOnly);
        const handled = new Set(group.flatMap((p) => [...p.handles]));
        let lastWrite = performance.now();
        try {
          await runSubscription({
            store: this.options.store,
            notifier: this.options.notifier,
            signal: lost.signal,
            batchSize: this.options.batchSize ?? 500,
            gatherMs: this.options.gatherMs ?? 5,
            load: async () => {
              positions = await loadPositions(pool, group);
              return [...positions.values()].reduce((min, p) =>
                comparePositions(p, min) < 0 ? p : min,
              );
            },
            handle: async (events) => {
              if (quiet && !events.some((e) => handled.has(e.type))) {
                // Nothing for this group: skip the transaction unless the checkpoint has not
                // moved for a second (positions stay the written ones, for the compare-and-set).
                if (performance.now() - lastWrite < QUIET_CHECKPOINT_MS) return;
              }
              await inTransaction(
                pool,
                (client) => applyGroupBatch(client, group, positions, events),
                { waitForFlush },
              );
              lastWrite = performance.now();
              const last = events[events.length - 1]!.position;
              for (const [name, at] of positions) {
                if (comparePositions(at, last) < 0) positions.set(name, last);
              }
            },
            onError: (err) => {
              if (!(err instanceof CheckpointMovedError))
                logger.warn(
                  { projections: names, err: String(err) },
                  'projection batch failed; retrying',
                );
            },
          });
        } finally {
          clearInterval(watch);
          signal.removeEventListener('abort', onAbort);
        }
      } catch (err) {
        logger.warn({ projections: names, err: String(err) }, 'projection runner error');
        await sleep(500, signal);
      } finally {
        if (lockClient) {
          const client = lockClient;
          const release = async () => {
            if (locked) {
              await client
                .query('SELECT pg_advisory_unlock(hashtext($1))', [lockName])
                .catch(() => undefined);
            }
            await client.end().catch(() => undefined);
          };
          // A hanging connection must not hold up the next attempt (its lock ends with it).
          const released = new AbortController();
          await Promise.race([
            release().finally(() => released.abort()),
            sleep(2000, released.signal),
          ]);
        }
      }
    }
  }
}

/** Events read per round trip by a rebuild. */
export const REBUILD_BATCH_SIZE = 5000;

export interface RebuildResult {
  name: string;
  /** Events of the log read (every event moves the checkpoint). */
  events: number;
  /** Events the projection handles. */
  applied: number;
}

/**
 * Rebuilds projections from zero, each in one transaction of its own: empty its tables, replay
 * the whole log, set the checkpoint. The log is read once for all of them (the next batch is read
 * while the current one is applied) and each batch is applied to every projection at once, each
 * on its own connection. Readers never see a half-built table (TRUNCATE locks it: their reads
 * wait for the projection's commit); a live runner's next batch finds the checkpoint moved and
 * resumes from the rebuilt one.
 */
export async function rebuildReadModels(
  pool: Pool,
  store: EventStore,
  projections: Projection[],
  batchSize = REBUILD_BATCH_SIZE,
): Promise<RebuildResult[]> {
  const max = pool.options.max ?? 10;
  // A pool too small for a connection per projection: one after the other.
  if (projections.length > 1 && max < projections.length) {
    const results: RebuildResult[] = [];
    for (const p of projections)
      results.push(...(await rebuildReadModels(pool, store, [p], batchSize)));
    return results;
  }
  const open: { projection: Projection; client: PoolClient; applied: number }[] = [];
  let failed = false;
  try {
    for (const projection of projections) {
      const client = await pool.connect();
      open.push({ projection, client, applied: 0 });
      await client.query('BEGIN');
      await ensureCheckpoint(client, projection.name);
      await client.query('SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
        projection.name,
      ]);
      if (projection.tables.length) await client.query(`TRUNCATE ${projection.tables.join(', ')}`);
    }
    // The log is read on a connection of its own when the pool has one to spare.
    const reader = max > open.length ? pool : open[0]!.client;
    let from = START;
    let count = 0;
    let next = store.readAll(from, batchSize, reader);
    for (;;) {
      const events = await next;
      if (events.length === 0) break;
      from = events[events.length - 1]!.position;
      count += events.length;
      next = store.readAll(from, batchSize, reader);
      // Handled after this batch is applied; a failure of the batch must not leave it unhandled.
      next.catch(() => undefined);
      const applied = await Promise.all(
        open.map((o) => applyEvents(o.client, o.projection, events)),
      );
      applied.forEach((n, i) => (open[i]!.applied += n));
    }
    for (const o of open) {
      await o.client.query(
        'UPDATE projection_checkpoints SET last_tx = $2::text::xid8, last_gp = $3, updated_at = now() WHERE name = $1',
        [o.projection.name, from.tx.toString(), from.gp.toString()],
      );
    }
    for (const o of open) await o.client.query('COMMIT');
    return open.map((o) => ({ name: o.projection.name, events: count, applied: o.applied }));
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    for (const o of open) {
      if (failed) await o.client.query('ROLLBACK').catch(() => undefined);
      o.client.release();
    }
  }
}

/** Rebuilds one projection from zero in one transaction (see rebuildReadModels); answers the events read. */
export async function rebuildProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  batchSize = REBUILD_BATCH_SIZE,
): Promise<number> {
  const [result] = await rebuildReadModels(pool, store, [projection], batchSize);
  return result!.events;
}
