import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { comparePositions, START, type Position } from './position.ts';
import {
  ConcurrencyError,
  type AppendRequest,
  type AppendResult,
  type EventMetadata,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
} from './types.ts';
import { Upcasters } from './upcasting.ts';

export const EVENTS_CHANNEL = 'rr_events';

export interface EventRow {
  tx: string;
  gp: string;
  stream_id: string;
  stream_version: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

const SELECT_EVENT = `transaction_id::text AS tx, global_position::text AS gp, stream_id,
  stream_version::text AS stream_version, event_id, event_type, data, metadata, created_at`;

/**
 * The query of events after a position ($1, $2) in commit order, up to $3, gap-safe: only those of
 * transactions below the oldest still-running one. ORDER BY names the table's columns (the output
 * has text aliases), so it runs on the commit-order index.
 */
const visibleAfter = (extraColumns = '') => `SELECT ${SELECT_EVENT}${extraColumns} FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY events.transaction_id, events.global_position
  LIMIT $3`;

export interface AppendOptions {
  /** Metadata merged into every event of the append (actor, correlation, causation). */
  metadata: Pick<EventMetadata, 'actor'> & Partial<EventMetadata>;
}

/** The one clock of the process (platform's Clock): events are recorded at its time. */
export interface EventClock {
  now(): Date;
}

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
}

/**
 * One database transaction of the store: lock and read streams, append to several streams, and
 * write other tables (personal data, guards) that must commit or roll back with the events.
 */
export class StoreSession {
  private lastPosition: Position | null = null;
  /**
   * Streams this transaction holds the lock of (an advisory lock on the stream id, migration 012):
   * every writer that moves an existing stream's version takes it first, so their versions cannot
   * move under this transaction.
   */
  private readonly locked = new Set<string>();

  constructor(
    readonly client: pg.PoolClient,
    readonly store: EventStore,
  ) {}

  /**
   * Locks the stream (existing or not) so writers to it queue instead of retrying, and answers its
   * version after the lock was granted (null when it does not exist).
   */
  async lockStream(streamId: string): Promise<number | null> {
    const r = await this.client.query<{ version: string | null }>({
      name: 'rr_lock_stream',
      text: 'SELECT rr_lock_stream($1)::text AS version',
      values: [streamId],
    });
    this.locked.add(streamId);
    const version = r.rows[0]?.version;
    return version == null ? null : Number(version);
  }

  readStream(streamId: string): Promise<{ version: number; events: RecordedEvent[] }> {
    return this.store.readStream(streamId, this.client);
  }

  /**
   * Locks several streams, in byte order (so writers that lock overlapping sets queue and
   * never deadlock), and reads their events, in one round trip: a database function whose read
   * takes a new snapshot after the locks are granted, so it sees what the writers it waited for
   * committed. A stream without events answers an empty list.
   * With `after`, a stream's events up to that version are left out (the caller has them folded).
   * With `first`, that stream is locked before the others (a cart before its slots, the order of
   * every cart command).
   */
  async lockAndReadStreams(
    streamIds: Iterable<string>,
    after: ReadonlyMap<string, number> = new Map(),
    first?: string,
  ): Promise<Map<string, RecordedEvent[]>> {
    const rest = [...new Set(streamIds)].filter((id) => id !== first).sort(byteOrder);
    const ids = first === undefined ? rest : [first, ...rest];
    const r = await this.client.query<EventRow>({
      name: 'rr_lock_read_streams',
      text: 'SELECT * FROM rr_lock_read_streams($1::text[], $2::bigint[])',
      values: [ids, ids.map((id) => String(after.get(id) ?? 0))],
    });
    for (const id of ids) this.locked.add(id);
    return this.store.groupByStream(ids, r.rows);
  }

