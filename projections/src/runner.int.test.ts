// The projection runner's contract (two runners, compare-and-set checkpoints, groups). The
// projector killed mid-batch is a fault test of its own (runner.faults.test.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  comparePositions,
  EventNotifier,
  EventStore,
  RoomCreated,
  RoomUpdated,
  roomStreamId,
  START,
  validateEvent,
  type AppendOptions,
  type RecordedEvent,
  type Projection,
} from '@rr/events';
import { createLogger, createPool, inTransaction, type PoolClient } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { mailOutboxReactor, readModelProjections } from './index.ts';
import {
  applyBatch,
  applyGroupBatch,
  CheckpointMovedError,
  ensureCheckpoint,
  readCheckpoint,
} from './checkpoints.ts';
import { ProjectionRunner } from './runner.ts';
import { READ_PAST_ATTEMPT_MS, readVisible } from '../../tests/support/visible.ts';
import { newRoom, roomDetails } from '../../tests/support/room-events.ts';
import { budget } from '../../tests/support/time-budget.ts';
import { holdsWithin, sleep, waitFor, withAppName } from '../../tests/support/wait-for.ts';

const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'runner-test' } } };

/** Tells `seen` of every read of the log `store` makes (its arguments and what it read). */
function observeReads(
  store: EventStore,
  seen: (
    args: Parameters<EventStore['readAfter']>,
    read: Awaited<ReturnType<EventStore['readAfter']>>,
  ) => void,
): void {
  const readAfter = store.readAfter.bind(store);
  vi.spyOn(store, 'readAfter').mockImplementation(async (...args) => {
    const read = await readAfter(...args);
    seen(args, read);
    return read;
  });
}

/** A projection that records which runner applied which event; duplicates would show. */
function loggingProjection(name: string, table: string, runner: string): Projection {
  return {
    name,
    tables: [table],
    handles: new Set(['RoomCreated']),
    async apply(client, event) {
      await client.query(
        `INSERT INTO ${table} (tx, gp, event_id, runner) VALUES ($1::text::xid8, $2, $3, $4)`,
        [event.position.tx.toString(), event.position.gp.toString(), event.eventId, runner],
      );
    },
  };
}

const roomCreated = (roomId: string, name: string) =>
  RoomCreated.create({
    roomId,
    name,
    description: '',
    capacity: 1,
    openStart: { type: 'DAY', value: 1 },
    openEnd: { type: 'DAY', value: 1 },
  });

/** `n` rooms, each created in a transaction of its own; answers the events' ids. */
async function appendRooms(store: EventStore, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const roomId = randomUUID();
    const eventId = randomUUID();
    ids.push(eventId);
    await store.appendToStream(
      roomStreamId(roomId),
      'room',
      'no_stream',
      [{ ...roomCreated(roomId, `r${i}`), eventId }],
      options,
    );
  }
  return ids;
}

