// Over 300 lines: the projection runner's contract (crash and restart, two runners, compare-and-set
// checkpoints, groups), on one database with shared helpers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  EventNotifier,
  EventStore,
  RoomCreated,
  RoomDeleted,
  RoomImageRemoved,
  RoomImageSet,
  RoomOrderChanged,
  RoomUpdated,
  ROOM_ORDER_STREAM,
  roomStreamId,
  START,
  validateEvent,
  type AppendOptions,
  type AppendRequest,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '@rr/events';
import { createLogger, createPool, inTransaction, type Pool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import type { Projection } from './projection.ts';
import { mailOutboxReactor, readModelProjections } from './index.ts';
import { roomsProjection } from './rooms.ts';
import {
  applyBatch,
  applyGroupBatch,
  CheckpointMovedError,
  ensureCheckpoint,
  readCheckpoint,
} from './checkpoints.ts';
import { rebuildProjection } from './rebuild.ts';
import { ProjectionRunner } from './runner.ts';
import { seededRandom } from '../../tests/support/random.ts';
import { readVisible } from '../../tests/support/visible.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'runner-test' } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** The same database as `url`, with an application_name that marks the connections in pg_stat_activity. */
function withAppName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

interface RoomState {
  roomId: string;
  version: number;
  name: string;
  description: string;
  capacity: number;
  imageId: string | null;
  imageAlt: string | null;
  deleted: boolean;
}

/**
 * Writes a room history through the real store (catalogue-validated events, numeric expected
 * versions) and keeps the state it should project to.
 */
class RoomHistory {
  readonly rooms = new Map<string, RoomState>();
  /** Rooms the random history leaves alone (no updates, no deletion; order changes list them). */
  readonly untouched = new Set<string>();
  position: Position = START;
  count = 0;
  private readonly rnd = seededRandom(20240611);
  private readonly pending = new Map<string, AppendRequest>();
  private pendingCount = 0;

  constructor(private readonly store: EventStore) {}

  private live(): RoomState[] {
    return [...this.rooms.values()].filter((r) => !r.deleted);
  }

  private details(r: RoomState) {
    return {
      roomId: r.roomId,
      name: r.name,
      description: r.description,
      capacity: r.capacity,
      openStart: { type: 'DAY' as const, value: 2 },
      openEnd: { type: 'WORKING_DAY' as const, value: 30 },
    };
  }

  private add(
    streamId: string,
    expectedVersion: AppendRequest['expectedVersion'],
    event: NewEvent,
  ) {
    let req = this.pending.get(streamId);
    if (!req) {
      req = {
        streamId,
        streamType: streamId === ROOM_ORDER_STREAM ? 'room-order' : 'room',
        expectedVersion,
        events: [],
      };
      this.pending.set(streamId, req);
    }
    req.events.push(event);
    this.pendingCount += 1;
  }

  create(): RoomState {
    const r: RoomState = {
      roomId: randomUUID(),
      version: 1,
      name: `Room ${this.rooms.size + 1}`,
      description: 'desks',
      capacity: 1 + Math.floor(this.rnd() * 40),
      imageId: null,
      imageAlt: null,
      deleted: false,
    };
    this.rooms.set(r.roomId, r);
    this.add(roomStreamId(r.roomId), 'no_stream', RoomCreated.create(this.details(r)));
    return r;
  }

  update(r: RoomState): void {
    const expected = r.version;
    r.version += 1;
    r.name = `${r.name.split(' v')[0]} v${r.version}`;
    r.capacity = Math.floor(this.rnd() * 60);
    this.add(roomStreamId(r.roomId), expected, RoomUpdated.create(this.details(r)));
  }

  private pick(): RoomState {
    const live = this.live().filter((r) => !this.untouched.has(r.roomId));
    return live[Math.floor(this.rnd() * live.length)]!;
  }

  private randomOp(): void {
    const live = this.live();
    const x = this.rnd();
    if (live.length < 15 || x < 0.1) {
      this.create();
    } else if (x < 0.14) {
      const ids = live.map((r) => r.roomId).filter(() => this.rnd() < 0.6);
      ids.sort(() => this.rnd() - 0.5);
      this.add(ROOM_ORDER_STREAM, 'any', RoomOrderChanged.create({ roomIds: ids }));
    } else if (x < 0.16 && live.length > 40) {
      const r = this.pick();
      const expected = r.version;
      r.version += 1;
      r.deleted = true;
      this.add(roomStreamId(r.roomId), expected, RoomDeleted.create({ roomId: r.roomId }));
    } else if (x < 0.22) {
      const r = this.pick();
      const expected = r.version;
      r.version += 1;
      if (r.imageId && this.rnd() < 0.5) {
        r.imageId = null;
        r.imageAlt = null;
        this.add(roomStreamId(r.roomId), expected, RoomImageRemoved.create({ roomId: r.roomId }));
      } else {
        r.imageId = randomUUID();
        r.imageAlt = `photo of ${r.name}`;
        this.add(
          roomStreamId(r.roomId),
          expected,
          RoomImageSet.create({
            roomId: r.roomId,
            imageId: r.imageId,
            contentType: 'image/png',
            size: 100,
            alt: r.imageAlt,
          }),
        );
      }
    } else {
      this.update(this.pick());
    }
  }

  /** Appends what was staged, in one transaction. */
  async commit(): Promise<void> {
    if (this.pending.size === 0) return;
    const r = await this.store.appendMany([...this.pending.values()], options);
    this.position = r.position;
    this.count += this.pendingCount;
    this.pending.clear();
    this.pendingCount = 0;
  }

  /** Appends `n` random events in transactions of 1 to 10 events. */
  async random(n: number): Promise<void> {
    const target = this.count + n;
    while (this.count < target) {
      const size = Math.min(target - this.count, 1 + Math.floor(this.rnd() * 10));
      // A deleted room gets no more events; a room deleted in this very transaction neither.
      while (this.pendingCount < size) this.randomOp();
      await this.commit();
    }
  }
}

interface Projector {
  proc: ChildProcess;
  appName: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** The real projector: `server/src/main.ts` with SERVICE_ROLE=projector, in its own process. */
function startProjector(url: string, appName: string, batchSize: number): Projector {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      SERVICE_ROLE: 'projector',
      DATABASE_URL: withAppName(url, appName),
      LOG_LEVEL: 'silent',
      PROJECTION_BATCH_SIZE: String(batchSize),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, appName, exited, output: () => out };
}

async function backendsOf(pool: Pool, appName: string) {
  const r = await pool.query<{ state: string | null; wait_event: string | null; query: string }>(
    `SELECT state, wait_event, query FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = $1`,
    [appName],
  );
  return r.rows;
}

async function rmRooms(pool: Pool): Promise<Record<string, unknown>[]> {
  return (await pool.query<Record<string, unknown>>('SELECT * FROM rm_rooms ORDER BY id')).rows;
}

describe('a real projector process killed mid-batch and restarted', () => {
  let db: TestDatabase;
  const children: Projector[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    for (const c of children)
      if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await db.drop();
  });

  it(
    'loses nothing, applies nothing twice, and ends equal to a rebuild',
    { timeout: 240_000 },
    async () => {
      const history = new RoomHistory(db.store);
      // The room whose update the killed batch will be stuck on; nothing else updates it.
      const stuck = history.create();
      history.untouched.add(stuck.roomId);
      await history.commit();
      await history.random(1499);
      const phase1End = history.position;
      // Events 1501-1510, one transaction: 4 new rooms, the stuck room's update, 5 new rooms.
      const before = [history.create(), history.create(), history.create(), history.create()];
      history.update(stuck);
      const after = [1, 2, 3, 4, 5].map(() => history.create());
      await history.commit();
      await history.random(1490);
      expect(history.count).toBe(3000);
      const end = history.position;

      // A test-only trigger: the update that takes the stuck room to version 2 waits for an
      // advisory lock the test holds. With every event committed and batches of 10, the
      // projector's batch 151 is events 1501-1510: it inserts 4 rooms and then waits, part-way.
      // Advisory locks take no transaction id, so holding one does not hold back gap-safe reads.
      await db.pool.query(`
        CREATE FUNCTION test_hold_update() RETURNS trigger LANGUAGE plpgsql AS
          $$ BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NEW; END $$;
        CREATE TRIGGER test_hold_update BEFORE UPDATE ON rm_rooms FOR EACH ROW
          WHEN (OLD.id = '${stuck.roomId}' AND NEW.version = 2) EXECUTE FUNCTION test_hold_update();
      `);
      const holder = await db.pool.connect();
      try {
        await holder.query('SELECT pg_advisory_lock(4242)');

        const first = startProjector(db.url, 'rr-test-projector-1', 10);
        children.push(first);
        await waitFor(
          'the projector to block inside batch 151, on the stuck room update',
          async () =>
            (await backendsOf(db.pool, first.appName)).some(
              (b) =>
                b.state === 'active' &&
                b.wait_event === 'advisory' &&
                b.query.includes('UPDATE rm_rooms SET version'),
            ),
          90_000,
        ).catch((err: unknown) => {
          throw new Error(`${String(err)}\nprojector output:\n${first.output()}`);
        });
        // Part-way: 150 batches committed, the 151st open, 149 to go.
        const atKill = await readCheckpoint(db.pool, 'rooms');
        expect(atKill).toEqual(phase1End);
        expect(comparePositions(atKill, end)).toBeLessThan(0);

        first.proc.kill('SIGKILL');
        expect((await first.exited).signal).toBe('SIGKILL');
        await holder.query('SELECT pg_advisory_unlock(4242)');
        await waitFor(
          'the killed projector connections to end',
          async () => (await backendsOf(db.pool, first.appName)).length === 0,
          30_000,
        );

        // The half-applied batch was rolled back with its checkpoint move: the rooms it had
        // inserted before it got stuck are not there, the stuck room is still at version 1.
        expect(await readCheckpoint(db.pool, 'rooms')).toEqual(phase1End);
        const present = await db.pool.query<{ id: string }>(
          'SELECT id FROM rm_rooms WHERE id = ANY($1)',
          [[...before, ...after].map((r) => r.roomId)],
        );
        expect(present.rows).toEqual([]);
        const stuckNow = await db.pool.query<{ version: string }>(
          'SELECT version::text AS version FROM rm_rooms WHERE id = $1',
          [stuck.roomId],
        );
        expect(stuckNow.rows).toEqual([{ version: '1' }]);
        // And the read model is exactly the log up to the checkpoint.
        const expectedAtCheckpoint = await db.pool.query<{ id: string; version: string }>(
          `SELECT substr(stream_id, 6) AS id, max(stream_version)::text AS version FROM events
            WHERE stream_id LIKE 'room-%' AND stream_id <> $3
              AND (transaction_id, global_position) <= ($1::text::xid8, $2::bigint)
            GROUP BY stream_id HAVING NOT bool_or(event_type = 'RoomDeleted') ORDER BY 1`,
          [atKill.tx.toString(), atKill.gp.toString(), ROOM_ORDER_STREAM],
        );
        const actualAtCheckpoint = await db.pool.query<{ id: string; version: string }>(
          'SELECT id::text AS id, version::text AS version FROM rm_rooms ORDER BY 1',
        );
        expect(actualAtCheckpoint.rows).toEqual(expectedAtCheckpoint.rows);
        expect(actualAtCheckpoint.rows.length).toBeGreaterThan(10);

        await db.pool.query(
          'DROP TRIGGER test_hold_update ON rm_rooms; DROP FUNCTION test_hold_update()',
        );

        const second = startProjector(db.url, 'rr-test-projector-2', 10);
        children.push(second);
        await waitFor(
          'the restarted projector to reach the last event',
          async () => comparePositions(await readCheckpoint(db.pool, 'rooms'), end) === 0,
          120_000,
        ).catch((err: unknown) => {
          throw new Error(`${String(err)}\nprojector output:\n${second.output()}`);
        });
        const live = await rmRooms(db.pool);
        second.proc.kill('SIGTERM');
        expect(await second.exited).toEqual({ code: 0, signal: null });

        // The projected state is what the history says...
        const expected = [...history.rooms.values()]
          .filter((r) => !r.deleted)
          .map((r) => ({
            id: r.roomId,
            version: String(r.version),
            name: r.name,
            capacity: r.capacity,
            image_id: r.imageId,
            image_alt: r.imageAlt,
          }))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        expect(
          live.map((r) => ({
            id: r.id,
            version: String(r.version),
            name: r.name,
            capacity: r.capacity,
            image_id: r.image_id,
            image_alt: r.image_alt,
          })),
        ).toEqual(expected);
        const sortOrders = live.map((r) => r.sort_order);
        expect(new Set(sortOrders).size).toBe(sortOrders.length);

        // ...and identical, column for column, to a rebuild from zero.
        expect(await rebuildProjection(db.pool, db.store, roomsProjection)).toBe(3000);
        expect(await rmRooms(db.pool)).toEqual(live);
        expect(await readCheckpoint(db.pool, 'rooms')).toEqual(end);
      } finally {
        await holder.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
        holder.release();
      }
    },
  );
});

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
      [
        {
          ...RoomCreated.create({
            roomId,
            name: `r${i}`,
            description: '',
            capacity: 1,
            openStart: { type: 'DAY', value: 1 },
            openEnd: { type: 'DAY', value: 1 },
          }),
          eventId,
        },
      ],
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
    { timeout: 60_000 },
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
