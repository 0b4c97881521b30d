// Group commit on a real PostgreSQL: members committed together, answered only after the commit
// (a gate at the commit, and a kill -9 of a writing process), locks never waited for inside a
// group, refusals and failed statements.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommitGroups,
  EventStore,
  formatPosition,
  validateEvent,
  RoomCreated,
  RoomUpdated,
  StoreSession,
  type AppendRequest,
  type CommitGroupSettings,
} from '@rr/events';
import { createPool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { roundTripProxy } from '../../tests/support/round-trip-proxy.ts';
import { roomDetails } from '../../tests/support/room-events.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // A gate in the commit: a deferred constraint trigger runs at COMMIT and waits for an advisory
  // lock the test holds, so the test decides when a group's commit can end.
  await db.pool.query(`
    CREATE TABLE commit_gate (id int);
    CREATE FUNCTION commit_gate_wait() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(424242); RETURN NULL; END $$;
    CREATE CONSTRAINT TRIGGER commit_gate_wait AFTER INSERT ON commit_gate
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_gate_wait();
  `);
});

afterAll(async () => {
  await db.drop();
});

const actor = { kind: 'system', job: 'commit-group-test' } as const;

interface Part {
  appends: AppendRequest[];
  /** Passes the commit gate (see beforeAll). */
  gated?: boolean;
}

function groupsOf(settings: Partial<CommitGroupSettings> = {}, store = db.store) {
  return new CommitGroups<Part>(
    store,
    async (s, parts) => {
      await s.sendAppend(
        parts.flatMap((p) => p.appends),
        { metadata: { actor } },
      );
      if (parts.some((p) => p.gated)) await s.send('INSERT INTO commit_gate VALUES (1)');
    },
    { maxMembers: 32, maxGroups: 2, ...settings },
  );
}

/** A member that locks and reads its stream and appends one event at the version it read. */
function appendOne(streamId: string, roomId: string, extra?: (s: StoreSession) => Promise<void>) {
  return async (s: StoreSession): Promise<Part> => {
    const read = (await s.lockAndReadStreams([streamId])).get(streamId) ?? [];
    await extra?.(s);
    const version = read.length;
    return {
      appends: [
        {
          streamId,
          streamType: 'room',
          expectedVersion: version === 0 ? 'no_stream' : version,
          events: [
            version === 0
              ? RoomCreated.create(roomDetails(roomId, 'first'))
              : RoomUpdated.create(roomDetails(roomId, `v${version + 1}`)),
          ],
        },
      ],
    };
  };
}

const newStream = () => {
  const roomId = randomUUID();
  return { roomId, streamId: `room-${roomId}` };
};

/** A room stream with its first event, written alone. */
async function existingStream(name = 'first') {
  const x = newStream();
  await db.store.appendToStream(
    x.streamId,
    'room',
    'no_stream',
    [RoomCreated.create(roomDetails(x.roomId, name))],
    { metadata: { actor } },
  );
  return x;
}

async function eventsOf(streamIds: string[]) {
  const r = await db.pool.query<{ stream_id: string; tx: string; gp: string; v: string }>(
    `SELECT stream_id, transaction_id::text AS tx, global_position::text AS gp,
            stream_version::text AS v
       FROM events WHERE stream_id = ANY($1) ORDER BY global_position`,
    [streamIds],
  );
  return r.rows;
}