describe('two runners for one projection', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(
      'CREATE TABLE handover_log (n bigserial PRIMARY KEY, tx xid8 NOT NULL, gp bigint NOT NULL, event_id uuid NOT NULL, runner text NOT NULL)',
    );
  });

  afterAll(async () => {
    await db.drop();
  });

  function makeRunner(label: string) {
    const appName = `rr-test-runner-${label}`;
    const url = withAppName(db.url, appName);
    const pool = createPool(url, 5);
    const notifier = new EventNotifier(url);
    const store = new EventStore(pool, { validate: validateEvent });
    const runner = new ProjectionRunner(
      { pool, store, notifier, logger: createLogger('silent'), batchSize: 7 },
      [loggingProjection('handover', 'handover_log', label)],
    );
    return {
      appName,
      start: async () => {
        await notifier.start();
        runner.start();
      },
      stop: async () => {
        await runner.stop();
        await notifier.stop();
        await pool.end();
      },
    };
  }

  async function lockHolders(): Promise<string[]> {
    const r = await db.pool.query<{ application_name: string }>(
      `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()
          AND l.objid::bigint = (hashtext('projection:handover')::bigint & 4294967295)`,
    );
    return r.rows.map((row) => row.application_name);
  }

  async function log(): Promise<{ event_id: string; runner: string }[]> {
    return (
      await db.pool.query<{ event_id: string; runner: string }>(
        'SELECT event_id, runner FROM handover_log ORDER BY n',
      )
    ).rows;
  }

  it(
    'only one is active; when it stops, the other takes over where it left off',
    { timeout: budget(60_000) },
    async () => {
      const a = makeRunner('a');
      const b = makeRunner('b');
      let bStopped = false;
      try {
        const batch1 = await appendRooms(db.store, 20);
        await a.start();
        await waitFor(
          'runner a to take the lock',
          async () => (await lockHolders()).includes(a.appName),
          10_000,
        );
        await waitFor(
          'runner a to apply the first events',
          async () => (await log()).length === 20,
          10_000,
        );

        await b.start();
        await sleep(2500); // b is up, retrying the lock every second
        const batch2 = await appendRooms(db.store, 20);
        await waitFor(
          'runner a to apply the next events',
          async () => (await log()).length === 40,
          10_000,
        );
        await sleep(500);
        expect(await lockHolders()).toEqual([a.appName]);
        let rows = await log();
        expect(rows.map((r) => r.runner)).toEqual(Array(40).fill('a'));
        expect(rows.map((r) => r.event_id)).toEqual([...batch1, ...batch2]);

        await a.stop();
        await waitFor(
          'runner b to take over the lock',
          async () => (await lockHolders()).includes(b.appName),
          10_000,
        );
        expect(await lockHolders()).toEqual([b.appName]);
        const batch3 = await appendRooms(db.store, 20);
        await waitFor(
          'runner b to apply the new events',
          async () => (await log()).length >= 60,
          10_000,
        );
        await sleep(500);

        rows = await log();
        // Every event exactly once, in commit order: b went on from a's checkpoint.
        expect(rows.map((r) => r.event_id)).toEqual([...batch1, ...batch2, ...batch3]);
        expect(rows.slice(40).map((r) => r.runner)).toEqual(Array(20).fill('b'));
        const ordered = await db.pool.query<{ event_id: string }>(
          'SELECT event_id FROM handover_log ORDER BY tx, gp',
        );
        expect(ordered.rows.map((r) => r.event_id)).toEqual(rows.map((r) => r.event_id));
        const last = (await db.store.readAll(START, 1000)).at(-1)!.position;
        expect(await readCheckpoint(db.pool, 'handover')).toEqual(last);

        await b.stop();
        bStopped = true;
        expect(await lockHolders()).toEqual([]);
      } finally {
        await a.stop().catch(() => undefined);
        if (!bStopped) await b.stop().catch(() => undefined);
      }
    },
  );
});

