import type pg from 'pg';
import type { EventHandlers } from './catalogue/handlers.ts';
import type { RecordedEvent } from './types.ts';

/**
 * A consumer of the log that folds its events into tables (a read model, an outbox): what the
 * projection runner applies. Its changes and its checkpoint commit in one transaction.
 */
export interface Projection {
  name: string;
  /** Tables it owns: a rebuild empties them and replays the log. */
  tables: string[];
  /** Event types it reacts to; others only move its checkpoint. */
  handles: ReadonlySet<string>;
  apply(client: pg.PoolClient, event: RecordedEvent): Promise<void>;
  /**
   * Optional: applies several events (only handled ones, in commit order) with few set-based
   * statements. It must leave the tables exactly as `apply` of each event in turn would.
   */
  applyBatch?(client: pg.PoolClient, events: RecordedEvent[]): Promise<void>;
  /**
   * Optional, for a rebuild's replay into empty tables: a cheaper `applyBatch` that leaves out
   * tables computed from its other tables alone (totals, counts), and `complete`, which computes
   * them once after the replay. Together they must leave the tables exactly as `applyBatch` of
   * every batch would; the catch-up after `complete` goes through `applyBatch` again.
   */
  replay?: {
    applyBatch(client: pg.PoolClient, events: RecordedEvent[]): Promise<void>;
    complete(client: pg.PoolClient): Promise<void>;
  };
  /**
   * Nobody waits for this checkpoint (read-your-writes waits only for the read models): while the
   * log holds nothing it handles, the runner moves it at most once a second instead of writing a
   * transaction per batch. Replaying the skipped events after a restart changes nothing.
   */
  quietCheckpoint?: boolean;
  /**
   * Its tables are made from the log alone: its batches commit without waiting for the WAL flush.
   * A crash may lose the last fraction of a second of batches, each with its checkpoint move, and
   * the runner applies them again from the log. Not for effects outside the database (mail).
   */
  derivedOnly?: boolean;
}

/**
 * A projection's handlers (`handlersFor(...streams).with<PoolClient, Step>(...)`): one per event
 * type of its streams, or `ignore`; each gets its event typed and the transaction's client.
 */
export type Step = Promise<void> | void;
export type ProjectionHandlers = EventHandlers<pg.PoolClient, Step>;

/**
 * A projection's `handles` and `apply` from its handlers: it subscribes to exactly the types it
 * has a handler for, so the list cannot drift from what it does.
 */
export function appliedBy(handlers: ProjectionHandlers): Pick<Projection, 'handles' | 'apply'> {
  return {
    handles: handlers.handles,
    apply: async (client, event) => {
      await handlers.handle(event, client);
    },
  };
}
