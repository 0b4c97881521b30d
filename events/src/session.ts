import type pg from 'pg';
import { comparePositions, START, type Position } from './position.ts';
import type { EventRow } from './rows.ts';
import { lockCall, type GroupLocks } from './group-locks.ts';
import type { NamedStatement } from './types.ts';
import {
  claimedAppend,
  claimedAppendValues,
  concurrencyErrorOf,
  eventColumnsFor,
  eventColumnsOf,
} from './append-statement.ts';
import {
  ConcurrencyError,
  LockBusy,
  type AppendRequest,
  type AppendResult,
  type EventClock,
  type EventMetadata,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
} from './types.ts';

export interface AppendOptions {
  /** Metadata merged into every event of the append (actor, correlation, causation). */
  metadata: Pick<EventMetadata, 'actor'> & Partial<EventMetadata>;
}

/**
 * What a session asks of the store it belongs to (the EventStore): its reads, its clock and its
 * catalogue's validation. The store's identity also keys the caches of folded states.
 */
export interface SessionStore {
  readonly clock: EventClock;
  readStream(
    streamId: string,
    client: Pick<pg.Pool, 'query'>,
  ): Promise<{ version: number; events: RecordedEvent[] }>;
  groupByStream(streamIds: string[], rows: EventRow[]): Map<string, RecordedEvent[]>;
  validate(event: NewEvent): { data: unknown; schemaVersion: number };
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

  /**
   * Statements sent without waiting for their answers (a pipelined connection: the answers come
   * back in the order sent), each settled here, awaited by the commit. A failed one aborts the
   * transaction, so the statements behind it fail too and the commit rolls back; the first
   * failure is the cause the transaction reports.
   */
  private readonly inFlight: Promise<void>[] = [];
  private sent = 0;
  /** The failure of the earliest statement that failed, by the order sent. */
  private failure: { err: unknown; at: number } | null = null;
  private readonly pipelined: boolean;

  constructor(
    readonly client: pg.PoolClient,
    readonly store: SessionStore,
    /** When this session is a member of a commit group: the group's locks. */
    private readonly group?: GroupLocks,
  ) {
    // The driver's flag (pg.Client#pipeline, platform's createPool); its pool client type does not declare it.
    this.pipelined = Reflect.get(client, 'pipeline') === true;
  }

  /**
   * Sends a statement whose answer nothing in the transaction reads (a write): on a pipelined
   * connection it is on its way at once and the next statement follows it in the same round
   * trip; its failure surfaces at the latest at the commit. Otherwise it is awaited here.
   * A statement every command may send goes with a name (`{ name, text }`): the connection
   * parses and plans it once and keeps it (a prepared statement of the driver).
   */
  send(statement: string | NamedStatement, values?: unknown[]): Promise<void> {
    return this.dispatch(
      this.client.query(
        typeof statement === 'string' ? { text: statement, values } : { ...statement, values },
      ),
    );
  }

  private async dispatch(answer: Promise<unknown>): Promise<void> {
    if (!this.pipelined) {
      await answer;
      return;
    }
    const at = this.sent++;
    this.inFlight.push(
      answer.then(
        () => undefined,
        (err: unknown) => {
          if (!this.failure || at < this.failure.at) this.failure = { err, at };
        },
      ),
    );
  }

  /** Whether statements go out before the answers of earlier ones came (see send). */
  get isPipelined(): boolean {
    return this.pipelined;
  }

  /** Waits for every statement sent; answers the first failure among them (null: none). */
  async settled(): Promise<{ err: unknown } | null> {
    while (this.inFlight.length) await Promise.all(this.inFlight.splice(0));
    return this.failure;
  }

  /** Opens the transaction: on a pipelined connection together with its first statement. */
  begin(): Promise<void> {
    return this.send('BEGIN');
  }

  /** Commits, in the round trip of the writes still on their way; throws the first failure. */
  async commit(): Promise<void> {
    await this.send('COMMIT');
    const failed = await this.settled();
    if (failed) throw failed.err;
  }

  /**
   * Locks the stream (existing or not) so writers to it queue instead of retrying, and answers its
   * version after the lock was granted (null when it does not exist).
   */
  async lockStream(streamId: string): Promise<number | null> {
    const r = await this.client.query<{ version: string | null }>(
      lockCall(this.claim([streamId]), 'lock_stream', (fn) => `SELECT ${fn}($1)::text AS version`, [
        streamId,
      ]),
    );
    const version = r.rows[0]?.version;
    if (version === '-1') throw new LockBusy(streamId);
    this.locked.add(streamId);
    return version == null ? null : Number(version);
  }

  /**
   * Takes over the stream locks another session on the same connection holds (a commit group's
   * members' ones, for the group's append): the connection holds them, so this session's append
   * to them is the one statement of a locked stream.
   */
  holdsLocksOf(other: StoreSession): void {
    if (other.client !== this.client) throw new Error('locks belong to a connection');
    for (const id of other.locked) this.locked.add(id);
  }

