import {
  comparePositions,
  runSubscription,
  START,
  type EventNotifier,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '@rr/events';
import { inTransaction, type Logger, type Pool, type PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

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
 * Applies one batch: the read-model changes and the checkpoint move commit together, and the
 * checkpoint moves compare-and-set from the batch's start, so a replay never double-applies.
 */
export async function applyBatch(
  client: PoolClient,
  projection: Projection,
  from: Position,
  events: RecordedEvent[],
): Promise<void> {
  const r = await client.query<{ tx: string; gp: string }>(
    'SELECT last_tx::text AS tx, last_gp::text AS gp FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
    [projection.name],
  );
  const row = r.rows[0];
  if (!row || comparePositions({ tx: BigInt(row.tx), gp: BigInt(row.gp) }, from) !== 0) {
    throw new CheckpointMovedError(`checkpoint of ${projection.name} moved`);
  }
  for (const event of events) {
    if (projection.handles.has(event.type)) await projection.apply(client, event);
  }
  const last = events[events.length - 1]!.position;
  await client.query(
    'UPDATE projection_checkpoints SET last_tx = $2::text::xid8, last_gp = $3, updated_at = now() WHERE name = $1',
    [projection.name, last.tx.toString(), last.gp.toString()],
  );
}

export interface RunnerOptions {
  pool: Pool;
  store: EventStore;
  notifier: EventNotifier;
  logger: Logger;
  batchSize?: number;
}

/**
 * Runs projections. Each projection has one active runner across all processes: a session
 * advisory lock, held on a dedicated connection; a second runner stands by until it is free.
 */
export class ProjectionRunner {
  private readonly abort = new AbortController();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly options: RunnerOptions,
    private readonly projections: Projection[],
  ) {}

  start(): void {
    for (const p of this.projections) this.loops.push(this.runWithLock(p));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.loops);
  }

  private async runWithLock(projection: Projection): Promise<void> {
    const { pool, logger } = this.options;
    const signal = this.abort.signal;
    while (!signal.aborted) {
      let lockClient: PoolClient | null = null;
      try {
        lockClient = await pool.connect();
        const r = await lockClient.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
          [`projection:${projection.name}`],
        );
        if (!r.rows[0]?.ok) {
          lockClient.release();
          lockClient = null;
          await sleep(1000, signal);
          continue;
        }
        logger.info({ projection: projection.name }, 'projection active');
        const lost = new AbortController();
        const onAbort = () => lost.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        lockClient.on('error', () => lost.abort());
        await ensureCheckpoint(pool, projection.name);
        const lockHolder = lockClient;
        // The lock lives as long as its connection; check it now and then so a lost connection stops us.
        const watch = setInterval(() => {
          lockHolder.query('SELECT 1').catch(() => lost.abort());
        }, 2000);
        try {
          await runSubscription({
            store: this.options.store,
            notifier: this.options.notifier,
            signal: lost.signal,
            batchSize: this.options.batchSize ?? 500,
            load: () => readCheckpoint(pool, projection.name),
            handle: (events, from) =>
              inTransaction(pool, (client) => applyBatch(client, projection, from, events)),
            onError: (err) => {
              if (!(err instanceof CheckpointMovedError))
                logger.warn(
                  { projection: projection.name, err: String(err) },
                  'projection batch failed; retrying',
                );
            },
          });
        } finally {
          clearInterval(watch);
          signal.removeEventListener('abort', onAbort);
        }
      } catch (err) {
        logger.warn({ projection: projection.name, err: String(err) }, 'projection runner error');
        await sleep(500, signal);
      } finally {
        if (lockClient) {
          await lockClient
            .query('SELECT pg_advisory_unlock(hashtext($1))', [`projection:${projection.name}`])
            .catch(() => undefined);
          lockClient.release(true);
        }
      }
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Rebuilds a projection from zero in one transaction: empty its tables, replay the whole log,
 * set the checkpoint. Readers see the old tables until the commit; a live runner's next batch
 * finds the checkpoint moved and resumes from the rebuilt one.
 */
export async function rebuildProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  batchSize = 2000,
): Promise<number> {
  return inTransaction(pool, async (client) => {
    await ensureCheckpoint(client, projection.name);
    await client.query('SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
      projection.name,
    ]);
    if (projection.tables.length) await client.query(`TRUNCATE ${projection.tables.join(', ')}`);
    await client.query(
      `UPDATE projection_checkpoints SET last_tx = '0', last_gp = 0 WHERE name = $1`,
      [projection.name],
    );
    let from = START;
    let count = 0;
    for (;;) {
      const events = await store.readAll(from, batchSize, client);
      if (events.length === 0) break;
      await applyBatch(client, projection, from, events);
      from = events[events.length - 1]!.position;
      count += events.length;
    }
    return count;
  });
}
