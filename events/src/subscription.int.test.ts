// Over 300 lines: the subscription's contract (gap-safety, notification), on one database and
// notifier.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  EventNotifier,
  EventStore,
  runSubscription,
  StoreSession,
  validateEvent,
  type AppendOptions,
  type Position,
  type RecordedEvent,
} from '@rr/events';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { budget } from '../../tests/support/time-budget.ts';
import { appendRoom, newRoom } from '../../tests/support/room-events.ts';
import { committedAfter, endOfLog } from '../../tests/support/visible.ts';

let db: TestDatabase;
let store: EventStore;
let notifier: EventNotifier;

const options: AppendOptions = {
  metadata: { actor: { kind: 'system', job: 'subscription-test' } },
};

const appendOne = () => appendRoom(store, options);

/** The real store, noting when each readAll started and which events it returned. */
class ObservedStore extends EventStore {
  readonly reads: { at: number; ids: string[] }[] = [];

  override async readAfter(
    ...args: Parameters<EventStore['readAfter']>
  ): ReturnType<EventStore['readAfter']> {
    const at = Date.now();
    const read = await super.readAfter(...args);
    this.reads.push({ at, ids: read.events.map((e) => e.eventId) });
    return read;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How soon a notification wakes a subscription that would otherwise sleep for its 60-s poll: a
 * bound that tells the two apart on any machine (stretched by the run's slowness, at most 20 s),
 * not a speed the test demands.
 */
const WOKEN_WITHIN_MS = budget(5000);

interface Subscriber {
  delivered: RecordedEvent[];
  batches: { from: Position; events: RecordedEvent[] }[];
  stop(): Promise<void>;
}

function subscribe(
  from: Position,
  opts: { pollMs?: number; batchSize?: number; notifier?: EventNotifier; store?: EventStore } = {},
): Subscriber {
  const controller = new AbortController();
  const delivered: RecordedEvent[] = [];
  const batches: Subscriber['batches'] = [];
  const done = runSubscription({
    store: opts.store ?? store,
    notifier: opts.notifier ?? notifier,
    load: () => Promise.resolve(from),
    handle: (events, batchFrom) => {
      batches.push({ from: batchFrom, events });
      delivered.push(...events);
      return Promise.resolve();
    },
    pollMs: opts.pollMs ?? 50,
    batchSize: opts.batchSize ?? 500,
    signal: controller.signal,
  });
  return {
    delivered,
    batches,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

function expectCommitOrder(events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    expect(comparePositions(events[i - 1]!.position, events[i]!.position)).toBeLessThan(0);
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  store = db.store;
  notifier = new EventNotifier(db.url);
  await notifier.start();
});

afterAll(async () => {
  await notifier.stop();
  await db.drop();
});

describe('gap-safety', () => {
  it('an open transaction holding an earlier global position holds back later commits; none is skipped', async () => {
    const mark = await endOfLog(db.pool);
    const before = await appendOne(); // committed before the slow transaction starts
    const sub = subscribe(mark);
    const direct: RecordedEvent[] = []; // a second reader, polling readAll by hand
    const slow = await db.pool.connect();
    try {
      await slow.query('BEGIN');
      const session = new StoreSession(slow, store);
      const { streamId, created } = newRoom();
      const slowId = randomUUID();
      await session.append(
        [
          {
            streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [{ ...created, eventId: slowId }],
          },
        ],
        options,
      );
      const slowPosition = session.position!;

      // Later events commit in their own transactions while the slow one stays open.
      const later: string[] = [];
      for (let i = 0; i < 5; i++) later.push(await appendOne());

      // The hazard is real: committed events with a higher global position than the open one
      // are visible, so a reader by global position alone would move past it.
      const visible = await db.pool.query<{ gp: string }>(
        'SELECT global_position::text AS gp FROM events WHERE event_id = ANY($1)',
        [later],
      );
      expect(visible.rows).toHaveLength(5);
      for (const row of visible.rows) expect(BigInt(row.gp)).toBeGreaterThan(slowPosition.gp);

      await waitFor(() => sub.delivered.some((e) => e.eventId === before), 5000);
      await sleep(400); // notifications and several polls happen meanwhile
      expect(sub.delivered.map((e) => e.eventId)).toEqual([before]);
      direct.push(...(await store.readAll(mark, 1000)));
      expect(direct.map((e) => e.eventId)).toEqual([before]);
      expect(await store.readAll(direct.at(-1)!.position, 1000)).toEqual([]);

      await slow.query('COMMIT');
      const expected = [before, slowId, ...later];
      await waitFor(() => sub.delivered.length >= expected.length, 5000);
      await sleep(300); // anything delivered twice would show up now
      direct.push(...(await store.readAll(direct.at(-1)!.position, 1000)));

      for (const got of [sub.delivered, direct]) {
        const ids = got.map((e) => e.eventId);
        expect(ids).toEqual(expected);
        expect(new Set(ids).size).toBe(ids.length);
        expectCommitOrder(got);
      }
      expect(await committedAfter(db.pool, mark)).toEqual(expected);
    } finally {
      await slow.query('ROLLBACK').catch(() => undefined);
      slow.release();
      await sub.stop();
    }
  });

  it('a transaction that started first but appends last is delivered first, after it commits', async () => {
    const mark = await endOfLog(db.pool);
    const sub = subscribe(mark);
    const slow = await db.pool.connect();
    try {
      await slow.query('BEGIN');
      // Take a transaction id now (the oldest running one), append only after the others.
      await slow.query('SELECT pg_current_xact_id()');
      const later: string[] = [];
      for (let i = 0; i < 3; i++) later.push(await appendOne());
      const session = new StoreSession(slow, store);
      const { streamId, created } = newRoom();
      const slowId = randomUUID();
      await session.append(
        [
          {
            streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [{ ...created, eventId: slowId }],
          },
        ],
        options,
      );
      await sleep(400);
      expect(sub.delivered).toEqual([]);
      expect(await store.readAll(mark, 1000)).toEqual([]);

      await slow.query('COMMIT');
      await waitFor(() => sub.delivered.length >= 4, 5000);
      await sleep(300);
      const ids = sub.delivered.map((e) => e.eventId);
      // Highest global position, lowest transaction id: it comes first in (tx, gp) order.
      expect(ids).toEqual([slowId, ...later]);
      const slowEvent = sub.delivered[0]!;
      for (const e of sub.delivered.slice(1))
        expect(e.position.gp).toBeLessThan(slowEvent.position.gp);
      expectCommitOrder(sub.delivered);
      expect(await committedAfter(db.pool, mark)).toEqual(ids);
    } finally {
      await slow.query('ROLLBACK').catch(() => undefined);
      slow.release();
      await sub.stop();
    }
  });

  it('many concurrent writers with interleaved slow transactions: every event exactly once, in (tx, gp) order', async () => {
    const mark = await endOfLog(db.pool);
    const sub = subscribe(mark, { batchSize: 7 });
    const written: string[] = [];
    const writer = async (w: number) => {
      for (let i = 0; i < 15; i++) {
        const { streamId, created } = newRoom();
        const eventId = randomUUID();
        await store.transaction(async (s) => {
          await s.append(
            [
              {
                streamId,
                streamType: 'room',
                expectedVersion: 'no_stream',
                events: [{ ...created, eventId }],
              },
            ],
            options,
          );
          // Some transactions linger after taking their global position.
          if ((i + w) % 4 === 0) await sleep(30 + ((i * 7 + w * 13) % 50));
        });
        written.push(eventId);
      }
    };
    try {
      await Promise.all([0, 1, 2, 3, 4, 5].map(writer));
      await waitFor(() => sub.delivered.length >= written.length, 10_000);
      await sleep(300);
      const ids = sub.delivered.map((e) => e.eventId);
      expect(ids).toHaveLength(90);
      expect(new Set(ids)).toEqual(new Set(written));
      expectCommitOrder(sub.delivered);
      expect(ids).toEqual(await committedAfter(db.pool, mark));
      // Batches respect the batch size and each starts where the previous one ended.
      let from = mark;
      for (const b of sub.batches) {
        expect(b.events.length).toBeLessThanOrEqual(7);
        expect(b.from).toEqual(from);
        from = b.events.at(-1)!.position;
      }
    } finally {
      await sub.stop();
    }
  });

  it('a batch whose handler throws is read again from the reloaded position; nothing lost', async () => {
    const mark = await endOfLog(db.pool);
    const ids = [await appendOne(), await appendOne(), await appendOne()];
    const controller = new AbortController();
    let checkpoint = mark;
    let loads = 0;
    let failures = 0;
    const applied: string[] = [];
    const done = runSubscription({
      store,
      notifier,
      signal: controller.signal,
      batchSize: 2,
      pollMs: 50,
      load: () => {
        loads += 1;
        return Promise.resolve(checkpoint);
      },
      handle: (events) => {
        if (failures === 0 && events.some((e) => e.eventId === ids[2])) {
          failures += 1;
          return Promise.reject(new Error('handler failed once'));
        }
        applied.push(...events.map((e) => e.eventId));
        checkpoint = events.at(-1)!.position;
        return Promise.resolve();
      },
      onError: () => undefined,
    });
    try {
      await waitFor(() => applied.length >= 3, 5000);
      await sleep(200);
      expect(applied).toEqual(ids);
      expect(failures).toBe(1);
      expect(loads).toBe(2);
    } finally {
      controller.abort();
      await done;
    }
  });
});

describe('EventNotifier', () => {
  it(
    'wakes a waiting subscription right after a commit (polling every 60 s would not)',
    { timeout: budget(60_000) },
    async () => {
      const observed = new ObservedStore(db.pool, { validate: validateEvent });
      let clean = 0;
      for (let attempt = 0; attempt < 12 && clean < 3; attempt++) {
        const readsBefore = observed.reads.length;
        const sub = subscribe(await endOfLog(db.pool), { pollMs: 60_000, store: observed });
        try {
          await waitFor(() => observed.reads.length > readsBefore, 2000); // read the empty tail
          await sleep(200); // now it waits: for a notification, or 60 s
          const seqBefore = notifier.seq;
          const appendStarted = Date.now();
          const id = await appendOne();
          // Well within the 60-s poll however slow the machine: only the notification wakes it.
          const delivered = await waitFor(
            () => sub.delivered.some((e) => e.eventId === id),
            WOKEN_WITHIN_MS,
          ).then(
            () => true,
            () => false,
          );
          // The notification arrived and woke the subscription, which read again at once.
          expect(notifier.seq).toBeGreaterThan(seqBefore);
          const wakeReads = observed.reads.filter((r) => r.at >= appendStarted);
          expect(wakeReads.length).toBeGreaterThan(0);
          expect(wakeReads[0]!.at - appendStarted).toBeLessThan(WOKEN_WITHIN_MS);
          if (delivered) {
            clean += 1;
          } else {
            // Only acceptable when the reads after the wake-up could not see the event yet: an
            // older transaction elsewhere in the cluster (another test file) held it back.
            expect(wakeReads.some((r) => r.ids.includes(id))).toBe(false);
          }
        } finally {
          await sub.stop();
        }
      }
      expect(clean).toBe(3);
    },
  );

  it('without LISTEN (a notifier never started) the same subscription sleeps through the commit', async () => {
    const deaf = new EventNotifier(db.url); // not started: no LISTEN connection
    const sub = subscribe(await endOfLog(db.pool), { pollMs: 60_000, notifier: deaf });
    try {
      await sleep(300);
      const id = await appendOne();
      await sleep(1000);
      expect(sub.delivered.map((e) => e.eventId)).not.toContain(id);
    } finally {
      await sub.stop();
    }
  });

  it('resolves waitForWake at once when a notification arrived after the given sequence number', async () => {
    const seq = notifier.seq;
    await appendOne();
    await waitFor(() => notifier.seq > seq, 1000);
    const started = Date.now();
    await notifier.waitForWake(60_000, undefined, seq);
    expect(Date.now() - started).toBeLessThan(WOKEN_WITHIN_MS);
  });
});
