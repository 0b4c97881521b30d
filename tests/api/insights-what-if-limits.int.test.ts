import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayInWorker } from '@rr/insights';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { sleep } from '../support/wait-for.ts';

/**
 * The what-if replay's limits (docs/product.md#insights): one replay runs and one waits here
 * (WHAT_IF_CONCURRENCY, WHAT_IF_QUEUE), any more is answered 503 insights__replay_busy with
 * Retry-After at once and replays when asked again; a history of exactly WHAT_IF_MAX_EVENTS
 * replays, read by the worker in batches far smaller than it (WHAT_IF_BATCH_SIZE), one event
 * more is refused. Every time is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), 'Europe/Vienna');
const MAX_EVENTS = 40;
const RETRY_AFTER = 7;
let suite: AdminSuite;

interface Outcome {
  served: number;
  refused: number;
  waitlisted: number;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: {
      WHAT_IF_MAX_EVENTS: String(MAX_EVENTS),
      WHAT_IF_BATCH_SIZE: '7',
      WHAT_IF_CONCURRENCY: '1',
      WHAT_IF_QUEUE: '1',
      WHAT_IF_RETRY_AFTER_SECONDS: String(RETRY_AFTER),
    },
  });
});
afterAll(async () => {
  await suite.close();
});

const whatIf = (json: Record<string, unknown>) =>
  suite.admin.request('POST', '/api/admin/insights/what-if', { json });

/** Events of the slot's stream: what a replay of its room reads without a per-day change. */
async function eventsOf(slotId: string): Promise<number> {
  const r = await suite.db.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM events WHERE stream_id = $1',
    [`timeslot-${slotId}`],
  );
  return Number(r.rows[0]!.n);
}

/** A new cart holds a seat of the slot (one event on the slot's stream), a second after the last. */
async function hold(slotId: string) {
  const client = new Client(suite.app.baseUrl);
  clock.advance(1000);
  const r = await client.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(r.status).toBe(201);
}

describe('the what-if replay limits', () => {
  it('answers 503 insights__replay_busy with Retry-After beyond the replays running and waiting', async () => {
    const roomId = await createRoom(suite.admin, 'Busy planners room', { openStartValue: 0 });
    const date = addDays(today(), 2);
    const slot = await createSlot(suite.admin, roomId, date, '10:00', '12:00', 5);
    for (let i = 0; i < 3; i++) await hold(slot);
    const body = { roomId, fromDate: date, untilDate: date, change: { capacity: 1 } };
    // Four planners at once: one replays, one waits for its turn, two are turned away at once.
    const answers = await Promise.all(Array.from({ length: 4 }, () => whatIf(body)));
    const busy = answers.filter((a) => a.status === 503);
    const done = answers.filter((a) => a.status === 200);
    expect(busy).toHaveLength(2);
    expect(done).toHaveLength(2);
    for (const a of busy) {
      expect(a.headers.get('retry-after')).toBe(String(RETRY_AFTER));
      expect(a.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await a.json()) as { error: string; payload: string[] };
      expect(problem.error).toBe('insights__replay_busy');
      expect(problem.payload).toEqual(['seconds', String(RETRY_AFTER)]);
    }
    for (const a of done)
      expect(((await a.json()) as { whatIf: Outcome }).whatIf).toEqual({
        served: 1,
        refused: 2,
        waitlisted: 0,
      });
    // Asked again once the line is free, a turned-away replay runs.
    await sleep(100);
    const again = await whatIf(body);
    expect(again.status).toBe(200);
  });

  it(`replays a history of exactly ${MAX_EVENTS} events in batches of 7, and refuses one more`, async () => {
    const roomId = await createRoom(suite.admin, 'Cap room', { openStartValue: 0 });
    const date = addDays(today(), 3);
    const slot = await createSlot(suite.admin, roomId, date, '08:00', '20:00', 100);
    while ((await eventsOf(slot)) < MAX_EVENTS) await hold(slot);
    expect(await eventsOf(slot)).toBe(MAX_EVENTS);
    const held = MAX_EVENTS - 1; // every event after the slot's creation is a hold
    const body = { roomId, fromDate: date, untilDate: date, change: { capacity: 10 } };

    const atCap = await whatIf(body);
    expect(atCap.status).toBe(200);
    const replayed = (await atCap.json()) as { actual: Outcome; whatIf: Outcome };
    expect(replayed.actual).toEqual({ served: held, refused: 0, waitlisted: 0 });
    expect(replayed.whatIf).toEqual({ served: 10, refused: held - 10, waitlisted: 0 });

    await hold(slot);
    const over = await whatIf(body);
    expect(over.status).toBe(400);
    const problem = (await over.json()) as { error: string; payload: string[] };
    expect(problem.error).toBe('insights__replay_too_large');
    expect(problem.payload).toEqual([String(MAX_EVENTS)]);
  });

  it('stops a replay whose planner gave up, before or while it runs; the next one replays', async () => {
    const roomId = await createRoom(suite.admin, 'Impatient room', { openStartValue: 0 });
    const date = addDays(today(), 2);
    const slot = await createSlot(suite.admin, roomId, date, '10:00', '12:00', 5);
    await hold(slot);
    const request = { roomId, fromDate: date, untilDate: date, change: { capacity: 1 } };
    const before = new AbortController();
    before.abort();
    await expect(replayInWorker(suite.app.deps, request, before.signal)).rejects.toThrow(
      'the what-if replay was stopped',
    );
    const during = new AbortController();
    const stopped = replayInWorker(suite.app.deps, request, during.signal);
    during.abort();
    await expect(stopped).rejects.toThrow('the what-if replay was stopped');
    const { slots } = await replayInWorker(suite.app.deps, request);
    expect(slots.map((s) => s.whatIf)).toEqual([{ served: 1, refused: 0, waitlisted: 0 }]);
  });
});