  /**
   * Appends to several streams atomically. When every stream is new or locked by this session,
   * the version checks, the stream rows and the events go to the database in one statement;
   * otherwise each stream's version is claimed first, in a fixed order.
   */
  async append(requests: AppendRequest[], options: AppendOptions): Promise<AppendResult> {
    const expectedOf = (req: AppendRequest): ExpectedVersion =>
      req.expectedVersion === 0 ? 'no_stream' : req.expectedVersion;
    const oneStatement = requests.every((req) => {
      const expected = expectedOf(req);
      return (
        req.events.length > 0 &&
        (expected === 'no_stream' ||
          (typeof expected === 'number' && this.locked.has(req.streamId)))
      );
    });
    const streams: { streamId: string; version: number }[] = [];
    const startVersions = new Map<string, number>();
    if (oneStatement) {
      for (const req of requests) {
        const expected = expectedOf(req);
        const from = expected === 'no_stream' ? 0 : (expected as number);
        startVersions.set(req.streamId, from);
        streams.push({ streamId: req.streamId, version: from + req.events.length });
      }
    } else {
      const ordered = [...requests].sort((a, b) => byteOrder(a.streamId, b.streamId));
      // Version checks first, in a fixed order, so concurrent multi-stream appends cannot deadlock.
      for (const req of ordered) {
        const from = await this.claimVersions(req);
        startVersions.set(req.streamId, from);
        streams.push({ streamId: req.streamId, version: from + req.events.length });
      }
    }
    const cols = {
      stream: [] as string[],
      version: [] as string[],
      id: [] as string[],
      type: [] as string[],
      data: [] as string[],
      meta: [] as string[],
    };
    const correlationId = options.metadata.correlationId ?? randomUUID();
    for (const req of requests) {
      let v = startVersions.get(req.streamId) ?? 0;
      for (const e of req.events) {
        const checked = this.store.validate(e);
        v += 1;
        const metadata: EventMetadata = {
          correlationId,
          causationId: options.metadata.causationId ?? null,
          actor: options.metadata.actor,
          schemaVersion: checked.schemaVersion,
          ...e.metadata,
        };
        cols.stream.push(req.streamId);
        cols.version.push(String(v));
        cols.id.push(e.eventId ?? randomUUID());
        cols.type.push(e.type);
        cols.data.push(JSON.stringify(checked.data));
        cols.meta.push(JSON.stringify(metadata));
      }
    }
    if (cols.id.length === 0) return { position: this.lastPosition ?? START, streams };
    const eventColumns = [cols.stream, cols.version, cols.id, cols.type, cols.data, cols.meta];
    const recordedAt = this.store.clock.now();
    let rows: { tx: string; gp: string }[];
    if (oneStatement) {
      // Locked streams move from their expected version, new ones are inserted; the events are
      // written only when every stream was claimed (a stream row inserted in the same statement
      // satisfies the events' foreign key, which is checked at the end of the statement).
      const r = await this.client.query<{
        tx: string | null;
        gp: string | null;
        claimed: string | null;
      }>({
        name: 'rr_append_claimed',
        text: `WITH v AS (
           SELECT * FROM unnest($7::text[], $8::text[], $9::bigint[], $10::bigint[])
             AS v(stream_id, stream_type, expected, n)
         ),
         upd AS (
           UPDATE streams s SET version = s.version + v.n FROM v
            WHERE v.expected > 0 AND s.stream_id = v.stream_id AND s.version = v.expected
           RETURNING s.stream_id
         ),
         ins AS (
           INSERT INTO streams (stream_id, stream_type, version)
           SELECT stream_id, stream_type, n FROM v WHERE expected = 0 ORDER BY stream_id COLLATE "C"
           ON CONFLICT (stream_id) DO NOTHING
           RETURNING stream_id
         ),
         claimed AS (SELECT stream_id FROM upd UNION ALL SELECT stream_id FROM ins),
         ev AS (
           INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
           SELECT u.*, $12::timestamptz
             FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) AS u
            WHERE (SELECT count(*) FROM claimed) = $11
           RETURNING transaction_id::text AS tx, global_position::text AS gp
         )
         SELECT tx, gp, NULL AS claimed FROM ev
         UNION ALL SELECT NULL, NULL, stream_id FROM claimed`,
        values: [
          ...eventColumns,
          requests.map((r) => r.streamId),
          requests.map((r) => r.streamType),
          requests.map((r) => String(startVersions.get(r.streamId) ?? 0)),
          requests.map((r) => String(r.events.length)),
          requests.length,
          recordedAt,
        ],
      });
      const claimed = new Set(r.rows.map((row) => row.claimed).filter((c) => c !== null));
      const missed = requests.find((req) => !claimed.has(req.streamId));
      if (missed) {
        const actual = await this.client.query<{ version: string }>(
          'SELECT version::text AS version FROM streams WHERE stream_id = $1',
          [missed.streamId],
        );
        throw new ConcurrencyError(
          missed.streamId,
          missed.expectedVersion,
          actual.rows[0] ? Number(actual.rows[0].version) : null,
        );
      }
      rows = r.rows.filter(
        (row): row is { tx: string; gp: string; claimed: null } => row.tx !== null,
      );
    } else {
      const r = await this.client.query<{ tx: string; gp: string }>(
        `INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
         SELECT u.*, $7::timestamptz
           FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) AS u
         RETURNING transaction_id::text AS tx, global_position::text AS gp`,
        [...eventColumns, recordedAt],
      );
      rows = r.rows;
    }
    // Subscribers are woken by the statement trigger on events (migration 010), at commit.
    for (const row of rows) {
      const p = { tx: BigInt(row.tx), gp: BigInt(row.gp) };
      if (!this.lastPosition || comparePositions(p, this.lastPosition) > 0) this.lastPosition = p;
    }
    return { position: this.lastPosition ?? START, streams };
  }

