// A real projector process killed with SIGKILL mid-batch and restarted: it loses nothing,
// applies nothing twice and ends equal to a rebuild (a fault test: `npm run test:faults`).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
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
  type AppendOptions,
  type AppendRequest,
  type NewEvent,
  type Position,
} from '@rr/events';
import { type Pool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { roomsProjection } from './rooms.ts';
import { readCheckpoint } from './checkpoints.ts';
import { rebuildProjection } from './rebuild.ts';
import { seededRandom } from '../../tests/support/random.ts';
import { budget } from '../../tests/support/time-budget.ts';
import { waitFor, withAppName } from '../../tests/support/wait-for.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'runner-test' } } };

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
    { timeout: budget(240_000) },
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
