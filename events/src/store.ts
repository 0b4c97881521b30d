import type pg from 'pg';
import type { Position } from './position.ts';
import { inBatches } from './cursor.ts';
import {
  heldBackAfter,
  SELECT_EVENT,
  toRecorded,
  visibleAfter,
  visibleOfTypesAfter,
  type EventRow,
} from './rows.ts';

import { StoreSession, type AppendOptions } from './session.ts';
import type { CommitGroupSettings } from './commit-group.ts';
import type { EventClock } from './types.ts';
import type {
  AppendRequest,
  AppendResult,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
} from './types.ts';
import { Upcasters } from './upcasting.ts';

// The store's parts, exported from here as before the split: the rows it reads (rows.ts) and
// the transaction of a command (session.ts).
export type { EventRow } from './rows.ts';
export { StoreSession, type AppendOptions } from './session.ts';

export const EVENTS_CHANNEL = 'rr_events';

/** The events of several streams ($1) in commit order. */
const STREAMS_IN_COMMIT_ORDER = `SELECT ${SELECT_EVENT} FROM events WHERE stream_id = ANY($1::text[])
  ORDER BY events.transaction_id, events.global_position`;

// The store's default for tools and tests that append without a service (the services pass theirs).
// eslint-disable-next-line no-restricted-syntax -- the one default clock of the events package, which depends on no platform
const machineClock: EventClock = { now: () => new Date() };

export interface EventStoreOptions {
  upcasters?: Upcasters;
  /**
   * The time events are recorded at (`created_at`). The services pass their injected clock, so
   * an event's time and every time a rule compares come from one source; the database's `now()`
   * is never used (the column has no default). Without one, the machine's clock.
   */
  clock?: EventClock;
  /**
   * Checks an event's data against the catalogue before it is written (throws when invalid) and
   * answers the data to store and the type's current schema version.
   */
  validate?: (event: NewEvent) => { data: unknown; schemaVersion: number };
  /** Commands that ask for it share their commits (commit-group.ts); absent: each commits alone. */
  groupCommit?: CommitGroupSettings;
}

/**
 * The event log: appends (alone, or in a `StoreSession` with other writes of one transaction) and
 * reads, every read upcast to the newest schema versions (see upcasting.ts).
 */
export class EventStore {
  private readonly upcasters: Upcasters;
  private readonly validator: EventStoreOptions['validate'];
  readonly clock: EventClock;
  readonly groupCommit: CommitGroupSettings | undefined;

  constructor(
    readonly pool: pg.Pool,
    options: EventStoreOptions = {},
  ) {
    this.upcasters = options.upcasters ?? new Upcasters();
    this.validator = options.validate;
    this.clock = options.clock ?? machineClock;
    this.groupCommit = options.groupCommit;
  }

  /** The data to store and its schema version; without a catalogue, as given (version from metadata or 1). */
  validate(event: NewEvent): { data: unknown; schemaVersion: number } {
    return (
      this.validator?.(event) ?? {
        data: event.data,
        schemaVersion: event.metadata?.schemaVersion ?? 1,
      }
    );
  }

  /** Runs fn in one database transaction; the events it appends commit or vanish together. */
  async transaction<T>(
    fn: (session: StoreSession) => Promise<T>,
  ): Promise<{ result: T; position: Position | null }> {
    const client = await this.pool.connect();
    const session = new StoreSession(client, this);
    try {
      await session.begin();
      const result = await fn(session);
      await session.commit();
      return { result, position: session.position };
    } catch (err) {
      // A statement sent without waiting that failed first is the cause; what failed after it
      // only met the aborted transaction.
      const first = await session.settled();
      await client.query('ROLLBACK').catch(() => undefined);
      throw first ? first.err : err;
    } finally {
      client.release();
    }
  }

  /** Appends to several streams atomically: every expected version holds, or nothing is written. */
  async appendMany(requests: AppendRequest[], options: AppendOptions): Promise<AppendResult> {
    const { result } = await this.transaction((s) => s.append(requests, options));
    return result;
  }

  appendToStream(
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return this.appendMany([{ streamId, streamType, expectedVersion, events }], options);
  }