  get position(): Position | null {
    return this.lastPosition;
  }

  /** Checks the expected version and moves the stream's version forward; returns the old one. */
  private async claimVersions(req: AppendRequest): Promise<number> {
    const n = req.events.length;
    const expected: ExpectedVersion = req.expectedVersion === 0 ? 'no_stream' : req.expectedVersion;
    const current = async () => {
      const r = await this.client.query<{ version: string }>(
        'SELECT version::text AS version FROM streams WHERE stream_id = $1',
        [req.streamId],
      );
      return r.rows[0] ? Number(r.rows[0].version) : null;
    };
    if (n === 0) {
      const actual = await this.lockStream(req.streamId);
      const ok =
        expected === 'any' ||
        (expected === 'no_stream' && actual === null) ||
        (expected === 'stream_exists' && actual !== null) ||
        expected === actual;
      if (!ok) throw new ConcurrencyError(req.streamId, req.expectedVersion, actual);
      return actual ?? 0;
    }
    if (expected === 'no_stream') {
      const r = await this.client.query(
        `INSERT INTO streams (stream_id, stream_type, version) VALUES ($1, $2, $3)
         ON CONFLICT (stream_id) DO NOTHING RETURNING version`,
        [req.streamId, req.streamType, n],
      );
      if (r.rowCount === 0)
        throw new ConcurrencyError(req.streamId, req.expectedVersion, await current());
      return 0;
    }
    // Moving an existing stream's version: queue behind whoever holds the stream's lock.
    if (!this.locked.has(req.streamId)) await this.lockStream(req.streamId);
    if (expected === 'any') {
      const r = await this.client.query<{ version: string }>(
        `INSERT INTO streams (stream_id, stream_type, version) VALUES ($1, $2, $3)
         ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + EXCLUDED.version
         RETURNING version::text AS version`,
        [req.streamId, req.streamType, n],
      );
      return Number(r.rows[0]!.version) - n;
    }
    const r =
      expected === 'stream_exists'
        ? await this.client.query<{ version: string }>(
            `UPDATE streams SET version = version + $2 WHERE stream_id = $1 RETURNING version::text AS version`,
            [req.streamId, n],
          )
        : await this.client.query<{ version: string }>(
            `UPDATE streams SET version = version + $2 WHERE stream_id = $1 AND version = $3
             RETURNING version::text AS version`,
            [req.streamId, n, expected],
          );
    if (r.rowCount === 0)
      throw new ConcurrencyError(req.streamId, req.expectedVersion, await current());
    return Number(r.rows[0]!.version) - n;
  }
}

