// Webhooks: endpoints staff register, deliveries from the log, signed (Standard Webhooks),
// retried by the injected clock, kept across a restart, free of personal data, never sent to an
// internal address, and never held up by another endpoint that hangs or drips. Receivers listen
// on 127.0.0.1 and 127.0.0.2 only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '@rr/contracts';
import { releaseNoShows, matchWaitlists } from '@rr/command-service';
import { addDays, instantOf, ManualClock, systemClock, todayIn } from '@rr/platform';
import {
  Client,
  openAdminSuite,
  startTestApp,
  type AdminSuite,
  type TestApp,
  type TestAppOptions,
} from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { freePort } from '../support/ports.ts';
import { budget } from '../support/time-budget.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Near the real time: receivers check the signature's timestamp against their own clock.
const clock = new ManualClock(systemClock.now());
const TZ = 'Europe/Vienna';
const day = (n: number) => addDays(todayIn(clock.now(), TZ), n);
const options: TestAppOptions = {
  env: {
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_INTERVAL_MS: '50',
    // Above the default of one, so that the bound per endpoint is seen holding.
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
  },
};
let suite: AdminSuite;
let roomId: string;
const open = { openStartValue: 0, openStartType: 'DAY', openEndValue: 365, openEndType: 'DAY' };

const visitor = {
  salutation: 'MS',
  title: 'Dr.',
  firstName: 'Zelda',
  lastName: 'Zumpelfeld',
  email: 'zelda.zumpelfeld@example.at',
  phone: '+43 664 987654',
  organisation: 'Zumpelwerk GmbH',
  accessibility: false,
  language: 'de',
};
/** What must never be found in a payload. */
const personal = ['Zelda', 'Zumpelfeld', 'zelda.zumpelfeld', 'example.at', '987654', 'Zumpelwerk'];

interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  secret?: string;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  payload: string;
}