describe('checkpoint compare-and-set', () => {
  let db: TestDatabase;
  let events: RecordedEvent[];
  const projection = loggingProjection('cas', 'cas_log', 'test');

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(
      'CREATE TABLE cas_log (n bigserial PRIMARY KEY, tx xid8 NOT NULL, gp bigint NOT NULL, event_id uuid NOT NULL, runner text NOT NULL)',
    );
    await appendRooms(db.store, 6);
    // Commits of other test files' databases can hold the snapshot xmin back (it is cluster-wide):
    // wait until all six events are visible to the gap-safe read.
    events = await readVisible(db.store, 6);
    expect(events).toHaveLength(6);
    await ensureCheckpoint(db.pool, 'cas');
  });

  afterAll(async () => {
    await db.drop();
  });

  const state = async () => ({
    checkpoint: await readCheckpoint(db.pool, 'cas'),
    log: (await db.pool.query('SELECT tx::text, gp::text, event_id FROM cas_log ORDER BY n')).rows,
  });

  it('applies a batch from the current checkpoint and moves it to the batch end', async () => {
    await inTransaction(db.pool, (c) => applyBatch(c, projection, START, events.slice(0, 3)));
    const s = await state();
    expect(s.checkpoint).toEqual(events[2]!.position);
    expect(s.log.map((r) => (r as { event_id: string }).event_id)).toEqual(
      events.slice(0, 3).map((e) => e.eventId),
    );
  });

  it('a stale `from` (a replay of an applied batch) throws CheckpointMovedError and changes nothing', async () => {
    const before = await state();
    for (const [from, batch] of [
      [START, events.slice(0, 3)],
      [events[0]!.position, events.slice(1, 4)],
      [events[3]!.position, events.slice(4)], // ahead of the checkpoint
    ] as const) {
      const err = await inTransaction(db.pool, (c) =>
        applyBatch(c, projection, from, [...batch]),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CheckpointMovedError);
    }
    expect(await state()).toEqual(before);
  });

  it('two appliers racing from the same checkpoint: exactly one applies', async () => {
    const from = await readCheckpoint(db.pool, 'cas');
    expect(from).toEqual(events[2]!.position);
    const first = await db.pool.connect();
    try {
      await first.query('BEGIN');
      await applyBatch(first, projection, from, events.slice(3));
      // The second one waits on the checkpoint row, then sees that it moved.
      const second = inTransaction(db.pool, (c) =>
        applyBatch(c, projection, from, events.slice(3)),
      ).catch((e: unknown) => e);
      await sleep(200);
      await first.query('COMMIT');
      expect(await second).toBeInstanceOf(CheckpointMovedError);
    } finally {
      await first.query('ROLLBACK').catch(() => undefined);
      first.release();
    }
    const s = await state();
    expect(s.checkpoint).toEqual(events[5]!.position);
    expect(s.log.map((r) => (r as { event_id: string }).event_id)).toEqual(
      events.map((e) => e.eventId),
    );
  });

  it('a projection without a checkpoint row is refused', async () => {
    const other = loggingProjection('cas-missing', 'cas_log', 'test');
    const before = await state();
    const err = await inTransaction(db.pool, (c) =>
      applyBatch(c, other, START, events.slice(0, 1)),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckpointMovedError);
    expect(await state()).toEqual(before);
  });
});

describe('a group of projections in one transaction', () => {
  let db: TestDatabase;
  let events: RecordedEvent[];
  const one = loggingProjection('group-one', 'group_log', 'one');
  const two = loggingProjection('group-two', 'group_log', 'two');

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(
      'CREATE TABLE group_log (n bigserial PRIMARY KEY, tx xid8 NOT NULL, gp bigint NOT NULL, event_id uuid NOT NULL, runner text NOT NULL)',
    );
    await appendRooms(db.store, 6);
    events = await readVisible(db.store, 6);
    expect(events).toHaveLength(6);
    await ensureCheckpoint(db.pool, 'group-one');
    await ensureCheckpoint(db.pool, 'group-two');
  });

  afterAll(async () => {
    await db.drop();
  });

  const logOf = async (runner: string) =>
    (
      await db.pool.query<{ event_id: string }>(
        'SELECT event_id FROM group_log WHERE runner = $1 ORDER BY n',
        [runner],
      )
    ).rows.map((r) => r.event_id);

  it('gives each projection the events after its own checkpoint and never moves one back', async () => {
    // "two" is ahead (as after a rebuild): it has applied the first four events already.
    await inTransaction(db.pool, (c) => applyBatch(c, two, START, events.slice(0, 4)));
    const from = new Map([
      ['group-one', START],
      ['group-two', events[3]!.position],
    ]);
    await inTransaction(db.pool, (c) => applyGroupBatch(c, [one, two], from, events.slice(0, 3)));
    expect(await logOf('one')).toEqual(events.slice(0, 3).map((e) => e.eventId));
    expect(await logOf('two')).toEqual(events.slice(0, 4).map((e) => e.eventId));
    expect(await readCheckpoint(db.pool, 'group-one')).toEqual(events[2]!.position);
    expect(await readCheckpoint(db.pool, 'group-two')).toEqual(events[3]!.position);

    const next = new Map([
      ['group-one', events[2]!.position],
      ['group-two', events[3]!.position],
    ]);
    await inTransaction(db.pool, (c) => applyGroupBatch(c, [one, two], next, events.slice(3)));
    expect(await logOf('one')).toEqual(events.map((e) => e.eventId));
    expect(await logOf('two')).toEqual(events.map((e) => e.eventId));
    expect(await readCheckpoint(db.pool, 'group-one')).toEqual(events[5]!.position);
    expect(await readCheckpoint(db.pool, 'group-two')).toEqual(events[5]!.position);
  });

  it('when one checkpoint moved meanwhile, nothing is applied to any projection of the group', async () => {
    const before = [await logOf('one'), await logOf('two')];
    const stale = new Map([
      ['group-one', events[5]!.position],
      ['group-two', events[2]!.position],
    ]);
    const err = await inTransaction(db.pool, (c) =>
      applyGroupBatch(c, [one, two], stale, events.slice(3)),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckpointMovedError);
    expect([await logOf('one'), await logOf('two')]).toEqual(before);
    expect(await readCheckpoint(db.pool, 'group-two')).toEqual(events[5]!.position);
  });
});