/** Stream ids compared by their bytes (they are ASCII), the order of `COLLATE "C"`. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class EventStore {
  private readonly upcasters: Upcasters;
  private readonly validator: EventStoreOptions['validate'];
  readonly clock: EventClock;

  constructor(
    readonly pool: pg.Pool,
    options: EventStoreOptions = {},
  ) {
    this.upcasters = options.upcasters ?? new Upcasters();
    this.validator = options.validate;
    this.clock = options.clock ?? machineClock;
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
    try {
      await client.query('BEGIN');
      const session = new StoreSession(client, this);
      const result = await fn(session);
      await client.query('COMMIT');
      return { result, position: session.position };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
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

  /** Rows of several streams (ordered by stream and version) as events per stream id. */
  groupByStream(streamIds: string[], rows: EventRow[]): Map<string, RecordedEvent[]> {
    const byStream = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
    for (const row of rows) byStream.get(row.stream_id)!.push(this.toRecorded(row));
    return byStream;
  }

  /**
   * Reads events after a position in commit order, gap-safe: only events of transactions below
   * the oldest still-running one (pg_snapshot_xmin), so an open transaction holding an earlier
   * global position is never skipped.
   */
  async readAll(
    after: Position,
    limit: number,
    client: Pick<pg.Pool, 'query'> = this.pool,
  ): Promise<RecordedEvent[]> {
    const r = await client.query<EventRow>({
      name: 'rr_read_all',
      text: visibleAfter(),
      values: [after.tx.toString(), after.gp.toString(), limit],
    });
    return r.rows.map((row) => this.toRecorded(row));
  }

  /**
   * readAll, and in the same round trip whether events after the position are held back (written
   * by transactions at or above the oldest still-running one): a subscriber that has caught up
   * then knows whether to look again soon (such a blocker may end without any notification) or to
   * wait to be woken.
   */
  async readAfter(
    after: Position,
    limit: number,
    client: Pick<pg.Pool, 'query'> = this.pool,
  ): Promise<{ events: RecordedEvent[]; heldBack: boolean }> {
    const r = await client.query<EventRow & { held: boolean }>({
      name: 'rr_read_after',
      // Both branches run on the commit-order index and see the same snapshot, hence the same xmin.
      text: `(${visibleAfter(', false AS held')})
             UNION ALL
             (SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, true FROM events
               WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
                 AND transaction_id >= pg_snapshot_xmin(pg_current_snapshot())
               ORDER BY events.transaction_id, events.global_position
               LIMIT 1)`,
      values: [after.tx.toString(), after.gp.toString(), limit],
    });
    const events: RecordedEvent[] = [];
    let heldBack = false;
    for (const row of r.rows) {
      if (row.held) heldBack = true;
      else events.push(this.toRecorded(row));
    }
    return { events, heldBack };
  }

  private toRecorded(row: EventRow): RecordedEvent {
    const version = row.metadata.schemaVersion ?? 1;
    const up = this.upcasters.upcast(row.event_type, version, row.data);
    return {
      type: row.event_type,
      data: up.data,
      eventId: row.event_id,
      streamId: row.stream_id,
      streamVersion: Number(row.stream_version),
      position: { tx: BigInt(row.tx), gp: BigInt(row.gp) },
      metadata: { ...row.metadata, schemaVersion: up.version },
      createdAt: row.created_at,
    };
  }
}
