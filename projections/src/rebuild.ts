import { START, type EventStore, type Projection } from '@rr/events';
import type { Pool, PoolClient } from '@rr/platform';
import { ensureCheckpoint, setCheckpoint } from './checkpoints.ts';
import { applyEvents } from './projection.ts';

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
    for (const o of open) await setCheckpoint(o.client, o.projection.name, from);
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
