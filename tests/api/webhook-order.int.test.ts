// The order of webhook deliveries (docs/product.md#integrations), with the default of one attempt
// at a time per endpoint (WEBHOOK_CONCURRENCY_PER_ENDPOINT unset): an endpoint gets its due
// deliveries the oldest due first, one at a time, a retry after the events recorded meanwhile;
// and when the process has no free place, a failing endpoint's due retries wait behind another
// endpoint's deliveries. Receivers listen on 127.0.0.1 and hold their answers as long as the test
// wants; every due time is the injected clock's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, systemClock, todayIn } from '@rr/platform';
import {
  Client,
  openAdminSuite,
  startTestApp,
  type AdminSuite,
  type TestApp,
} from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const clock = new ManualClock(systemClock.now());
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
const env = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_INTERVAL_MS: '50',
};
let suite: AdminSuite;
let roomId: string;
/** The app started by the second test (the suite closes only the first). */
let bounded: TestApp | null = null;
const receivers: WebhookReceiver[] = [];

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** Holds every request to the receiver until the test answers it (`answer(n, status)`). */
function holding(r: WebhookReceiver) {
  const pending: ((status: number) => void)[] = [];
  r.answer = () => new Promise<number>((resolve) => pending.push(resolve));
  return { answer: (n: number, status: number) => pending[n]!(status) };
}

async function createEndpoint(url: string, eventTypes: string[]): Promise<string> {
  const res = await suite.admin.request('POST', '/api/admin/webhooks', {
    json: { url, eventTypes },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const removeEndpoint = async (id: string) =>
  expect((await suite.admin.request('DELETE', `/api/admin/webhooks/${id}`)).status).toBe(204);

async function rows(endpointId: string) {
  return (
    await suite.db.pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpointId],
    )
  ).rows;
}

/** Waits until the endpoint's outbox holds `n` deliveries (the reactor writes them after the log). */
const enqueued = (endpointId: string, n: number) =>
  waitFor(
    `${n} deliveries enqueued`,
    async () => (await rows(endpointId)).length === n,
    budget(10_000),
  );

const requests = (r: WebhookReceiver, n: number) =>
  waitFor(`${n} requests`, () => r.received.length >= n, budget(10_000));

/** The slot each request to the receiver told of (timeslot.created). */
const slotsTold = (r: WebhookReceiver) =>
  r.received.map((x) => (JSON.parse(x.body) as { data: { timeSlotId: string } }).data.timeSlotId);

/** Nothing more arrives for a while though deliveries are due (the job runs every 50 ms). */
async function staysAt(r: WebhookReceiver, n: number) {
  await sleep(budget(400));
  expect(r.received).toHaveLength(n);
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env });
  roomId = await createRoom(suite.admin, 'Webhook order room', {
    openStartValue: 0,
    openEndValue: 365,
    openEndType: 'DAY',
  });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await bounded?.close();
  await suite.close();
});

describe('one endpoint', () => {
  it('gets its due deliveries one at a time, the oldest due first, a retry after the events recorded meanwhile', async () => {
    const hooks = await receiver();
    const held = holding(hooks);
    const endpoint = await createEndpoint(hooks.url, ['timeslot.created']);
    const slotAt = (start: string, end: string) =>
      createSlot(suite.admin, roomId, day(3), start, end, 5);

    // Second 0: slot A, its delivery held open. Second 1: slot B, due at once, waits its turn.
    const a = await slotAt('08:00', '09:00');
    await requests(hooks, 1);
    clock.advance(1000);
    const b = await slotAt('09:00', '10:00');
    await enqueued(endpoint, 2);
    await staysAt(hooks, 1);
    // A fails: its retry is due 30 seconds later, B goes now.
    held.answer(0, 500);
    await requests(hooks, 2);
    // While B's attempt is held: slot C at second 20, before A's retry is due, and slot D at
    // second 40, after it. All three are due then, and wait.
    clock.advance(19_000);
    const c = await slotAt('10:00', '11:00');
    clock.advance(20_000);
    const d = await slotAt('11:00', '12:00');
    await enqueued(endpoint, 4);
    await staysAt(hooks, 2);
    // Answered one by one, each next is the oldest due: C (second 20), A's retry (31), D (40).
    for (let n = 1; n <= 3; n++) {
      held.answer(n, 200);
      await requests(hooks, n + 2);
      await staysAt(hooks, n + 2);
    }
    held.answer(4, 200);
    expect(slotsTold(hooks)).toEqual([a, b, c, a, d]);
    expect(hooks.mostOpen).toBe(1);
    // A's retry is the same delivery as its first attempt.
    expect(hooks.received[3]!.headers['webhook-id']).toBe(hooks.received[0]!.headers['webhook-id']);
    await waitFor(
      'every delivery delivered',
      async () => (await rows(endpoint)).every((x) => x.status === 'delivered'),
      budget(10_000),
    );
    await removeEndpoint(endpoint);
  });
});