  /** In a commit group, claims the streams (see GroupLocks); answers whether locks are only tried. */
  private claim(streamIds: readonly string[]): boolean {
    return this.group?.claim(this, streamIds) ?? false;
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
    const tryOnly = this.claim(ids);
    const r = await this.client.query<EventRow>(
      lockCall(
        tryOnly,
        'lock_read_streams',
        (fn) => `SELECT * FROM ${fn}($1::text[], $2::bigint[])`,
        [ids, ids.map((id) => String(after.get(id) ?? 0))],
      ),
    );
    // A row without a stream: a lock was held by another transaction (nothing was read).
    if (tryOnly && r.rows.some((row: { stream_id: string | null }) => row.stream_id === null))
      throw new LockBusy(ids.join(' '));
    for (const id of ids) this.locked.add(id);
    return this.store.groupByStream(ids, r.rows);
  }

  /**
   * Appends to several streams atomically. When every stream is new or locked by this session,
   * the version checks, the stream rows and the events go to the database in one statement;
   * otherwise each stream's version is claimed first, in a fixed order.
   */
  async append(requests: AppendRequest[], options: AppendOptions): Promise<AppendResult> {
    const streams: { streamId: string; version: number }[] = [];
    // Decided before any claim: claiming a version locks the stream.
    const oneStatement = this.inOneStatement(requests);
    let startVersions: Map<string, number>;
    if (oneStatement) startVersions = this.claimedVersions(requests);
    else {
      startVersions = new Map();
      // Version checks first, in a fixed order, so concurrent multi-stream appends cannot deadlock.
      for (const req of [...requests].sort((a, b) => byteOrder(a.streamId, b.streamId)))
        startVersions.set(req.streamId, await this.claimVersions(req));
    }
    for (const req of requests)
      streams.push({
        streamId: req.streamId,
        version: startVersions.get(req.streamId)! + req.events.length,
      });
    const columns = eventColumnsFor(this.store, requests, startVersions, options);
    if (columns.id.length === 0) return { position: this.lastPosition ?? START, streams };
    const recordedAt = this.store.clock.now();
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
        text: claimedAppend('(SELECT count(*) FROM claimed) = $11'),
        values: claimedAppendValues(requests, startVersions, columns, recordedAt),
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
      this.learnPositions(r.rows.filter((row) => row.tx !== null));
    } else {
      const r = await this.client.query<{ tx: string; gp: string }>(
        `INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
         SELECT u.*, $7::timestamptz
           FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) AS u
         RETURNING transaction_id::text AS tx, global_position::text AS gp`,
        [...eventColumnsOf(columns), recordedAt],
      );
      this.learnPositions(r.rows);
    }
    // Subscribers are woken by the statement trigger on events (migration 010), at commit.
    return { position: this.lastPosition ?? START, streams };
  }

  /**
   * An append whose answer the command does not wait for (see send): when every stream is new
   * or locked by this session, the one statement of `append` goes out with the statements
   * behind it, and a stream not at its version (a new one another writer created first) fails
   * it in the database, so the commit behind it rolls back (ConcurrencyError, the command runs
   * again). The position is known once the commit has settled. Otherwise as `append`.
   */
  async sendAppend(requests: AppendRequest[], options: AppendOptions): Promise<void> {
    if (!this.inOneStatement(requests)) {
      await this.append(requests, options);
      return;
    }
    const startVersions = this.claimedVersions(requests);
    const columns = eventColumnsFor(this.store, requests, startVersions, options);
    const recordedAt = this.store.clock.now();
    const answer = this.client
      .query<{ tx: string | null; gp: string | null }>({
        name: 'rr_append_required',
        // Short of the count, the function raises; it answers true when every stream is claimed.
        text: claimedAppend(
          '(SELECT count(*) FROM claimed) = $11 OR rr_require_claimed(ARRAY(SELECT stream_id FROM claimed), $7::text[])',
        ),
        values: claimedAppendValues(requests, startVersions, columns, recordedAt),
      })
      .then(
        (r) => this.learnPositions(r.rows.filter((row) => row.tx !== null)),
        (err: unknown) => {
          throw concurrencyErrorOf(err, requests) ?? err;
        },
      );
    await this.dispatch(answer);
  }

  private inOneStatement(requests: AppendRequest[]): boolean {
    return requests.every((req) => {
      const expected = expectedOf(req);
      return (
        req.events.length > 0 &&
        (expected === 'no_stream' ||
          (typeof expected === 'number' && this.locked.has(req.streamId)))
      );
    });
  }

  /** The versions the streams of a one-statement append move from (new streams from 0). */
  private claimedVersions(requests: AppendRequest[]): Map<string, number> {
    return new Map(
      requests.map((req) => {
        const expected = expectedOf(req);
        return [req.streamId, expected === 'no_stream' ? 0 : (expected as number)];
      }),
    );
  }

  private learnPositions(rows: { tx: string | null; gp: string | null }[]): void {
    for (const row of rows) {
      if (row.tx === null || row.gp === null) continue;
      const p = { tx: BigInt(row.tx), gp: BigInt(row.gp) };
      if (!this.lastPosition || comparePositions(p, this.lastPosition) > 0) this.lastPosition = p;
    }
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

const expectedOf = (req: AppendRequest): ExpectedVersion =>
  req.expectedVersion === 0 ? 'no_stream' : req.expectedVersion;

/** Stream ids compared by their bytes (they are ASCII), the order of `COLLATE "C"`. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
