// Transactions that append no events, not waited for by the gap-safe reads that are given their
// ids; the database refuses an append by one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventNotifier,
  NonAppenders,
  runSubscription,
  StoreSession,
  type AppendOptions,
  type Position,
  type RecordedEvent,
} from '@rr/events';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { budget } from '../../tests/support/time-budget.ts';
import { holdsWithin, waitFor } from '../../tests/support/wait-for.ts';
import { appendRoom, newRoom } from '../../tests/support/room-events.ts';
import { committedAfter, endOfLog, READ_PAST_ATTEMPT_MS } from '../../tests/support/visible.ts';
import { visibleAfter } from './rows.ts';

let db: TestDatabase;

const options: AppendOptions = {
  metadata: { actor: { kind: 'system', job: 'non-appenders-test' } },
};

const appendOne = () => appendRoom(db.store, options);

/** Appends a new room in the transaction open on `client`. */
const appendIn = (client: pg.PoolClient) => {
  const { streamId, created } = newRoom();
  const appended = new StoreSession(client, db.store).append(
    [{ streamId, streamType: 'room', expectedVersion: 'no_stream', events: [created] }],
    options,
  );
  return { streamId, appended };
};

/** A subscription from `from` that reads past the open transactions `nonAppenders` lists. */
function subscribeIgnoring(
  from: Position,
  nonAppenders: NonAppenders,
  notifier: EventNotifier,
  controller: AbortController,
  batchSize?: number,
): { delivered: RecordedEvent[]; done: Promise<void> } {
  const delivered: RecordedEvent[] = [];
  const done = runSubscription({
    store: db.store,
    notifier,
    load: () => Promise.resolve(from),
    handle: (events) => {
      delivered.push(...events);
      return Promise.resolve();
    },
    pollMs: 50,
    batchSize,
    ignoring: () => nonAppenders.ids(),
    signal: controller.signal,
  });
  return { delivered, done };
}

/**
 * Other test files share the cluster, and their open transactions hold every gap-safe read back
 * for a moment: a read expected to see an event is tried until it does.
 */