describe('commits of read models made from the log alone', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(
      'CREATE TABLE commit_mode_log (projection text NOT NULL, event_id uuid NOT NULL, synchronous_commit text NOT NULL)',
    );
  });

  afterAll(async () => {
    await db.drop();
  });

  /** Records, for every event, the commit mode of the transaction that applies it. */
  const recording = (name: string, derivedOnly: boolean): Projection => ({
    name,
    tables: ['commit_mode_log'],
    handles: new Set(['RoomCreated']),
    derivedOnly,
    async apply(client, event) {
      await client.query(
        `INSERT INTO commit_mode_log VALUES ($1, $2, current_setting('synchronous_commit'))`,
        [name, event.eventId],
      );
    },
  });

  it('are the read models of the query side, not the mail outbox reactor', () => {
    expect(readModelProjections.filter((p) => !p.derivedOnly).map((p) => p.name)).toEqual([]);
    expect(mailOutboxReactor.derivedOnly).toBeFalsy();
  });

  it('do not wait for the WAL flush; other groups (mail) do', async () => {
    const notifier = new EventNotifier(db.url);
    await notifier.start();
    const runner = new ProjectionRunner(
      { pool: db.pool, store: db.store, notifier, logger: createLogger('silent') },
      [recording('derived', true), recording('effects', false)],
    );
    runner.start();
    try {
      await appendRooms(db.store, 5);
      const modes = async () =>
        (
          await db.pool.query<{ projection: string; synchronous_commit: string }>(
            'SELECT projection, synchronous_commit FROM commit_mode_log ORDER BY projection',
          )
        ).rows;
      await waitFor(
        'both groups to apply the events',
        async () => (await modes()).length === 10,
        10_000,
      );
      const rows = await modes();
      expect(
        rows.filter((r) => r.projection === 'derived').map((r) => r.synchronous_commit),
      ).toEqual(Array(5).fill('off'));
      expect(
        rows.filter((r) => r.projection === 'effects').map((r) => r.synchronous_commit),
      ).toEqual(Array(5).fill('on'));
    } finally {
      await runner.stop();
      await notifier.stop();
    }
  });
});