async function createEndpoint(
  url: string,
  eventTypes: readonly string[],
  admin = suite.admin,
): Promise<Endpoint & { secret: string }> {
  const res = await admin.request('POST', '/api/admin/webhooks', { json: { url, eventTypes } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Endpoint & { secret: string };
}

async function deliveries(endpointId: string, admin = suite.admin): Promise<Delivery[]> {
  const res = await admin.get(`/api/admin/webhooks/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  return (await res.json()) as Delivery[];
}

const removeEndpoint = async (id: string, admin = suite.admin) =>
  expect((await admin.request('DELETE', `/api/admin/webhooks/${id}`)).status).toBe(204);

let visitors = 0;
/** Books seats of slots for the visitor; answers the owner id, booking number and ticket ids. */
async function book(slotIds: string[], baseUrl = suite.app.baseUrl) {
  const v = new Client(baseUrl);
  let transactionId = '';
  for (const timeSlotId of slotIds) {
    const res = transactionId
      ? await v.request('POST', `/api/transactions/${transactionId}/tickets`, {
          json: { timeSlotId },
        })
      : await v.request('POST', '/api/transactions', { json: { timeSlotId } });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    transactionId ||= ((await res.json()) as { transactionId: string }).transactionId;
  }
  // One person per booking: the per-visitor limits are not what this test is about (a `+tag`
  // would be the same person, docs/product.md#one-person-one-key).
  visitors += 1;
  const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: { ...visitor, email: `zelda.zumpelfeld.${visitors}@example.at` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const booked = (await res.json()) as {
    ownerId: string;
    bookingNumber: string;
    tickets: { id: string }[];
  };
  return { client: v, transactionId, ...booked, ticketIds: booked.tickets.map((t) => t.id) };
}

const waitForRequests = (r: WebhookReceiver, n: number, what = `${n} requests`) =>
  waitFor(what, () => r.received.length >= n, budget(10_000));

/** Nothing more arrives for a while (the delivery job runs every 50 ms). */
async function staysAt(r: WebhookReceiver, n: number) {
  await sleep(budget(400));
  expect(r.received).toHaveLength(n);
}

const receivers: WebhookReceiver[] = [];
/** The app started again by the restart test (the suite closes only the first). */
let restarted: TestApp | null = null;
async function receiver(host = '127.0.0.1', port = 0) {
  const r = await startReceiver(host, port);
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, options);
  roomId = await createRoom(suite.admin, 'Webhook room', open);
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await restarted?.close();
  await suite.close();
});

describe('webhook deliveries', () => {
  it('a booking yields one booking.created that standardwebhooks verifies, without the visitor', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(hooks.url, ['booking.created']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url: hooks.url, enabled: true, disabledReason: null });
    const slot = await createSlot(suite.admin, roomId, day(3), '09:00', '11:00', 5);
    const booking = await book([slot]);

    await waitForRequests(hooks, 1);
    await staysAt(hooks, 1);
    const [got] = hooks.received;
    expect(got!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(got!.headers['webhook-timestamp']).toBe(
      String(Math.floor(clock.now().getTime() / 1000)),
    );
    expect(got!.headers['content-type']).toBe('application/json');
    const payload = new Webhook(endpoint.secret).verify(got!.body, got!.headers) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(payload).toEqual({
      type: 'booking.created',
      timestamp: expect.any(String) as string,
      data: {
        bookingId: booking.transactionId,
        seats: 1,
        tickets: [
          {
            ticketId: booking.ticketIds[0],
            timeSlotId: slot,
            roomId,
            roomName: 'Webhook room',
            date: day(3),
            startTime: '09:00',
            endTime: '11:00',
            // A room without a seat plan: the ticket has no seat.
            seat: null,
          },
        ],
      },
    });
    // Another secret does not verify it.
    const other = await createEndpoint(hooks.url, ['room.changed']);
    expect(() => new Webhook(other.secret).verify(got!.body, got!.headers)).toThrow();
    for (const word of [...personal, booking.ownerId, booking.bookingNumber])
      expect(got!.body).not.toContain(word);

    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({
      id: got!.headers['webhook-id'],
      eventType: 'booking.created',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      payload: got!.body,
    });
    // The secret is derived at every delivery, never stored.
    const row = await suite.db.pool.query('SELECT * FROM webhook_endpoints WHERE id = $1', [
      endpoint.id,
    ]);
    expect(JSON.stringify(row.rows)).not.toContain(endpoint.secret.slice(6, 30));
    // The list never shows a secret.
    const list = await (await suite.admin.get('/api/admin/webhooks')).text();
    expect(list).not.toContain(endpoint.secret.slice(6));
    expect(list).toContain(endpoint.id);
    await removeEndpoint(endpoint.id);
    await removeEndpoint(other.id);
  });

  it('retries an endpoint answering 500 twice with the same webhook-id, by the clock, until delivered', async () => {
    const hooks = await receiver();
    hooks.answer = (n) => (n < 2 ? 500 : 200);
    const endpoint = await createEndpoint(hooks.url, ['booking.created', 'booking.cancelled']);
    const slot = await createSlot(suite.admin, roomId, day(3), '11:00', '12:00', 5);
    await book([slot]);

    await waitForRequests(hooks, 1);
    // The deliverer records an attempt after the receiver answered it: wait for the record.
    const recorded = async (attempts: number) => {
      await expect.poll(async () => (await deliveries(endpoint.id))[0]?.attempts).toBe(attempts);
      return (await deliveries(endpoint.id))[0];
    };
    let d = await recorded(1);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(d!.lastError).toBe('HTTP 500');
    // The first retry comes within a minute, when the clock says so, not before.
    const retryAt = Date.parse(d!.nextAttemptAt!) - clock.now().getTime();
    expect(retryAt).toBeGreaterThan(0);
    expect(retryAt).toBeLessThanOrEqual(60_000);
    await staysAt(hooks, 1);
    clock.advance(retryAt);
    await waitForRequests(hooks, 2);
    d = await recorded(2);
    expect(d).toMatchObject({ status: 'pending', attempts: 2, lastStatusCode: 500 });
    const secondDelay = Date.parse(d!.nextAttemptAt!) - clock.now().getTime();
    expect(secondDelay).toBeGreaterThan(retryAt);
    await staysAt(hooks, 2);
    clock.advance(secondDelay);
    await waitForRequests(hooks, 3);
    await staysAt(hooks, 3);

    const ids = hooks.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBe(d!.id);
    expect(new Set(hooks.received.map((r) => r.body)).size).toBe(1);
    for (const r of hooks.received) new Webhook(endpoint.secret).verify(r.body, r.headers);
    d = await recorded(3);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
    const shown = (await (await suite.admin.get(`/api/admin/webhooks/${endpoint.id}`)).json()) as {
      failingSince: string | null;
    };
    expect(shown.failingSince).toBeNull();
    await removeEndpoint(endpoint.id);
  });

  it('keeps what a receiver missed across a restart of the app and delivers every event once it is up', async () => {
    const port = await freePort();
    const endpoint = await createEndpoint(`http://127.0.0.1:${port}/hooks`, WEBHOOK_EVENT_TYPES);
    const slot = await createSlot(suite.admin, roomId, day(4), '09:00', '10:00', 5);
    const first = await book([slot]);
    const second = await book([slot]);
    const cancel = await first.client.request(
      'DELETE',
      `/api/owners/${first.ownerId}/tickets?ids=${first.ticketIds[0]}`,
    );
    expect(cancel.status).toBe(200);
    // The app stops at once, maybe before its subscriber saw the last events.
    await suite.app.close();
    restarted = await startTestApp(suite.db, clock, options);
    suite.app = restarted;
    const admin = new Client(restarted.baseUrl).shareSession(suite.admin);
    suite.admin = admin;
    const hooks = await receiver('127.0.0.1', port);
    // Whatever failed while the receiver was down is due again within the hour.
    clock.advance(60 * 60_000);
    await waitFor(
      'all deliveries delivered',
      async () => {
        const ds = await deliveries(endpoint.id, admin);
        // An attempt that was under way while the receiver was still down may fail only after the
        // clock moved, and its retry is then due from the moved clock: time goes on to it, as it
        // would on a real clock.
        for (const d of ds) {
          const next = d.status === 'pending' && d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : 0;
          if (next > clock.now().getTime()) clock.set(new Date(next));
        }
        return ds.length >= 4 && ds.every((x) => x.status === 'delivered');
      },
      budget(15_000),
    );
    await staysAt(hooks, hooks.received.length);
    const types = hooks.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
    expect(types.filter((t) => t === 'timeslot.created')).toHaveLength(1);
    expect(types.filter((t) => t === 'booking.created')).toHaveLength(2);
    expect(types.filter((t) => t === 'booking.cancelled')).toHaveLength(1);
    const bookingIds = hooks.received
      .map((r) => JSON.parse(r.body) as { type: string; data: { bookingId?: string } })
      .filter((p) => p.type === 'booking.created')
      .map((p) => p.data.bookingId);
    expect(bookingIds.sort()).toEqual([first.transactionId, second.transactionId].sort());
    const ids = hooks.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const stored = await deliveries(endpoint.id, admin);
    expect(stored.map((x) => x.id).sort()).toEqual([...ids].sort());
    await removeEndpoint(endpoint.id, admin);
  });
});

