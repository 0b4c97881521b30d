import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Position } from './position.ts';
import { EVENTS_CHANNEL, type EventStore } from './store.ts';
import type { RecordedEvent } from './types.ts';

/**
 * Wakes subscribers when events commit (LISTEN/NOTIFY on a dedicated connection), or whatever
 * else `channel` is notified of (the read models moving: projections' READ_MODELS_CHANNEL). It
 * reconnects by itself; subscribers also poll, so a lost notification only delays, never loses,
 * an event.
 */
export class EventNotifier extends EventEmitter {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string = EVENTS_CHANNEL,
  ) {
    super();
    this.setMaxListeners(100);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect().catch(() => this.scheduleReconnect());
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.client === client) this.client = null;
      if (!this.stopped) this.scheduleReconnect();
    });
    client.on('notification', () => this.wake());
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.client = client;
    this.wake();
  }

  /** Counts notifications, so a waiter can tell that one arrived before it started waiting. */
  seq = 0;

  private wake(): void {
    this.seq += 1;
    this.emit('wake');
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch(() => this.scheduleReconnect());
    }, 500);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  /** Resolves at the next notification or after ms, whichever comes first. */
  waitForWake(ms: number, signal?: AbortSignal, sinceSeq?: number): Promise<void> {
    if (sinceSeq !== undefined && sinceSeq !== this.seq) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.off('wake', done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.once('wake', done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

export interface SubscriptionOptions {
  store: EventStore;
  notifier: EventNotifier;
  /** Where to resume: called at start and after every failed batch. */
  load: () => Promise<Position>;
  /** Handles one batch in commit order, read after `from`; throwing makes it be read again. */
  handle: (events: RecordedEvent[], from: Position) => Promise<void>;
  batchSize?: number;
  pollMs?: number;
  /**
   * After a wake-up by a notification, wait this long before reading, so that commits arriving
   * close together are read and handled as one batch (fewer transactions under load, for a few
   * milliseconds of delay). 0 reads at once.
   */
  gatherMs?: number;
  /** Ids of open transactions that append no events, not waited for (NonAppenders.ids). */
  ignoring?: () => readonly string[];
  /**
   * The event types the subscriber handles, when it handles few of those it reads (an outbox
   * reactor): a batch then holds only events of these types, and the last event read whatever
   * its type, so the position moves past the others without their being sent (see readAfter).
   */
  types?: ReadonlySet<string>;
  signal: AbortSignal;
  onError?: (err: unknown) => void;
}

/** A catch-up subscription over the whole log, in commit order, gap-safe. Runs until aborted. */
export async function runSubscription(options: SubscriptionOptions): Promise<void> {
  const { store, notifier, signal } = options;
  const batchSize = options.batchSize ?? 500;
  const pollMs = options.pollMs ?? 1000;
  const gatherMs = options.gatherMs ?? 0;
  let position: Position | null = null;
  while (!signal.aborted) {
    try {
      position ??= await options.load();
      const seq = notifier.seq;
      const { events, heldBack, full } = await store.readAfter(
        position,
        batchSize,
        undefined,
        options.ignoring?.(),
        options.types,
      );
      if (events.length > 0) {
        await options.handle(events, position);
        position = events[events.length - 1]!.position;
        if (full) continue; // more may follow at once
      }
      // Caught up with what was visible. A commit since the read has notified (seq moved on, and
      // the wait returns at once); events held back by an older open transaction are looked for
      // again soon, as that transaction may end without a notification.
      await notifier.waitForWake(heldBack ? 10 : pollMs, signal, seq);
      if (gatherMs > 0 && notifier.seq !== seq && !signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, gatherMs));
      }
    } catch (err) {
      position = null;
      options.onError?.(err);
      await notifier.waitForWake(250, signal);
    }
  }
}
