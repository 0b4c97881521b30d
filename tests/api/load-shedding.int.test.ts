// Overload: a process runs a bounded number of requests and lets a bounded number wait; the rest
// are answered 503 service__overloaded with Retry-After at once, never run, and asked again after
// it (as the SPA does) they are served: nothing lost, nothing doubled (docs/product.md#overload).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { sleep } from '../support/wait-for.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const DAY = '2026-11-26';
const VISITORS = 12;

let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: {
      LOAD_SHED_CONCURRENCY: '2',
      LOAD_SHED_QUEUE: '2',
      LOAD_SHED_MAX_WAIT_MS: '30000',
      LOAD_SHED_RETRY_AFTER_SECONDS: '1',
      // The blocking reads below hold their turn this long.
      READ_YOUR_WRITES_TIMEOUT_MS: '1500',
    },
  });
});
afterAll(() => suite.close());

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: string; transactionId?: string; tickets?: unknown[] };
}

async function send(method: string, path: string, json?: unknown, headers = {}): Promise<Answer> {
  const res = await fetch(suite.app.baseUrl + path, {
    method,
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Answer['body'],
  };
}

/** Sends until it is not shed, waiting Retry-After between; answers the last answer and the 503s. */
async function untilServed(op: () => Promise<Answer>): Promise<{ last: Answer; shed: Answer[] }> {
  const shed: Answer[] = [];
  for (;;) {
    const a = await op();
    if (a.status !== 503) return { last: a, shed };
    shed.push(a);
    if (shed.length > 60) return { last: a, shed };
    await sleep(Number(a.retryAfter) * 1000);
  }
}

/** Two reads that hold both turns until their X-Min-Position wait times out. */
const block = () =>
  Array.from({ length: 2 }, () =>
    send('GET', '/api/rooms', undefined, { 'X-Min-Position': `${Number.MAX_SAFE_INTEGER}_1` }),
  );

describe('load shedding', () => {
  it('answers 503 with Retry-After beyond the queue, and the retried requests lose or double nothing', async () => {
    const roomId = await createRoom(suite.admin, 'Busy room', { capacity: 50 });
    const slotId = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 50);

    const blockers = block();
    await sleep(300);
    const carts = await Promise.all(
      Array.from({ length: VISITORS }, () =>
        untilServed(() => send('POST', '/api/transactions', { timeSlotId: slotId })),
      ),
    );
    await Promise.all(blockers);
    const shed = carts.flatMap((c) => c.shed);
    // Two run, two wait: the others were turned away at once.
    expect(shed.length).toBeGreaterThanOrEqual(VISITORS - 4);
    for (const a of shed) {
      // A full line: between the configured second and five (retryAfterFor).
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(a.retryAfter)).toBeLessThanOrEqual(5);
      expect(a.body.error).toBe('service__overloaded');
    }
    expect(carts.map((c) => c.last.status)).toEqual(Array(VISITORS).fill(201));
    const ids = new Set(carts.map((c) => c.last.body.transactionId));
    expect(ids.size).toBe(VISITORS);

    const blockers2 = block();
    await sleep(300);
    const bookings = await Promise.all(
      [...ids].map((id, n) =>
        untilServed(() =>
          send('PUT', `/api/transactions/${id}/booking`, {
            salutation: 'NONE',
            firstName: 'Busy',
            lastName: `Visitor ${n}`,
            email: `busy.${n}@example.org`,
            phone: '+431234567',
            accessibility: false,
            language: 'de',
          }),
        ),
      ),
    );
    await Promise.all(blockers2);
    expect(bookings.flatMap((b) => b.shed).length).toBeGreaterThan(0);
    expect(bookings.map((b) => b.last.status)).toEqual(Array(VISITORS).fill(200));

    // The log: one hold and one booking per visitor, none twice.
    const log = await suite.db.pool.query<{ event_type: string; n: number }>(
      `SELECT event_type, count(*)::int AS n FROM events
        WHERE stream_id = $1 AND event_type IN ('TicketHeld', 'TicketBooked') GROUP BY event_type`,
      [`timeslot-${slotId}`],
    );
    expect(Object.fromEntries(log.rows.map((r) => [r.event_type, r.n]))).toEqual({
      TicketHeld: VISITORS,
      TicketBooked: VISITORS,
    });
  });

  it('answers health, readiness and metrics however busy the process is', async () => {
    const blockers = block();
    await sleep(300);
    // A burst beyond the two turns and the line of two: some of it is shed at once.
    const burst = Array.from({ length: 8 }, () => send('GET', '/api/rooms'));
    const shed = await Promise.any(
      burst.map((p) => p.then((a) => (a.status === 503 ? a : Promise.reject(new Error('served'))))),
    );
    expect(shed.body.error).toBe('service__overloaded');
    const health = await send('GET', '/api/healthz');
    expect(health.status).toBe(200);
    const ready = await send('GET', '/api/readyz');
    expect(ready.status).toBe(200);
    const metrics = await fetch(`${suite.app.baseUrl}/api/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('rr_');
    await Promise.all([...blockers, ...burst]);
  });
});
