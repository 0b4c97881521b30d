// A reader of some event types only (an outbox reactor): its pages hold those events and the last
// one read, and nothing else of the log; its position still moves past every event.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventNotifier,
  RoomUpdated,
  runSubscription,
  StoreSession,
  type AppendOptions,
  type Position,
  type RecordedEvent,
} from '@rr/events';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { newRoom, roomDetails } from '../../tests/support/room-events.ts';
import { committedAfter, endOfLog, readVisible } from '../../tests/support/visible.ts';
import { waitFor } from '../../tests/support/wait-for.ts';

let db: TestDatabase;
let notifier: EventNotifier;

const options: AppendOptions = {
  metadata: { actor: { kind: 'system', job: 'reads-of-types-test' } },
};

beforeAll(async () => {
  db = await createTestDatabase();
  notifier = new EventNotifier(db.url);
  await notifier.start();
});

afterAll(async () => {
  await notifier.stop();
  await db.drop();
});

/**
 * Appends rooms and their updates, each in a transaction of its own: `true` updates the newest
 * room (a new one when there is none yet), `false` creates one. Answers the events' count.
 */
async function appendRooms(steps: readonly boolean[]): Promise<number> {
  let room: { streamId: string; roomId: string; version: number } | null = null;
  for (const update of steps) {
    if (update && room) {
      await db.store.appendToStream(
        room.streamId,
        'room',
        room.version,
        [RoomUpdated.create(roomDetails(room.roomId, `v${room.version + 1}`))],
        options,
      );
      room.version += 1;
      continue;
    }
    const { streamId, created } = newRoom();
    await db.store.appendToStream(streamId, 'room', 'no_stream', [created], options);
    room = { streamId, roomId: streamId.slice('room-'.length), version: 1 };
  }
  return steps.length;
}

/** Every page of reads after `from` (`types`: only of these), until a page is not full. */
async function pages(from: Position, limit: number, types?: ReadonlySet<string>) {
  const read: RecordedEvent[][] = [];
  for (let at = from; ;) {
    const page = await db.store.readAfter(at, limit, undefined, [], types);
    read.push(page.events);
    if (!page.full) return read;
    at = page.events[page.events.length - 1]!.position;
  }
}

const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);

describe('reads of some event types', () => {
  it('hold, page by page, the events of those types and the last event read, in commit order', async () => {
    const typeSets = [['RoomCreated'], ['RoomUpdated'], ['RoomCreated', 'RoomUpdated'], ['Other']];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 0, maxLength: 30 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...typeSets),
        async (steps, limit, typeList) => {
          const from = await endOfLog(db.pool);
          const n = await appendRooms(steps);
          // Committed, and past every transaction the cluster's other test files hold open.
          expect(await readVisible(db.store, n, from)).toHaveLength(n);
          const types = new Set(typeList);
          const all = await pages(from, limit);
          const ofTypes = await pages(from, limit, types);
          expect(ofTypes.map(ids)).toEqual(
            all.map((page) =>
              ids(page.filter((e, i) => types.has(e.type) || i === page.length - 1)),
            ),
          );
          expect(ofTypes.flat().at(-1)?.position ?? null).toEqual(
            all.flat().at(-1)?.position ?? null,
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('do not read past an open transaction that appends, and hold back what follows it', async () => {
    const from = await endOfLog(db.pool);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      const first = newRoom();
      await new StoreSession(client, db.store).append(
        [
          {
            streamId: first.streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [first.created],
          },
        ],
        options,
      );
      await appendRooms([false]);
      const types = new Set(['RoomCreated']);
      const held = await db.store.readAfter(from, 10, undefined, [], types);
      expect(held).toMatchObject({ events: [], heldBack: true, full: false });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const committed = await committedAfter(db.pool, from);
    expect(committed).toHaveLength(2);
    let read: RecordedEvent[] = [];
    await waitFor(
      "both rooms past the other test files' transactions",
      async () => {
        read = (await db.store.readAfter(from, 10, undefined, [], new Set(['RoomCreated']))).events;
        return read.length === 2;
      },
      20_000,
    );
    expect(ids(read)).toEqual(committed);
  });

  it('give a subscription every event of its types once, and its position the end of the log', async () => {
    const from = await endOfLog(db.pool);
    const steps = Array.from({ length: 40 }, (_, i) => i % 5 !== 0);
    const controller = new AbortController();
    const delivered: RecordedEvent[] = [];
    let others = 0;
    let position = from;
    const done = runSubscription({
      store: db.store,
      notifier,
      load: () => Promise.resolve(from),
      handle: (events) => {
        // Only the last event of a batch may be of another type.
        if (events.slice(0, -1).some((e) => e.type !== 'RoomCreated')) others += 1;
        delivered.push(...events);
        position = events[events.length - 1]!.position;
        return Promise.resolve();
      },
      pollMs: 50,
      batchSize: 7,
      types: new Set(['RoomCreated']),
      signal: controller.signal,
    });
    try {
      await appendRooms(steps);
      const end = await endOfLog(db.pool);
      await waitFor(
        'the subscription at the end of the log',
        () => position.tx === end.tx && position.gp === end.gp,
        20_000,
      );
    } finally {
      controller.abort();
      await done;
    }
    const created = (await readVisible(db.store, steps.length, from)).filter(
      (e) => e.type === 'RoomCreated',
    );
    expect(created).toHaveLength(8);
    expect(ids(delivered.filter((e) => e.type === 'RoomCreated'))).toEqual(ids(created));
    expect(others).toBe(0);
  });
});