describe('the OpenAPI document', () => {
  it('describes every webhook and calendar-feed route', async () => {
    const doc = (await (await suite.admin.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
    };
    const methods = (p: string) => Object.keys(doc.paths[p] ?? {}).sort();
    expect(methods('/api/admin/webhooks')).toEqual(['get', 'post']);
    expect(methods('/api/admin/webhooks/{id}')).toEqual(['delete', 'get', 'put']);
    expect(methods('/api/admin/webhooks/{id}/deliveries')).toEqual(['get']);
    for (const feed of ['/api/owners/{ownerId}/tickets.ics', '/api/admin/rooms/{id}/calendar.ics'])
      expect(Object.keys(doc.paths[feed]!.get!.responses['200']!.content ?? {})).toEqual([
        'text/calendar',
      ]);
  });
});

describe('internal addresses', () => {
  it('refuses internal URLs at creation though 127.0.0.1 is allowed, and a receiver on 127.0.0.2 sees nothing', async () => {
    const inside = await receiver('127.0.0.2');
    const port = inside.port;
    for (const url of [
      `http://127.0.0.2:${port}/hooks`,
      `http://[::1]:${port}/hooks`,
      `http://0.0.0.0:${port}/hooks`,
      `http://127.1:${port}/hooks`,
      `http://localhost:${port}/hooks`,
      `http://[::ffff:127.0.0.2]:${port}/hooks`,
      `http://0x7f000002:${port}/hooks`,
    ]) {
      const res = await suite.admin.request('POST', '/api/admin/webhooks', {
        json: { url, eventTypes: ['booking.created'] },
      });
      expect(res.status, url).toBe(400);
      const problem = (await res.json()) as { error: string; payload: string[] };
      expect(problem.error, url).toBe('webhook__url_refused');
      expect(['address', 'host']).toContain(problem.payload[0]);
    }
    // A change to an internal URL is refused the same way.
    const ok = await createEndpoint(`http://127.0.0.1:${port}/hooks`, ['booking.created']);
    const put = await suite.admin.request('PUT', `/api/admin/webhooks/${ok.id}`, {
      json: { url: `http://127.0.0.2:${port}/`, eventTypes: ['booking.created'], enabled: true },
    });
    expect(put.status).toBe(400);
    await removeEndpoint(ok.id);

    // Without WEBHOOK_ALLOW_HTTP only https is taken.
    const strict = await startTestApp(suite.db, clock, {
      env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    });
    try {
      const admin = new Client(strict.baseUrl).shareSession(suite.admin);
      const res = await admin.request('POST', '/api/admin/webhooks', {
        json: { url: `http://127.0.0.1:${port}/`, eventTypes: ['booking.created'] },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { payload: string[] }).payload[0]).toBe('scheme');
    } finally {
      await strict.close();
    }
    expect(inside.received).toHaveLength(0);
  });

  it('never follows a redirect to an internal address, and checks the address again at delivery', async () => {
    const inside = await receiver('127.0.0.2');
    const hooks = await receiver();
    hooks.answer = () => ({ redirect: `http://127.0.0.2:${inside.port}/hooks` });
    const redirecting = await createEndpoint(hooks.url, ['booking.created']);
    // An endpoint whose host came to name an internal address after it was checked (as a DNS
    // answer may change): written as the database would hold it.
    const sneaky = await createEndpoint(hooks.url, ['booking.created']);
    await suite.db.pool.query('UPDATE webhook_endpoints SET url = $2 WHERE id = $1', [
      sneaky.id,
      `http://127.0.0.2:${inside.port}/hooks`,
    ]);
    const slot = await createSlot(suite.admin, roomId, day(5), '09:00', '10:00', 5);
    await book([slot]);
    await waitForRequests(hooks, 1);
    // Both endpoints are sent to at once, and an attempt is recorded after its answer came.
    await waitFor(
      'the refused and the redirected attempt',
      async () =>
        (await deliveries(sneaky.id))[0]?.attempts === 1 &&
        (await deliveries(redirecting.id))[0]?.attempts === 1,
      budget(10_000),
    );
    const [redirected] = await deliveries(redirecting.id);
    expect(redirected).toMatchObject({
      status: 'pending',
      lastStatusCode: 307,
      lastError: 'redirect not followed',
    });
    const [refused] = await deliveries(sneaky.id);
    expect(refused).toMatchObject({ status: 'pending', lastStatusCode: null });
    expect(refused!.lastError).toMatch(/^refused \(address\)/);
    // The retries go the same way.
    clock.advance(60_000);
    await waitForRequests(hooks, 2);
    await sleep(budget(400));
    expect(inside.received).toHaveLength(0);
    await removeEndpoint(redirecting.id);
    await removeEndpoint(sneaky.id);
  });
});

describe('an endpoint failing for a day', () => {
  it('is disabled with its reason; its deliveries are given up after 24 hours; switched on it starts afresh', async () => {
    const hooks = await receiver();
    hooks.answer = () => 503;
    const endpoint = await createEndpoint(hooks.url, ['timeslot.created']);
    await createSlot(suite.admin, roomId, day(6), '09:00', '10:00', 5);
    await waitForRequests(hooks, 1);
    // Attempt after attempt, by the clock, until a day has passed.
    for (let i = 0; i < 40; i++) {
      const [d] = await deliveries(endpoint.id);
      if (d!.status !== 'pending') break;
      const shown = (await (
        await suite.admin.get(`/api/admin/webhooks/${endpoint.id}`)
      ).json()) as Endpoint;
      if (!shown.enabled) break;
      const before = d!.attempts;
      clock.set(new Date(Date.parse(d!.nextAttemptAt!)));
      await waitFor(
        'the next attempt',
        async () => (await deliveries(endpoint.id))[0]!.attempts > before,
        budget(10_000),
      );
    }
    const [d] = await deliveries(endpoint.id);
    expect(d).toMatchObject({ status: 'failed', lastStatusCode: 503 });
    expect(d!.attempts).toBeGreaterThanOrEqual(8);
    const shown = (await (
      await suite.admin.get(`/api/admin/webhooks/${endpoint.id}`)
    ).json()) as Endpoint & { disabledDetail: string; disabledAt: string };
    expect(shown).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      disabledDetail: 'HTTP 503',
    });
    // Disabled, it gets nothing new.
    const n = hooks.received.length;
    await createSlot(suite.admin, roomId, day(6), '10:00', '11:00', 5);
    await staysAt(hooks, n);
    expect(await deliveries(endpoint.id)).toHaveLength(1);

    hooks.answer = () => 204;
    const on = await suite.admin.request('PUT', `/api/admin/webhooks/${endpoint.id}`, {
      json: { url: hooks.url, eventTypes: ['timeslot.created'], enabled: true },
    });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    await createSlot(suite.admin, roomId, day(6), '11:00', '12:00', 5);
    await waitForRequests(hooks, n + 1);
    await waitFor(
      'the new delivery delivered',
      async () => (await deliveries(endpoint.id))[0]!.status === 'delivered',
      budget(10_000),
    );
    await removeEndpoint(endpoint.id);
  });
});

