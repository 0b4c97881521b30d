// Transactions that append no events, not waited for by the gap-safe reads that are given their
// ids; the database refuses an append by one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventNotifier,
  NonAppenders,
  runSubscription,
  StoreSession,
  type AppendOptions,
  type RecordedEvent,
} from '@rr/events';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { budget } from '../../tests/support/time-budget.ts';
import { waitFor } from '../../tests/support/wait-for.ts';
import { appendRoom, newRoom } from '../../tests/support/room-events.ts';
import { endOfLog } from '../../tests/support/visible.ts';
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
    const from = await endOfLog(db.pool);
    const nonAppenders = new NonAppenders();
    const quiet = await db.pool.connect();
    const controller = new AbortController();
    const notifier = new EventNotifier(db.url);
    let id: string | null = null;
    try {
      // An outbox's transaction: it has an id (the oldest running) and writes for a while.
      await quiet.query('BEGIN');
      id = await nonAppenders.mark(quiet);
      expect(nonAppenders.ids()).toEqual([id]);
      await quiet.query('CREATE TEMP TABLE outbox_rows (n int) ON COMMIT DROP');
      await quiet.query('INSERT INTO outbox_rows VALUES (1)');
      const later = await appendOne();

      // Not given its id, a reader waits for it (the event is held back).
      const unaware = await db.store.readAfter(from, 100);
      expect(unaware.events.map((e) => e.eventId)).not.toContain(later);
      expect(unaware.heldBack).toBe(true);
      expect((await db.store.readAll(from, 100)).map((e) => e.eventId)).not.toContain(later);
      // Nor does a null list (compared with null, every id would be left out of the horizon).
      const nullList = await db.pool.query<{ event_id: string }>(visibleAfter(), [
        from.tx.toString(),
        from.gp.toString(),
        100,
        null,
      ]);
      expect(nullList.rows.map((r) => r.event_id)).not.toContain(later);

      // Given it, the reader reads past the open transaction.
      await waitFor(
        'the event read past the open outbox transaction',
        async () => {
          const read = await db.store.readAfter(from, 100, undefined, nonAppenders.ids());
          return read.events.some((e) => e.eventId === later);
        },
        SEEN_WITHIN_MS,
      );
      const all = await db.store.readAll(from, 100, undefined, nonAppenders.ids());
      expect(all.map((e) => e.eventId)).toContain(later);

      // So does a subscription given them.
      await notifier.start();
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
        ignoring: () => nonAppenders.ids(),
        signal: controller.signal,
      });
      await waitFor(
        'the subscription past the open outbox transaction',
        () => delivered.some((e) => e.eventId === later),
        SEEN_WITHIN_MS,
      );
      controller.abort();
      await done;
      // The outbox transaction is still open all along.
      expect((await quiet.query('SELECT count(*)::int AS n FROM outbox_rows')).rows).toEqual([
        { n: 1 },
      ]);
    } finally {
      controller.abort();
      await quiet.query('ROLLBACK').catch(() => undefined);
      if (id !== null) nonAppenders.ended(id);
      quiet.release();
      await notifier.stop();
    }
    expect(nonAppenders.ids()).toEqual([]);
  });

  it('under racing appenders and outbox transactions, a subscription given the ids misses and repeats nothing', async () => {
    const from = await endOfLog(db.pool);
    const nonAppenders = new NonAppenders();
    const notifier = new EventNotifier(db.url);
    await notifier.start();
    const delivered: RecordedEvent[] = [];
    const controller = new AbortController();
    const done = runSubscription({
      store: db.store,
      notifier,
      load: () => Promise.resolve(from),
      handle: (events) => {
        delivered.push(...events);
        return Promise.resolve();
      },
      pollMs: 50,
      batchSize: 7,
      ignoring: () => nonAppenders.ids(),
      signal: controller.signal,
    });
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
      const committed = await db.pool.query<{ event_id: string }>(
        `SELECT event_id FROM events
          WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          ORDER BY transaction_id, global_position`,
        [from.tx.toString(), from.gp.toString()],
      );
      const expected = committed.rows.map((r) => r.event_id);
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