describe('a group nobody waits for (quiet checkpoints)', () => {
  /** A projection of rooms that notes the size of each batch it applies (one per transaction). */
  const counting = (name: string, into: number[]) => ({
    name,
    tables: [],
    handles: new Set(['RoomCreated']),
    apply: () => Promise.resolve(),
    applyBatch: (_client: unknown, events: unknown[]) => {
      into.push(events.length);
      return Promise.resolve();
    },
  });

  it('takes at most its own batch size into one transaction, while the read models take theirs', async () => {
    const db = await createTestDatabase();
    const pool = createPool(db.url, 3);
    const notifier = new EventNotifier(db.url);
    const store = new EventStore(pool, { validate: validateEvent });
    const batches = { quiet: [] as number[], waited: [] as number[] };
    // A backlog, as an outbox has after a rush: both groups start behind it.
    await appendRooms(db.store, 40);
    // The read models' batches are compared with the quiet ones: all forty must be readable at
    // once (other test files' transactions can hold the cluster-wide snapshot xmin back).
    expect(await readVisible(db.store, 40)).toHaveLength(40);
    const runner = new ProjectionRunner(
      { pool, store, notifier, logger: createLogger('silent'), quietBatchSize: 3 },
      [
        { ...counting('quiet-batches', batches.quiet), quietCheckpoint: true },
        counting('waited-batches', batches.waited),
      ],
    );
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    try {
      await notifier.start();
      runner.start();
      await waitFor(
        'both groups through the backlog',
        () => sum(batches.quiet) >= 40 && sum(batches.waited) >= 40,
        budget(20_000),
      );
      expect(Math.max(...batches.quiet)).toBeLessThanOrEqual(3);
      expect(batches.quiet.length).toBeGreaterThanOrEqual(Math.ceil(40 / 3));
      expect(Math.max(...batches.waited)).toBeGreaterThan(3);
    } finally {
      await runner.stop();
      await notifier.stop();
      await pool.end();
      await db.drop();
    }
  });

  it('an open outbox transaction does not hold the read models back: it appends no events', async () => {
    const db = await createTestDatabase();
    const pool = createPool(db.url, 4);
    const notifier = new EventNotifier(db.url);
    const store = new EventStore(pool, { validate: validateEvent });
    const applied: string[] = [];
    // An outbox that writes its rows and then stays in its transaction (a slow one catching up),
    // each batch until the test lets it go.
    let holding = false;
    let gate: (() => void) | null = null;
    const letGo = () => {
      holding = false;
      gate?.();
      gate = null;
    };
    const outbox = {
      name: 'slow-outbox',
      tables: [],
      quietCheckpoint: true,
      handles: new Set(['RoomCreated']),
      apply: () => Promise.resolve(),
      applyBatch: async (client: PoolClient) => {
        await client.query('SELECT pg_current_xact_id()');
        await new Promise<void>((resolve) => {
          gate = resolve;
          holding = true;
        });
      },
    };
    const readModel = {
      name: 'rooms-seen',
      tables: [],
      handles: new Set(['RoomCreated']),
      apply: (_client: PoolClient, event: RecordedEvent) => {
        applied.push(event.eventId);
        return Promise.resolve();
      },
    };
    const runner = new ProjectionRunner({ pool, store, notifier, logger: createLogger('silent') }, [
      outbox,
      readModel,
    ]);
    const appended: string[] = [];
    try {
      await notifier.start();
      runner.start();
      appended.push(...(await appendRooms(db.store, 1)));
      // Each attempt: while the outbox holds its transaction, an event committed after it began
      // reaches the read model. An attempt held back (by another test file's transaction, see
      // READ_PAST_ATTEMPT_MS) lets the outbox go, and the next holds its next batch.
      const deadline = Date.now() + budget(20_000);
      let readPast = false;
      while (!readPast && Date.now() < deadline) {
        await waitFor('the outbox in its transaction', () => holding, budget(20_000));
        const [later] = await appendRooms(db.store, 1);
        appended.push(later!);
        // The outbox's transaction stays open until letGo, whatever the read model does.
        readPast = await holdsWithin(() => applied.includes(later!), READ_PAST_ATTEMPT_MS);
        letGo();
      }
      expect(readPast).toBe(true);
      // In commit order, none skipped.
      expect(applied).toEqual(appended);
    } finally {
      letGo();
      await runner.stop();
      await notifier.stop();
      await pool.end();
      await db.drop();
    }
  });

  it('reads the log in pages of the batch size, and applies a page in transactions of its own size', async () => {
    const db = await createTestDatabase();
    const pool = createPool(db.url, 3);
    const notifier = new EventNotifier(db.url);
    const store = new EventStore(pool, { validate: validateEvent });
    const reads: number[] = [];
    observeReads(store, (_args, read) => reads.push(read.events.length));
    const transactions: number[] = [];
    const reactor = { ...counting('paged-outbox', transactions), quietCheckpoint: true };
    await appendRooms(db.store, 40);
    expect(await readVisible(db.store, 40)).toHaveLength(40);
    const runner = new ProjectionRunner(
      { pool, store, notifier, logger: createLogger('silent'), quietBatchSize: 3, batchSize: 500 },
      [reactor],
    );
    try {
      await notifier.start();
      runner.start();
      await waitFor(
        'the outbox through the backlog',
        () => transactions.reduce((a, b) => a + b, 0) >= 40,
        budget(20_000),
      );
      // One read took the whole backlog (a read costs the database about what applying a few
      // events does); the transactions still took three events at most.
      expect(reads.filter((n) => n > 0)).toEqual([40]);
      expect(Math.max(...transactions)).toBeLessThanOrEqual(3);
      expect(transactions.length).toBeGreaterThanOrEqual(Math.ceil(40 / 3));
    } finally {
      await runner.stop();
      await notifier.stop();
      await pool.end();
      await db.drop();
    }
  });

  it('sends an outbox only the events it handles and the last of each read; the read models all', async () => {
    const db = await createTestDatabase();
    const pool = createPool(db.url, 3);
    const notifier = new EventNotifier(db.url);
    const store = new EventStore(pool, { validate: validateEvent });
    const reads: { ofTypes: boolean; types: string[] }[] = [];
    observeReads(store, (args, read) =>
      reads.push({ ofTypes: args[4] !== undefined, types: read.events.map((e) => e.type) }),
    );
    // Forty rooms, every fourth of them updated: the outbox handles the ten updates alone.
    for (let i = 0; i < 40; i++) {
      const { streamId, created } = newRoom();
      await db.store.appendToStream(streamId, 'room', 'no_stream', [created], options);
      if (i % 4 === 0)
        await db.store.appendToStream(
          streamId,
          'room',
          1,
          [RoomUpdated.create(roomDetails(streamId.slice('room-'.length), 'Updated'))],
          options,
        );
    }
    expect(await readVisible(db.store, 50)).toHaveLength(50);
    const updates: number[] = [];
    const created: number[] = [];
    const outbox = {
      ...counting('updates-outbox', updates),
      handles: new Set(['RoomUpdated']),
      quietCheckpoint: true,
    };
    const runner = new ProjectionRunner(
      { pool, store, notifier, logger: createLogger('silent'), batchSize: 7 },
      [counting('rooms-read-model', created), outbox],
    );
    try {
      await notifier.start();
      runner.start();
      const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
      await waitFor(
        'both groups through the log',
        () => sum(updates) >= 10 && sum(created) >= 40,
        budget(20_000),
      );
      expect([sum(updates), sum(created)]).toEqual([10, 40]);
      const outboxReads = reads.filter((r) => r.ofTypes);
      expect(outboxReads.length).toBeGreaterThan(0);
      for (const read of outboxReads)
        expect(read.types.slice(0, -1).filter((t) => t !== 'RoomUpdated')).toEqual([]);
      expect(outboxReads.flatMap((r) => r.types).length).toBeLessThan(50);
      expect(reads.filter((r) => !r.ofTypes).flatMap((r) => r.types)).toHaveLength(50);
    } finally {
      await runner.stop();
      await notifier.stop();
      await pool.end();
      await db.drop();
    }
  });

  it('sizes its transactions by the time they take: slow events, fewer per transaction, a transaction of the log never split', async () => {
    const db = await createTestDatabase();
    const pool = createPool(db.url, 3);
    const notifier = new EventNotifier(db.url);
    const store = new EventStore(pool, { validate: validateEvent });
    const MS_PER_EVENT = 8;
    const transactions: { events: number; xid: string }[] = [];
    // Each event costs 8 ms (an outbox on a slow machine); 20 ms fit two of them.
    const slow = {
      name: 'slow-outbox',
      tables: [],
      quietCheckpoint: true,
      handles: new Set(['RoomCreated']),
      apply: () => Promise.resolve(),
      applyBatch: async (client: PoolClient, events: unknown[]) => {
        const r = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
        await new Promise((resolve) => setTimeout(resolve, MS_PER_EVENT * events.length));
        transactions.push({ events: events.length, xid: r.rows[0]!.xid });
      },
    };
    await appendRooms(db.store, 40);
    // Other test files' transactions can hold the cluster-wide snapshot xmin back: the first read
    // must see all forty, or it would take fewer than the batch size for want of events.
    expect(await readVisible(db.store, 40)).toHaveLength(40);
    const runner = new ProjectionRunner(
      {
        pool,
        store,
        notifier,
        logger: createLogger('silent'),
        quietBatchSize: 25,
        quietTransactionMs: 20,
      },
      [slow],
    );
    try {
      await notifier.start();
      runner.start();
      await waitFor(
        'the outbox through the backlog',
        () => transactions.reduce((a, t) => a + t.events, 0) >= 40,
        budget(20_000),
      );
      // The first transaction takes the batch size (nothing measured yet); each after it, what
      // the time per event measured fits in 20 ms. Each in a transaction of its own.
      expect(transactions[0]!.events).toBe(25);
      expect(Math.max(...transactions.slice(1).map((t) => t.events))).toBeLessThanOrEqual(2);
      expect(new Set(transactions.map((t) => t.xid)).size).toBe(transactions.length);
      // A transaction of the log is never split, however few events the pace allows: six events
      // written at once come in one transaction (an outbox's one mail for one request).
      const roomId = randomUUID();
      await db.store.appendToStream(
        roomStreamId(roomId),
        'room',
        'no_stream',
        Array.from({ length: 6 }, (_, i) => roomCreated(roomId, `together ${i}`)),
        options,
      );
      await waitFor(
        'the outbox through the six',
        () => transactions.reduce((a, t) => a + t.events, 0) >= 46,
        budget(20_000),
      );
      expect(transactions.at(-1)!.events).toBe(6);
      // And the checkpoint stands after the last event, written once per transaction.
      const last = await db.store.readAfter(START, 1000);
      const checkpoint = await readCheckpoint(pool, 'slow-outbox');
      expect(comparePositions(checkpoint, last.events[last.events.length - 1]!.position)).toBe(0);
    } finally {
      await runner.stop();
      await notifier.stop();
      await pool.end();
      await db.drop();
    }
  });

  it('reads the log at most once per quiet gather while commits keep coming; a read model each few ms', async () => {
    const db = await createTestDatabase();
    const QUIET_MS = 100;
    const started: { stop(): Promise<void>; reads(): number; gathers(): number }[] = [];
    try {
      const runnerOf = async (projection: Projection) => {
        const pool = createPool(db.url, 3);
        const notifier = new EventNotifier(db.url);
        const store = new EventStore(pool, { validate: validateEvent });
        // A read that found events held back by a transaction still open is followed by a
        // quick look again (subscription.ts), not a gather: the read after such a read is not
        // counted as a gather's read.
        const readAfter = store.readAfter.bind(store);
        let gathered = 0;
        let all = 0;
        let lastHeldBack = false;
        vi.spyOn(store, 'readAfter').mockImplementation(
          async (...args: Parameters<EventStore['readAfter']>) => {
            const lookAgain = lastHeldBack;
            const read = await readAfter(...args);
            all += 1;
            if (!lookAgain) gathered += 1;
            lastHeldBack = read.heldBack;
            return read;
          },
        );
        const runner = new ProjectionRunner(
          { pool, store, notifier, logger: createLogger('silent'), quietGatherMs: QUIET_MS },
          [projection],
        );
        await notifier.start();
        runner.start();
        const handle = {
          gathers: () => gathered,
          reads: () => all,
          stop: async () => {
            await runner.stop();
            await notifier.stop();
            await pool.end();
          },
        };
        started.push(handle);
        return handle;
      };
      const nothing = (name: string) => ({
        name,
        tables: [],
        handles: new Set(['TimeSlotCreated']),
        apply: () => Promise.resolve(),
      });
      const quiet = await runnerOf({ ...nothing('quiet-reader'), quietCheckpoint: true });
      const waited = await runnerOf(nothing('waited-reader'));
      await sleep(300);
      const before = { quiet: quiet.gathers(), waited: waited.reads() };
      const from = performance.now();
      while (performance.now() - from < 1000) await appendRooms(db.store, 5);
      const elapsed = performance.now() - from;
      // The quiet group's gathers are bounded by its gather time; a group that reads at each
      // commit reads more often.
      const quietGathers = quiet.gathers() - before.quiet;
      const waitedReads = waited.reads() - before.waited;
      expect(quietGathers).toBeLessThanOrEqual(Math.ceil(elapsed / QUIET_MS) + 2);
      expect(waitedReads).toBeGreaterThan(quietGathers);
    } finally {
      for (const r of started) await r.stop();
      await db.drop();
    }
  });
});