describe('a failing endpoint', () => {
  it("waits with its due retries behind another endpoint's delivery when the process has one place", async () => {
    // An app of its own that sends one attempt at a time in all (the suite's stops first: one
    // sender at a time).
    await suite.app.close();
    bounded = await startTestApp(suite.db, clock, { env: { ...env, WEBHOOK_CONCURRENCY: '1' } });
    suite.app = bounded;
    suite.admin = new Client(suite.app.baseUrl).shareSession(suite.admin);
    const arrivals: string[] = [];
    const failingHooks = await receiver();
    failingHooks.answer = () => (arrivals.push('failing'), 500);
    const healthyHooks = await receiver();
    healthyHooks.answer = () => (arrivals.push('healthy'), 200);
    const busyHooks = await receiver();
    const busy = holding(busyHooks);
    const failing = await createEndpoint(failingHooks.url, ['timeslot.created']);
    const healthy = await createEndpoint(healthyHooks.url, ['timeslot.created']);
    const other = await createEndpoint(busyHooks.url, ['timeslot.changed']);

    // Slot 1 at second 0: the failing endpoint answers 500 (its retry due at second 30).
    const first = await createSlot(suite.admin, roomId, day(4), '08:00', '09:00', 5);
    await waitFor(
      'both first attempts recorded',
      async () =>
        (await rows(failing))[0]?.attempts === 1 &&
        (await rows(healthy))[0]?.status === 'delivered',
      budget(10_000),
    );
    expect((await rows(failing))[0]!.status).toBe('pending');
    // The one place taken by a held attempt to a third endpoint.
    const change = await suite.admin.request(
      'PUT',
      `/api/admin/rooms/${roomId}/timeslots/${first}`,
      { json: { startTime: '08:00', endTime: '09:00', capacity: 6 } },
    );
    expect(change.status, await change.clone().text()).toBeLessThan(300);
    await requests(busyHooks, 1);
    // At second 60, slot 2: the failing endpoint's retry (due at 30) is older than the healthy
    // endpoint's new delivery (due at 60); both wait for the place.
    clock.advance(60_000);
    const second = await createSlot(suite.admin, roomId, day(4), '09:00', '10:00', 5);
    await enqueued(healthy, 2);
    await enqueued(failing, 2);
    const before = arrivals.length;
    busy.answer(0, 200);
    await requests(healthyHooks, 2);
    await waitFor(
      'the failing endpoint tried again',
      () => failingHooks.received.length >= 3,
      budget(10_000),
    );
    // The healthy endpoint first, the failing one's retry and its new delivery after it.
    expect(arrivals.slice(before)).toEqual(['healthy', 'failing', 'failing']);
    expect(slotsTold(healthyHooks)).toEqual([first, second]);
    expect(slotsTold(failingHooks).sort()).toEqual([first, first, second].sort());
    for (const id of [failing, healthy, other]) await removeEndpoint(id);
  });
});