const SEEN_WITHIN_MS = budget(20_000);

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describe('transactions that append no events', () => {
  it('are read past by readers given their ids, and hold back the others as before', async () => {
    const nonAppenders = new NonAppenders();
    const controller = new AbortController();
    const notifier = new EventNotifier(db.url);
    await notifier.start();
    const { delivered, done } = subscribeIgnoring(
      await endOfLog(db.pool),
      nonAppenders,
      notifier,
      controller,
    );
    // Each attempt holds a marked transaction open (an outbox's: it has an id, the oldest
    // running, and writes for a while) and looks for reads past it; one held back by another
    // test file's transaction lets go and tries again (READ_PAST_ATTEMPT_MS).
    const deadline = Date.now() + SEEN_WITHIN_MS;
    let readPast = false;
    try {
      while (!readPast && Date.now() < deadline) {
        const quiet = await db.pool.connect();
        let id: string | null = null;
        try {
          await quiet.query('BEGIN');
          id = await nonAppenders.mark(quiet);
          expect(nonAppenders.ids()).toEqual([id]);
          await quiet.query('CREATE TEMP TABLE outbox_rows (n int) ON COMMIT DROP');
          await quiet.query('INSERT INTO outbox_rows VALUES (1)');
          const from = await endOfLog(db.pool);
          const later = await appendOne();
          const seen = (events: { eventId: string }[]) => events.some((e) => e.eventId === later);

          // Not given its id, a reader waits for it (the event is held back).
          const unaware = await db.store.readAfter(from, 100);
          expect(seen(unaware.events)).toBe(false);
          expect(unaware.heldBack).toBe(true);
          expect(seen(await db.store.readAll(from, 100))).toBe(false);
          // Nor does a null list (compared with null, every id would be left out of the horizon).
          const nullList = await db.pool.query<{ event_id: string }>(visibleAfter(), [
            from.tx.toString(),
            from.gp.toString(),
            100,
            null,
          ]);
          expect(nullList.rows.map((r) => r.event_id)).not.toContain(later);

          // Given it, a reader and a subscription read past the open transaction.
          readPast =
            (await holdsWithin(
              async () =>
                seen((await db.store.readAfter(from, 100, undefined, nonAppenders.ids())).events),
              READ_PAST_ATTEMPT_MS,
            )) &&
            seen(await db.store.readAll(from, 100, undefined, nonAppenders.ids())) &&
            (await holdsWithin(() => seen(delivered), READ_PAST_ATTEMPT_MS));
          // The outbox transaction is still open all along.
          expect((await quiet.query('SELECT count(*)::int AS n FROM outbox_rows')).rows).toEqual([
            { n: 1 },
          ]);
        } finally {
          await quiet.query('ROLLBACK').catch(() => undefined);
          if (id !== null) nonAppenders.ended(id);
          quiet.release();
        }
      }
      expect(readPast).toBe(true);
    } finally {
      controller.abort();
      await done;
      await notifier.stop();
    }
    expect(nonAppenders.ids()).toEqual([]);
  });

  it('under racing appenders and outbox transactions, a subscription given the ids misses and repeats nothing', async () => {
    const from = await endOfLog(db.pool);
    const nonAppenders = new NonAppenders();
    const notifier = new EventNotifier(db.url);
    await notifier.start();
    const controller = new AbortController();
    const { delivered, done } = subscribeIgnoring(from, nonAppenders, notifier, controller, 7);
    const until = Date.now() + 2000;
    const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
    // Appenders that take their id first and append after a pause, so later transactions commit
    // events past them meanwhile (the gap a reader must not skip).
    const appender = async () => {
      while (Date.now() < until) {
        const client = await db.pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('SELECT pg_current_xact_id()');
          await pause();
          await appendIn(client).appended;
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }
    };
    // Outbox transactions, marked, open across the appenders' commits.
    const outbox = async () => {
      while (Date.now() < until) {
        const client = await db.pool.connect();
        let id: string | null = null;
        try {
          await client.query('BEGIN');
          id = await nonAppenders.mark(client);
          await pause();
          await client.query('COMMIT');
        } finally {
          if (id !== null) nonAppenders.ended(id);
          client.release();
        }
      }
    };
    try {
      await Promise.all([appender(), appender(), appender(), outbox(), outbox()]);
      const expected = await committedAfter(db.pool, from);
      expect(expected.length).toBeGreaterThan(20);
      await waitFor(
        'the subscription through every committed event',
        () => delivered.length >= expected.length,
        SEEN_WITHIN_MS,
      );
      await new Promise((resolve) => setTimeout(resolve, 200)); // a repeat would show up now
      expect(delivered.map((e) => e.eventId)).toEqual(expected);
    } finally {
      controller.abort();
      await done;
      await notifier.stop();
    }
  });

  it('cannot append: the database refuses, and nothing of the append is stored', async () => {
    const nonAppenders = new NonAppenders();
    const client = await db.pool.connect();
    let streamId = '';
    try {
      await client.query('BEGIN');
      const id = await nonAppenders.mark(client);
      const append = appendIn(client);
      streamId = append.streamId;
      const appended = append.appended;
      await expect(appended).rejects.toThrow(/appends no events/);
      await expect(appended).rejects.toBeInstanceOf(pg.DatabaseError);
      await client.query('ROLLBACK');
      nonAppenders.ended(id);
    } finally {
      client.release();
    }
    expect(streamId).not.toBe('');
    const stored = await db.pool.query('SELECT 1 FROM streams WHERE stream_id = $1', [streamId]);
    expect(stored.rows).toEqual([]);
  });

  it('are marked only to their end: the next transaction on the connection appends', async () => {
    const nonAppenders = new NonAppenders();
    const client = await db.pool.connect();
    let streamId = '';
    try {
      await client.query('BEGIN');
      nonAppenders.ended(await nonAppenders.mark(client));
      await client.query('COMMIT');
      await client.query('BEGIN');
      const append = appendIn(client);
      streamId = append.streamId;
      await append.appended;
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const stored = await db.pool.query('SELECT version FROM streams WHERE stream_id = $1', [
      streamId,
    ]);
    expect(stored.rows).toEqual([{ version: '1' }]);
  });
});