const settledSoon = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('group commit', () => {
  it('commands that arrive together commit in one transaction, each answered with its position', async () => {
    const groups = groupsOf();
    const streams = Array.from({ length: 8 }, newStream);
    const answers = await Promise.all(
      streams.map((x) => groups.run(appendOne(x.streamId, x.roomId))),
    );
    const rows = await eventsOf(streams.map((x) => x.streamId));
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    const last = rows.at(-1)!;
    for (const a of answers) expect(formatPosition(a.position!)).toBe(`${last.tx}_${last.gp}`);
    expect(groups.counts).toMatchObject({ groups: 1, grouped: 8, busy: 0, fallbacks: 0 });
  });

  it('a group on existing streams costs two round trips: the locks and reads, then one append and the commit', async () => {
    const streams = await Promise.all(Array.from({ length: 4 }, () => existingStream()));
    const proxy = await roundTripProxy(db.url);
    const pool = createPool(proxy.url, 1);
    try {
      await pool.query('SELECT 1');
      const groups = groupsOf({ maxGroups: 1 }, new EventStore(pool, { validate: validateEvent }));
      proxy.reset();
      await Promise.all(streams.map((x) => groups.run(appendOne(x.streamId, x.roomId))));
      expect(proxy.roundTrips()).toBe(2);
      expect(groups.counts).toMatchObject({ groups: 1, grouped: 4 });
      const rows = await eventsOf(streams.map((x) => x.streamId));
      expect(rows.map((r) => r.v)).toEqual(['1', '1', '1', '1', '2', '2', '2', '2']);
    } finally {
      await pool.end();
      await proxy.close();
    }
  });

  it('answers no member before the commit has answered', async () => {
    const groups = groupsOf();
    const gate = await db.pool.connect();
    try {
      await gate.query('SELECT pg_advisory_lock(424242)');
      const streams = Array.from({ length: 4 }, newStream);
      let answered = 0;
      const runs = streams.map((x, i) =>
        groups
          .run(async (s) => ({
            ...(await appendOne(x.streamId, x.roomId)(s)),
            gated: i === 0,
          }))
          .then((a) => {
            answered += 1;
            return a;
          }),
      );
      // The group has written and waits in its commit: nobody is answered, nothing is visible.
      expect(await settledSoon(Promise.all(runs), 500)).toBe(false);
      expect(answered).toBe(0);
      expect(await eventsOf(streams.map((x) => x.streamId))).toHaveLength(0);
      await gate.query('SELECT pg_advisory_unlock(424242)');
      await Promise.all(runs);
      expect(answered).toBe(4);
      expect(await eventsOf(streams.map((x) => x.streamId))).toHaveLength(4);
      expect(groups.counts.grouped).toBe(4);
    } finally {
      await gate.query('SELECT pg_advisory_unlock_all()');
      gate.release();
    }
  });

  it('a member whose stream another transaction holds leaves the group and runs alone after it', async () => {
    const groups = groupsOf();
    const held = await existingStream('held');
    const holder = await db.pool.connect();
    try {
      await holder.query('BEGIN');
      await new StoreSession(holder, db.store).lockAndReadStreams([held.streamId]);
      const others = Array.from({ length: 3 }, newStream);
      const blocked = groups.run(appendOne(held.streamId, held.roomId));
      const free = others.map((x) => groups.run(appendOne(x.streamId, x.roomId)));
      // The others commit while the held stream is still held: the group did not wait for it.
      expect(await settledSoon(Promise.all(free), 10_000)).toBe(true);
      expect(await settledSoon(blocked, 200)).toBe(false);
      expect(groups.counts).toMatchObject({ groups: 1, grouped: 3, busy: 1 });
      await holder.query('COMMIT');
      await blocked;
      const rows = await eventsOf([held.streamId]);
      expect(rows.map((r) => r.v)).toEqual(['1', '2']);
    } finally {
      // A group that waited for the holder (the defect this test finds) can end after it.
      await holder.query('COMMIT');
      holder.release();
    }
  });

  it('two members on one stream: the second runs after the first and decides on its event', async () => {
    const groups = groupsOf();
    const x = newStream();
    const y = newStream();
    await Promise.all([
      groups.run(appendOne(x.streamId, x.roomId)),
      groups.run(appendOne(x.streamId, x.roomId)),
      groups.run(appendOne(y.streamId, y.roomId)),
    ]);
    expect((await eventsOf([x.streamId])).map((r) => r.v)).toEqual(['1', '2']);
    expect(groups.counts).toMatchObject({ grouped: 2, busy: 1 });
  });

  it("a member's refusal is its answer, and the others commit", async () => {
    const groups = groupsOf();
    const [a, b, c] = Array.from({ length: 3 }, newStream);
    const refused = groups.run(async (s) => {
      await s.lockAndReadStreams([b!.streamId]);
      throw new Error('refused by the decision');
    });
    const ok = [a!, c!].map((x) => groups.run(appendOne(x.streamId, x.roomId)));
    await expect(refused).rejects.toThrow('refused by the decision');
    await Promise.all(ok);
    expect(await eventsOf([a!.streamId, b!.streamId, c!.streamId])).toHaveLength(2);
    expect(groups.counts).toMatchObject({ groups: 1, grouped: 2, fallbacks: 0 });
  });

  it('a failed statement rolls the group back; each member runs again alone', async () => {
    const groups = groupsOf();
    const streams = Array.from({ length: 4 }, newStream);
    let failures = 0;
    const runs = streams.map((x, i) =>
      groups.run(
        appendOne(x.streamId, x.roomId, async (s) => {
          // The first time only: the statement aborts the group's transaction.
          if (i === 2 && failures++ === 0) await s.client.query('SELECT 1 / 0');
        }),
      ),
    );
    await Promise.all(runs);
    const rows = await eventsOf(streams.map((x) => x.streamId));
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(4);
    expect(groups.counts).toMatchObject({ groups: 0, fallbacks: 1, alone: 4 });
  });

  it('groups in flight on overlapping streams never wait for each other: all commit, versions in order', async () => {
    const groups = groupsOf({ maxMembers: 8, maxGroups: 3 });
    const streams = await Promise.all(Array.from({ length: 12 }, () => existingStream()));
    const pick = () => streams[Math.floor(Math.random() * streams.length)]!;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 300 }, async () => {
        const pair = [pick(), pick()].filter((x, i, all) => all.indexOf(x) === i);
        await groups.run(async (s) => {
          const read = await s.lockAndReadStreams(pair.map((x) => x.streamId));
          return {
            appends: pair.map((x) => ({
              streamId: x.streamId,
              streamType: 'room',
              expectedVersion: read.get(x.streamId)!.length,
              events: [RoomUpdated.create(roomDetails(x.roomId, 'moved'))],
            })),
          };
        });
      }),
    );
    // No deadlock was waited out (PostgreSQL's deadlock_timeout is 1 s per deadlock).
    expect(performance.now() - started).toBeLessThan(30_000);
    const rows = await eventsOf(streams.map((x) => x.streamId));
    for (const x of streams) {
      const versions = rows.filter((r) => r.stream_id === x.streamId).map((r) => Number(r.v));
      expect(versions).toEqual(versions.map((_, i) => i + 1));
    }
    expect(groups.counts.fallbacks).toBe(0);
    expect(groups.counts.groups).toBeGreaterThan(0);
  });

  it('kill -9 of a process writing in groups loses no answered command', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, '..', '..', 'tests', 'support', 'commit-group-child.ts'),
        db.url,
        '32',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const answered: string[] = [];
    let buffered = '';
    const enough = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = (buffered + chunk.toString('utf8')).split('\n');
        buffered = lines.pop()!;
        answered.push(...lines);
        if (answered.length >= 400) resolve();
      });
    });
    await enough;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const found = new Set((await eventsOf(answered)).map((r) => r.stream_id));
    expect(answered.filter((id) => !found.has(id))).toEqual([]);
    // The groups were real: answered commands share transactions.
    const rows = await eventsOf(answered);
    expect(new Set(rows.map((r) => r.tx)).size).toBeLessThan(rows.length);
  });
});
