import {
  comparePositions,
  NonAppenders,
  runSubscription,
  type EventNotifier,
  type EventStore,
  type Position,
  type Projection,
  type RecordedEvent,
} from '@rr/events';
import pg from 'pg';
import { inTransaction, type Logger, type Pool } from '@rr/platform';
import {
  applyGroupBatch,
  CheckpointMovedError,
  ensureCheckpoint,
  readCheckpoint,
} from './checkpoints.ts';
import { sleep } from './runner-sleep.ts';
import { inChunks, TransactionPacer } from './transaction-pacer.ts';

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

/**
 * Notified when a batch of a group readers wait for (not quiet: the read models) commits, so a
 * reader following them (live availability's watcher) need not poll to learn they moved.
 */
export const READ_MODELS_CHANNEL = 'rr_read_models';

export interface RunnerOptions {
  pool: Pool;
  store: EventStore;
  notifier: EventNotifier;
  logger: Logger;
  batchSize?: number;
  /** See SubscriptionOptions.gatherMs; projections gather commits for 5 ms by default. */
  gatherMs?: number;
  /**
   * The same for a group nobody waits for (every projection's checkpoint quiet: the mail and
   * webhook outboxes; `gatherMs` when not given). The server gathers longer there
   * (PROJECTION_QUIET_GATHER_MS): under a stream of commits such a group reads the log less
   * often, and a mail leaves a few hundredths of a second later.
   */
  quietGatherMs?: number;
  /**
   * The most events a group nobody waits for takes into one transaction, counting those it
   * handles (`batchSize` when not given; the server's PROJECTION_QUIET_BATCH_SIZE). A reader of
   * the log reads no event committed after a transaction holding an id began, until it ends:
   * this runner's groups read past its outbox transactions (NonAppenders), other readers (a
   * rebuild catching up) do not, and an outbox reactor's batch of hundreds of events, each
   * written with a few statements, held them back for most of a second after a rush. Such a
   * group still reads the log in pages of `batchSize`: each read costs the database about as
   * much as applying a few events does, and an outbox reactor handles few of the events it reads.
   */
  quietBatchSize?: number;
  /**
   * The time a transaction of a group nobody waits for aims at (the server's
   * PROJECTION_QUIET_TRANSACTION_MS): its batch is applied in transactions sized by the time per
   * event it handles just measured (TransactionPacer), at most `quietBatchSize` events each. Not
   * given: one transaction per batch.
   */
  quietTransactionMs?: number;
}

/**
 * Applies a batch to a group in one transaction, or in transactions of at most `perTransaction`
 * events of `handled` (the types the group handles), or, given a pacer, of as many as it sizes;
 * `positions` (the checkpoints the compare-and-set expects) move on after each commit. Given
 * `nonAppenders`, each transaction is marked as appending no events for as long as it is open.
 */
async function applyInTransactions(
  pool: Pool,
  group: Projection[],
  handled: ReadonlySet<string>,
  positions: Map<string, Position>,
  events: RecordedEvent[],
  waitForFlush: boolean,
  perTransaction: number | null,
  pacer: TransactionPacer | null,
  nonAppenders: NonAppenders | null,
): Promise<void> {
  await inChunks(
    events,
    () => pacer?.next() ?? perTransaction ?? events.length,
    (e) => handled.has(e.type),
    (a, b) => a.position.tx === b.position.tx,
    async (chunk, counted) => {
      const started = performance.now();
      let marked: string | null = null;
      try {
        await inTransaction(
          pool,
          async (client) => {
            if (nonAppenders) marked = await nonAppenders.mark(client);
            await applyGroupBatch(client, group, positions, chunk);
          },
          { waitForFlush },
        );
      } finally {
        if (marked !== null) nonAppenders?.ended(marked);
      }
      pacer?.took(counted, performance.now() - started);
      const last = chunk[chunk.length - 1]!.position;
      for (const [name, at] of positions) {
        if (comparePositions(at, last) < 0) positions.set(name, last);
      }
    },
  );
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
  /**
   * The outbox reactors' open transactions: they append no events, so the groups' reads of the
   * log need not wait for them (NonAppenders), and one catching up does not hold the read models
   * back.
   */
  private readonly nonAppenders = new NonAppenders();

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
        const gatherMs = this.options.gatherMs ?? 5;
        let lastWrite = performance.now();
        const quietBatchSize = this.options.quietBatchSize ?? this.options.batchSize ?? 500;
        const pacer =
          quiet && this.options.quietTransactionMs !== undefined
            ? new TransactionPacer(quietBatchSize, this.options.quietTransactionMs)
            : null;
        try {
          await runSubscription({
            store: this.options.store,
            notifier: this.options.notifier,
            signal: lost.signal,
            batchSize: this.options.batchSize ?? 500,
            gatherMs: quiet ? (this.options.quietGatherMs ?? gatherMs) : gatherMs,
            ignoring: () => this.nonAppenders.ids(),
            // An outbox reactor handles few of the events it reads: the others are not sent.
            ...(quiet ? { types: handled } : {}),
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
              await applyInTransactions(
                pool,
                group,
                handled,
                positions,
                events,
                waitForFlush,
                quiet ? quietBatchSize : null,
                pacer,
                quiet ? this.nonAppenders : null,
              );
              // Told after the commit, in a statement of its own and not waited for: within the
              // batch's transaction the NOTIFY would make its commit take PostgreSQL's lock that
              // orders notifying commits, which every command's commit holds through its flush to
              // disk (each notifies rr_events). A notification lost with a crash only delays:
              // the listeners poll too.
              if (!quiet) void pool.query(`NOTIFY ${READ_MODELS_CHANNEL}`).catch(() => undefined);
              lastWrite = performance.now();
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
