import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { comparePositions, START, type Position } from './position.ts';
import type { EventRow } from './rows.ts';
import type { EventStore } from './store.ts';
import {
  ConcurrencyError,
  type AppendRequest,
  type AppendResult,
  type EventMetadata,
  type ExpectedVersion,
  type RecordedEvent,
} from './types.ts';

export interface AppendOptions {
  /** Metadata merged into every event of the append (actor, correlation, causation). */
  metadata: Pick<EventMetadata, 'actor'> & Partial<EventMetadata>;
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