describe('payloads', () => {
  it('of every type carry no personal data of the visitor', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(hooks.url, WEBHOOK_EVENT_TYPES);
    const room = await createRoom(suite.admin, 'Payload room', open);
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20, waitlistOfferMinutes: 30 },
    });
    expect(services.status).toBe(200);
    // A seat plan, so that a booked ticket can change its seat.
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${room}/seats`, {
      json: {
        seats: ['A', 'B', 'C', 'D', 'E', 'F'].map((label, i) => ({ label, x: 10 * i, y: 0 })),
      },
    });
    expect(plan.status, await plan.clone().text()).toBe(200);
    const seatF = ((await plan.json()) as { seats: { id: string; label: string }[] }).seats.at(-1)!;
    const date = day(2);
    const slot = await createSlot(suite.admin, room, date, '10:00', '12:00', 3);
    const full = await createSlot(suite.admin, room, date, '13:00', '14:00', 1);
    const gone = await createSlot(suite.admin, room, day(9), '13:00', '14:00', 1);
    const capacity = await suite.admin.request(
      'PUT',
      `/api/admin/rooms/${room}/timeslots/${slot}`,
      { json: { startTime: '10:00', endTime: '12:00', capacity: 4 } },
    );
    expect(capacity.status, await capacity.clone().text()).toBeLessThan(300);
    expect(
      (await suite.admin.request('DELETE', `/api/admin/rooms/${room}/timeslots/${gone}`)).status,
    ).toBeLessThan(300);

    const checkedIn = await book([slot]);
    // Staff's words may name the visitor: the move is told without them.
    const seatChange = await suite.admin.request(
      'PUT',
      `/api/admin/tickets/${checkedIn.ticketIds[0]}/seat`,
      { json: { seatId: seatF.id, reason: 'Zelda Zumpelfeld wollte ans Fenster' } },
    );
    expect(seatChange.status, await seatChange.clone().text()).toBe(200);
    const noShow = await book([slot]);
    const holder = await book([full]);
    // A rebooking: told once, as the move, not as a cancellation of the old ticket.
    const mover = await book([slot]);
    const later = await createSlot(suite.admin, room, date, '15:00', '16:00', 2);
    const moved = await mover.client.request(
      'POST',
      `/api/owners/${mover.ownerId}/tickets/${mover.ticketIds[0]}/move`,
      { json: { timeSlotId: later } },
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newTicketId = ((await moved.json()) as { id: string }).id;
    const waiting = await new Client(suite.app.baseUrl).request(
      'POST',
      `/api/timeslots/${full}/waitlist`,
      { json: { email: 'waiting.zumpelfeld@example.at', language: 'en' } },
    );
    expect(waiting.status, await waiting.clone().text()).toBeLessThan(300);
    const cancelled = await holder.client.request(
      'DELETE',
      `/api/owners/${holder.ownerId}/tickets?ids=${holder.ticketIds[0]}`,
    );
    expect(cancelled.status).toBe(200);
    expect(await matchWaitlists(suite.app.deps)).toBe(1);

    clock.set(instantOf(date, '10:00', TZ));
    const check = await suite.admin.request(
      'POST',
      `/api/admin/tickets/${checkedIn.ticketIds[0]}/check-in`,
    );
    expect(check.status, await check.clone().text()).toBe(200);
    clock.set(instantOf(date, '10:21', TZ));
    expect(await releaseNoShows(suite.app.deps)).toBeGreaterThanOrEqual(1);

    await waitFor(
      'a payload of every type',
      () =>
        WEBHOOK_EVENT_TYPES.every((t) =>
          hooks.received.some((r) => (JSON.parse(r.body) as { type: string }).type === t),
        ),
      budget(15_000),
    );
    const stored = await suite.db.pool.query<{ payload: string }>(
      'SELECT payload FROM webhook_deliveries',
    );
    const owners = [checkedIn, noShow, holder, mover].flatMap((b) => [b.ownerId, b.bookingNumber]);
    for (const body of [...hooks.received.map((r) => r.body), ...stored.rows.map((r) => r.payload)])
      for (const word of [...personal, 'waiting', ...owners])
        expect(body.toLowerCase(), body).not.toContain(word.toLowerCase());
    const byType = (t: string) =>
      hooks.received
        .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
        .filter((p) => p.type === t);
    expect(byType('ticket.checked_in')[0]!.data).toMatchObject({
      ticketId: checkedIn.ticketIds[0],
      timeSlotId: slot,
      roomId: room,
      roomName: 'Payload room',
      date,
      startTime: '10:00',
      endTime: '12:00',
      capacity: 4,
    });
    expect(byType('ticket.no_show')[0]!.data).toMatchObject({ ticketId: noShow.ticketIds[0] });
    expect(byType('ticket.seat_changed')).toHaveLength(1);
    expect(byType('ticket.seat_changed')[0]!.data).toMatchObject({
      ticketId: checkedIn.ticketIds[0],
      timeSlotId: slot,
      roomId: room,
      seat: { id: seatF.id, label: 'F' },
      seatBefore: { label: 'A' },
    });
    expect(byType('booking.moved')).toHaveLength(1);
    expect(byType('booking.moved')[0]!.data).toMatchObject({
      ticketId: newTicketId,
      timeSlotId: later,
      startTime: '15:00',
      seatsBooked: 1,
      seatsFree: 1,
      movedFrom: { ticketId: mover.ticketIds[0], timeSlotId: slot, startTime: '10:00' },
    });
    expect(byType('booking.cancelled').map((p) => p.data.ticketId)).toEqual([holder.ticketIds[0]]);
    expect(byType('waitlist.offered')[0]!.data).toMatchObject({
      timeSlotId: full,
      seatsBooked: 0,
      seatsFree: 1,
    });
    expect(byType('timeslot.changed').map((p) => p.data)).toContainEqual(
      expect.objectContaining({ timeSlotId: slot, capacity: 4, seatsBooked: 0, seatsFree: 4 }),
    );
    expect(byType('timeslot.deleted')[0]!.data).toMatchObject({ timeSlotId: gone, roomId: room });
    expect(byType('room.changed').map((p) => p.data.change)).toEqual(
      expect.arrayContaining(['created', 'services']),
    );
    await removeEndpoint(endpoint.id);
  });
});

describe('an endpoint that never answers and one that answers a byte a second', () => {
  it('delay only their own deliveries: a healthy endpoint gets every booking at once, retries or not', async () => {
    const hanging = await receiver();
    hanging.answer = () => 'hang';
    const dripping = await receiver();
    dripping.answer = () => 'drip';
    const healthy = await receiver();
    const types = ['booking.created'];
    const dead = await createEndpoint(hanging.url, types);
    const slow = await createEndpoint(dripping.url, types);
    const good = await createEndpoint(healthy.url, types);
    const slot = await createSlot(suite.admin, roomId, day(7), '09:00', '18:00', 40);
    const booked: string[] = [];
    const bookSome = async (n: number) => {
      for (let i = 0; i < n; i++) booked.push((await book([slot])).transactionId);
    };
    const bookingIdsAt = (r: WebhookReceiver) =>
      r.received.map((x) => (JSON.parse(x.body) as { data: { bookingId: string } }).data.bookingId);
    const recorded = async (endpointId: string) =>
      (
        await suite.db.pool.query<{ status: string; attempts: number; last_error: string | null }>(
          'SELECT status, attempts, last_error FROM webhook_deliveries WHERE endpoint_id = $1',
          [endpointId],
        )
      ).rows;

    // Every attempt to the two others takes the whole 10 s limit: one after another, 20 bookings
    // would keep the healthy receiver waiting for minutes.
    await bookSome(20);
    await waitForRequests(healthy, 20, 'every booking at the healthy receiver');
    expect(bookingIdsAt(healthy).sort()).toEqual([...booked].sort());
    // An attempt is recorded after its answer came.
    const deliveredOnce = async (n: number) => {
      const rows = await recorded(good.id);
      return rows.length === n && rows.every((d) => d.status === 'delivered' && d.attempts === 1);
    };
    await waitFor('20 deliveries recorded delivered', () => deliveredOnce(20), budget(5_000));
    // The others get as many attempts at once as the bound per endpoint allows, not more.
    expect(hanging.mostOpen).toBe(2);
    expect(dripping.mostOpen).toBe(2);

    // The limit covers the whole exchange: the dripping answer is cut off, though a byte comes
    // every second, and both failures are recorded as timeouts.
    await waitFor(
      'the first attempts of the hanging and the dripping endpoint recorded',
      async () =>
        (await recorded(dead.id)).some((d) => d.attempts > 0) &&
        (await recorded(slow.id)).some((d) => d.attempts > 0),
      budget(20_000),
    );
    for (const endpoint of [dead, slow]) {
      const tried = (await recorded(endpoint.id)).filter((d) => d.attempts > 0);
      expect(tried.length).toBeGreaterThanOrEqual(1);
      expect(tried.every((d) => d.status === 'pending' && d.last_error === 'timeout')).toBe(true);
    }
    expect(dripping.received[0]!.closed).toBe(true);
    expect(hanging.received[0]!.closed).toBe(true);

    // Their retries come due beside new deliveries: the healthy receiver still gets its own at once.
    clock.advance(60_000);
    await bookSome(5);
    await waitForRequests(healthy, 25, 'the later bookings at the healthy receiver');
    expect(bookingIdsAt(healthy).sort()).toEqual([...booked].sort());
    await waitFor('25 deliveries recorded delivered', () => deliveredOnce(25), budget(5_000));
    expect(hanging.mostOpen).toBe(2);
    expect(dripping.mostOpen).toBe(2);
    for (const endpoint of [dead, slow, good]) await removeEndpoint(endpoint.id);
  });
});

describe('the bound over all endpoints', () => {
  it('holds WEBHOOK_CONCURRENCY attempts at once; a stop cuts them off and counts none of them', async () => {
    // An app of its own with a bound of 3 (the suite's app stops first: one sender at a time).
    await suite.app.close();
    const bounded = await startTestApp(suite.db, clock, {
      env: { ...options.env, WEBHOOK_CONCURRENCY: '3' },
    });
    const admin = new Client(bounded.baseUrl).shareSession(suite.admin);
    const hanging = await Promise.all([1, 2, 3, 4].map(() => receiver()));
    for (const r of hanging) r.answer = () => 'hang';
    const endpoints = [];
    for (const r of hanging)
      endpoints.push(await createEndpoint(r.url, ['timeslot.created'], admin));
    await createSlot(admin, roomId, day(8), '09:00', '10:00', 5);
    const open = () => hanging.reduce((n, r) => n + r.open, 0);
    try {
      await waitFor('three attempts under way', () => open() === 3, budget(10_000));
      await sleep(budget(400));
      expect(open()).toBe(3);
    } finally {
      await bounded.close();
    }
    // Stopped, the sender hangs up; an attempt cut off so is no failure of its endpoint's: the
    // deliveries are due again for the next sender, none of them tried.
    await waitFor('the receivers hung up on', () => open() === 0, budget(5_000));
    const rows = await suite.db.pool.query<{
      status: string;
      attempts: number;
      lease_owner: string | null;
    }>(
      'SELECT status, attempts, lease_owner FROM webhook_deliveries WHERE endpoint_id = ANY($1::uuid[])',
      [endpoints.map((e) => e.id)],
    );
    expect(rows.rows).toHaveLength(4);
    for (const d of rows.rows)
      expect(d).toEqual({ status: 'pending', attempts: 0, lease_owner: null });

    // The suite's app again, for whatever runs after.
    restarted = await startTestApp(suite.db, clock, options);
    suite.app = restarted;
    suite.admin = new Client(restarted.baseUrl).shareSession(suite.admin);
    for (const e of endpoints) await removeEndpoint(e.id);
  });
});

describe('webhooks of a room with a seat plan', () => {
  it("name each ticket's seat: booked, moved at the desk, cancelled and rebooked", async () => {
    const hooks = await receiver();
    await createEndpoint(hooks.url, ['booking.created', 'booking.cancelled', 'booking.moved']);
    const room = await createRoom(suite.admin, 'Seat webhook room', open);
    const put = await suite.admin.request('PUT', `/api/admin/rooms/${room}/seats`, {
      json: {
        seats: [
          { label: 'W1', attributes: ['window'], x: 10, y: 10 },
          { label: 'W2', attributes: ['window'], x: 30, y: 10 },
          { label: 'W3', x: 50, y: 10 },
        ],
      },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const answer = (await put.json()) as { seats: { id: string; label: string }[] };
    const seat = (label: string) => ({
      id: answer.seats.find((s) => s.label === label)!.id,
      label,
    });
    const date = day(20);
    const slot = await createSlot(suite.admin, room, date, '09:00', '11:00', 3);
    const later = await createSlot(suite.admin, room, date, '13:00', '15:00', 3);
    /** Books the seat of the slot for a visitor of their own. */
    const bookSeat = async (label: string, email: string) => {
      const v = new Client(suite.app.baseUrl);
      const held = await v.request('POST', '/api/transactions', {
        json: { timeSlotId: slot, seatId: seat(label).id },
      });
      expect(held.status, await held.clone().text()).toBe(201);
      const { transactionId } = (await held.json()) as { transactionId: string };
      const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
        json: { ...visitor, email },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const b = (await res.json()) as { ownerId: string; tickets: { id: string }[] };
      return { client: v, ownerId: b.ownerId, ticketId: b.tickets[0]!.id };
    };

    // On W1, moved to W2 at the desk (no webhook of its own), then cancelled: told on W2.
    const first = await bookSeat('W1', 'seat.webhook.1@example.at');
    const desk = await suite.admin.request('PUT', `/api/admin/tickets/${first.ticketId}/seat`, {
      json: { seatId: seat('W2').id, reason: 'Lampe kaputt' },
    });
    expect(desk.status, await desk.clone().text()).toBeLessThan(300);
    const cancelled = await first.client.request(
      'DELETE',
      `/api/owners/${first.ownerId}/tickets?ids=${first.ticketId}`,
    );
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    // On W3, rebooked to the afternoon on W1: the move names both seats.
    const second = await bookSeat('W3', 'seat.webhook.2@example.at');
    const moved = await second.client.request(
      'POST',
      `/api/owners/${second.ownerId}/tickets/${second.ticketId}/move`,
      { json: { timeSlotId: later, seatId: seat('W1').id } },
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newTicketId = ((await moved.json()) as { id: string }).id;

    await waitForRequests(hooks, 4, 'two bookings, a cancellation and a move');
    const payloads = hooks.received.map(
      (r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> },
    );
    const byType = (t: string) => payloads.filter((p) => p.type === t).map((p) => p.data);
    expect(byType('booking.created').map((d) => d.tickets)).toEqual([
      [expect.objectContaining({ ticketId: first.ticketId, seat: seat('W1') })],
      [expect.objectContaining({ ticketId: second.ticketId, seat: seat('W3') })],
    ]);
    expect(byType('booking.cancelled')).toEqual([
      expect.objectContaining({ ticketId: first.ticketId, seat: seat('W2') }),
    ]);
    expect(byType('booking.moved')).toEqual([
      expect.objectContaining({
        ticketId: newTicketId,
        timeSlotId: later,
        seat: seat('W1'),
        movedFrom: expect.objectContaining({
          ticketId: second.ticketId,
          timeSlotId: slot,
          seat: seat('W3'),
        }) as unknown,
      }),
    ]);
  });
});