  async readStream(
    streamId: string,
    client: Pick<pg.Pool, 'query'> = this.pool,
  ): Promise<{ version: number; events: RecordedEvent[] }> {
    const r = await client.query<EventRow>({
      name: 'rr_read_stream',
      text: `SELECT ${SELECT_EVENT} FROM events WHERE stream_id = $1 ORDER BY events.stream_version`,
      values: [streamId],
    });
    const events = r.rows.map((row) => this.toRecorded(row));
    return { version: events.length ? events[events.length - 1]!.streamVersion : 0, events };
  }

  /**
   * The events of several streams in commit order, upcast like every read of the store: what an
   * audit history shows. A read of committed events, not the gap-safe read of the subscriptions.
   */
  async readStreams(
    streamIds: readonly string[],
    client: Pick<pg.Pool, 'query'> = this.pool,
  ): Promise<RecordedEvent[]> {
    const r = await client.query<EventRow>({
      name: 'rr_read_streams',
      text: STREAMS_IN_COMMIT_ORDER,
      values: [[...streamIds]],
    });
    return r.rows.map((row) => this.toRecorded(row));
  }

  /**
   * `readStreams` in batches of at most `batchSize` events, through a cursor in the client's
   * transaction: the reader holds one batch at a time, however long the streams are.
   */
  async *readStreamsInBatches(
    streamIds: readonly string[],
    batchSize: number,
    client: pg.ClientBase,
  ): AsyncGenerator<RecordedEvent[], void, undefined> {
    for await (const rows of inBatches<EventRow>(
      client,
      STREAMS_IN_COMMIT_ORDER,
      [[...streamIds]],
      batchSize,
    ))
      yield rows.map((row) => this.toRecorded(row));
  }

  /** Rows of several streams (ordered by stream and version) as events per stream id. */
  groupByStream(streamIds: string[], rows: EventRow[]): Map<string, RecordedEvent[]> {
    const byStream = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
    for (const row of rows) byStream.get(row.stream_id)!.push(this.toRecorded(row));
    return byStream;
  }

  /**
   * Reads events after a position in commit order, gap-safe: only events of transactions below
   * the oldest still-running one, so an open transaction holding an earlier global position is
   * never skipped. Transactions whose ids are in `ignoring` are not waited for: they must be
   * marked as appending nothing (NonAppenders), which the database enforces.
   */
  async readAll(
    after: Position,
    limit: number,
    client: Pick<pg.Pool, 'query'> = this.pool,
    ignoring: readonly string[] = [],
  ): Promise<RecordedEvent[]> {
    const r = await client.query<EventRow>({
      name: 'rr_read_all',
      text: visibleAfter(),
      values: [after.tx.toString(), after.gp.toString(), limit, ignoring],
    });
    return r.rows.map((row) => this.toRecorded(row));
  }

  /**
   * readAll, and in the same round trip whether events after the position are held back (written
   * by transactions at or above the horizon): a subscriber that has caught up then knows whether
   * to look again soon (such a blocker may end without any notification) or to wait to be woken.
   * With `types`, of the `limit` events read only those of these types come back, and the last
   * one read whatever its type (where the reader goes on from). `full`: the read took `limit`
   * events, and more may follow at once.
   */
  async readAfter(
    after: Position,
    limit: number,
    client: Pick<pg.Pool, 'query'> = this.pool,
    ignoring: readonly string[] = [],
    types?: ReadonlySet<string>,
  ): Promise<{ events: RecordedEvent[]; heldBack: boolean; full: boolean }> {
    const values = [after.tx.toString(), after.gp.toString(), limit, ignoring];
    // Both branches run on the commit-order index and see the same snapshot, hence the same
    // horizon.
    const r = await client.query<EventRow & { held: boolean; n?: string }>(
      types
        ? {
            name: 'rr_read_of_types_after',
            text: `(${visibleOfTypesAfter()}) UNION ALL (${heldBackAfter(1)})`,
            values: [...values, [...types]],
          }
        : {
            name: 'rr_read_after',
            text: `(${visibleAfter(', false AS held')}) UNION ALL (${heldBackAfter()})`,
            values,
          },
    );
    const events: RecordedEvent[] = [];
    let heldBack = false;
    let read = 0;
    for (const row of r.rows) {
      if (row.held) heldBack = true;
      else {
        events.push(this.toRecorded(row));
        read = row.n === undefined ? read + 1 : Number(row.n);
      }
    }
    return { events, heldBack, full: read === limit };
  }

  private toRecorded(row: EventRow): RecordedEvent {
    return toRecorded(row, this.upcasters);
  }
}
