import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventNotifier, timeSlotStream, timeSlotStreamId, type AppendOptions } from '@rr/events';
import { createLogger } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { budget } from '../../tests/support/time-budget.ts';
import { sleep, waitFor } from '../../tests/support/wait-for.ts';
import { compareWithRebuild } from '../../tests/support/read-models.ts';
import { generateLog, type GeneratedLog } from '../../tests/bench/generate.ts';
import { tableDefinitions } from './build-tables.ts';
import { readCheckpoint } from './checkpoints.ts';
import { readModelProjections } from './index.ts';
import { rebuildReadModels } from './rebuild.ts';
import { ProjectionRunner } from './runner.ts';

const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'rebuild-test' } } };
const TABLES = readModelProjections.flatMap((p) => p.tables);

/** One reader's record: how many reads were answered while the rebuild ran, and the slowest. */
interface Reads {
  during: number;
  slowestMs: number;
  errors: unknown[];
  /** The fewest tickets a read saw (the live tables are never emptied). */
  fewestTickets: number;
}

/**
 * Reads the read models one read after the other until `stop`: the tickets and their counts in
 * one snapshot (as the reservations list does), and a room's slots.
 */
async function keepReading(
  db: TestDatabase,
  roomId: string,
  running: () => boolean,
  stop: () => boolean,
) {
  const reads: Reads = { during: 0, slowestMs: 0, errors: [], fewestTickets: Infinity };
  while (!stop()) {
    const started = performance.now();
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const t = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM rm_tickets');
      await client.query('SELECT sum(n) FROM rm_ticket_counts');
      await client.query('COMMIT');
      await client.query('SELECT * FROM rm_time_slots WHERE room_id = $1 ORDER BY date LIMIT 50', [
        roomId,
      ]);
      reads.fewestTickets = Math.min(reads.fewestTickets, t.rows[0]!.n);
      if (running()) reads.during += 1;
    } catch (err) {
      reads.errors.push(err);
      await client.query('ROLLBACK').catch(() => undefined);
    } finally {
      client.release();
    }
    reads.slowestMs = Math.max(reads.slowestMs, performance.now() - started);
    await sleep(5);
  }
  return reads;
}

describe('a rebuild beside the live read models', () => {
  let db: TestDatabase;
  let g: GeneratedLog;
  beforeAll(async () => {
    db = await createTestDatabase();
    g = await generateLog(db.pool, { rooms: 3, days: 60, events: 40_000, log: () => undefined });
  }, budget(120_000));
  afterAll(async () => {
    await db.drop();
  });

  it(
    'keeps answering reads, swaps in tables of the same definition, and loses no command appended meanwhile',
    { timeout: budget(240_000) },
    async () => {
      const notifier = new EventNotifier(db.url);
      await notifier.start();
      const runner = new ProjectionRunner(
        { pool: db.pool, store: db.store, notifier, logger: createLogger('silent') },
        [readModelProjections],
      );
      runner.start();
      try {
        const head = async () =>
          (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
        await waitFor(
          'the live read models at the head of the log',
          async () => {
            const events = await head();
            const n = await db.pool.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM rm_tickets',
            );
            return events > 0 && n.rows[0]!.n === g.tickets;
          },
          budget(120_000),
        );
        const definitions = await tableDefinitions(db.pool, TABLES);
        const roomId = g.rooms[0]!.id;

        let running = true;
        let stopped = false;
        const readers = [1, 2].map(() =>
          keepReading(
            db,
            roomId,
            () => running,
            () => stopped,
          ),
        );
        // Commands go on during the rebuild: new slots, each a command of its own.
        const added: string[] = [];
        const writer = (async () => {
          while (running) {
            const id = randomUUID();
            await db.store.appendToStream(
              timeSlotStreamId(id),
              timeSlotStream.kind,
              'no_stream',
              [
                {
                  type: 'TimeSlotCreated',
                  data: {
                    timeSlotId: id,
                    roomId,
                    date: '2031-03-0' + (1 + (added.length % 9)),
                    startTime: '08:00',
                    endTime: '12:00',
                    capacity: 3,
                  },
                },
              ],
              options,
            );
            added.push(id);
            await sleep(20);
          }
        })();
        // Small batches: the rebuild takes many round trips, long enough for many reads.
        const results = await rebuildReadModels(db.pool, db.store, readModelProjections, 300);
        running = false;
        await writer;
        stopped = true;
        const reads = await Promise.all(readers);

        for (const r of reads) {
          expect(r.errors).toEqual([]);
          expect(r.fewestTickets).toBeGreaterThanOrEqual(g.tickets);
          // Answered while the rebuild ran, one after the other, none held for the whole of it.
          expect(r.during).toBeGreaterThan(20);
          expect(r.slowestMs).toBeLessThan(budget(3_000));
        }
        expect(results.every((r) => r.events >= g.events)).toBe(true);
        expect(added.length).toBeGreaterThan(0);
        expect(await tableDefinitions(db.pool, TABLES)).toEqual(definitions);
        const schemas = await db.pool.query(
          `SELECT 1 FROM pg_namespace WHERE nspname = 'rr_rebuild'`,
        );
        expect(schemas.rows).toEqual([]);

        // Every slot appended during the rebuild is in the read models, and they equal a rebuild
        // from scratch of the whole log, once the live runner has caught up.
        await waitFor(
          'the checkpoints at the head',
          async () => {
            const at = await readCheckpoint(db.pool, 'tickets');
            const after = await db.pool.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM events
                WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`,
              [at.tx.toString(), at.gp.toString()],
            );
            return after.rows[0]!.n === 0;
          },
          budget(60_000),
        );
        const slots = await db.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM rm_time_slots WHERE id = ANY($1::uuid[])',
          [added],
        );
        expect(slots.rows[0]!.n).toBe(added.length);
        const compared = await compareWithRebuild(db.pool, budget(60_000));
        expect(compared.rebuilt).toEqual(compared.live);
        expect(compared.events).toBe(await head());
      } finally {
        await runner.stop();
        await notifier.stop();
      }
    },
  );
});
