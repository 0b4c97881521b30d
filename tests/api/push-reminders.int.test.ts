// Reminders as web push notifications: a browser's subscription kept by the owner id, the
// reminder job's notification per subscription, encrypted to the browser's keys and signed with
// the server's VAPID key, sent by the push job to a push service on 127.0.0.1 (allowed by
// WEB_PUSH_ALLOW_HTTP and WEB_PUSH_ALLOWED_HOSTS, as the webhooks' tests allow theirs), retried
// by the injected clock, a subscription the push service no longer knows forgotten, and every
// subscription erased with the booking's personal data.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { PUSH_SUBSCRIPTIONS_PER_OWNER } from '@rr/contracts';
import { erasePersonalData } from '@rr/command-service';
import { pushPolicyOf, PushSender, PUSH_RETRY_DELAYS_MS } from '@rr/integrations';
import { createLogger, ManualClock } from '@rr/platform';
import { composeReminderPush, enqueueDueReminders } from '@rr/projections';
import { Client, openAdminSuite, startTestApp, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, REMINDED_READER } from '../support/fixtures.ts';
import {
  browserSubscription,
  startPushService,
  vapidClaims,
  type PushService,
} from '../support/push-receiver.ts';

const START = new Date('2026-11-23T09:00:00Z'); // a Monday; rooms open from two days ahead
const clock = new ManualClock(START);
const TZ = 'Europe/Vienna';
/** 09:00 in Vienna (CET all through these weeks) on a day. */
const nineOClock = (day: string) => new Date(`${day}T08:00:00Z`);
const hours = (n: number) => n * 3_600_000;
const vapid = webpush.generateVAPIDKeys();
const SUBJECT = 'mailto:lesesaal@library.example';

let suite: AdminSuite;
let service: PushService;
let sender: PushSender;

const reader = REMINDED_READER;

const job = () =>
  enqueueDueReminders({ pool: suite.db.pool, clock, logger: createLogger('silent'), timeZone: TZ });

async function roomWithReminders(name: string): Promise<string> {
  const id = await createRoom(suite.admin, name);
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, {
    json: { reminderHoursBefore: 24 },
  });
  expect(res.status).toBe(200);
  return id;
}

/** Books a slot as a visitor; answers once the read model shows the ticket booked. */
async function book(slotId: string, extra: Record<string, unknown> = {}) {
  const client = new Client(suite.app.baseUrl);
  const cart = (await (
    await client.request('POST', '/api/transactions', { json: { timeSlotId: slotId } })
  ).json()) as { transactionId: string };
  const res = await client.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
    json: { ...reader, ...extra },
  });
  expect(res.status).toBe(200);
  const booking = (await res.json()) as { ownerId: string; bookingNumber: string };
  await expect
    .poll(async () => {
      const r = await suite.db.pool.query(
        `SELECT 1 FROM rm_tickets WHERE owner_id = $1 AND status = 'BOOKED'`,
        [booking.ownerId],
      );
      return r.rowCount;
    })
    .toBe(1);
  return { client, ...booking };
}

const subscribe = (client: Client, ownerId: string, json: unknown) =>
  client.request('POST', `/api/owners/${ownerId}/push-subscriptions`, { json });

async function subscriptionsOf(ownerId: string): Promise<string[]> {
  const r = await suite.db.pool.query<{ endpoint: string }>(
    'SELECT endpoint FROM push_subscriptions WHERE owner_id = $1 ORDER BY endpoint',
    [ownerId],
  );
  return r.rows.map((x) => x.endpoint);
}

async function deliveriesOf(ownerId: string) {
  const r = await suite.db.pool.query<{ status: string; attempts: number }>(
    'SELECT status, attempts FROM push_deliveries WHERE owner_id = $1 ORDER BY id',
    [ownerId],
  );
  return r.rows;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: {
      WEB_PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
      WEB_PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
      WEB_PUSH_SUBJECT: SUBJECT,
      WEB_PUSH_ALLOW_HTTP: 'true',
      WEB_PUSH_ALLOWED_HOSTS: '127.0.0.1',
    },
  });
  service = await startPushService();
  sender = new PushSender({
    pool: suite.db.pool,
    clock,
    logger: createLogger('silent'),
    vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: SUBJECT },
    policy: pushPolicyOf(suite.app.config),
    compose: composeReminderPush({
      pool: suite.db.pool,
      store: suite.app.deps.store,
      clock,
      timeZone: TZ,
      baseUrl: 'https://library.example/reserve/',
    }),
    intervalMs: 60_000,
  });
});
afterAll(async () => {
  await sender.stop();
  await service.close();
  await suite.close();
});
// Each test books a later day than the tests before it: the job finds only its own bookings.
beforeEach(() => {
  clock.set(START);
  service.received.length = 0;
});

describe('reminders as push notifications', () => {
  it('offer the VAPID public key in the settings the visitor app reads', async () => {
    const res = await new Client(suite.app.baseUrl).request('GET', '/api/settings');
    expect(((await res.json()) as { webPushPublicKey?: string }).webPushPublicKey).toBe(
      vapid.publicKey,
    );
  });

  it('are not offered, and no subscription is kept, by a server without VAPID keys', async () => {
    const roomId = await roomWithReminders('Push-off room');
    const b = await book(await createSlot(suite.admin, roomId, '2026-11-25', '12:00', '13:00', 5));
    const plain = await startTestApp(suite.db, clock);
    try {
      const visitor = new Client(plain.baseUrl);
      const settings = (await (await visitor.request('GET', '/api/settings')).json()) as object;
      expect(settings).not.toHaveProperty('webPushPublicKey');
      const browser = browserSubscription(`${service.origin}/push/off`);
      expect((await subscribe(visitor, b.ownerId, browser.json)).status).toBe(404);
      expect(await subscriptionsOf(b.ownerId)).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('go once per subscription at the reminder time, encrypted, signed, naming room and time', async () => {
    const DAY = '2026-11-25';
    const roomId = await roomWithReminders('Rara-Lesesaal');
    const slot = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 5);
    const b = await book(slot);
    const browser = browserSubscription(`${service.origin}/push/maria`);
    expect((await subscribe(b.client, b.ownerId, browser.json)).status).toBe(201);
    // The same browser again is the same subscription.
    expect((await subscribe(b.client, b.ownerId, browser.json)).status).toBe(201);
    expect(await subscriptionsOf(b.ownerId)).toEqual([browser.json.endpoint]);

    clock.set(new Date(nineOClock(DAY).getTime() - hours(24) - 60_000));
    await job();
    expect(await sender.sendDue()).toBe(0);

    clock.set(new Date(nineOClock(DAY).getTime() - hours(24)));
    await Promise.all([job(), job()]);
    expect(await sender.sendDue()).toBe(1);
    expect(service.received).toHaveLength(1);
    const got = service.received[0]!;
    expect(got.path).toBe('/push/maria');
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(got.headers.ttl)).toBeGreaterThan(0);
    expect(browser.decrypt(got.body)).toEqual({
      title: `Erinnerung an Ihre Buchung ${b.bookingNumber}`,
      body: 'Rara-Lesesaal, 25.11.2026, 09:00–11:00 Uhr',
      url: `https://library.example/reserve/reservation-confirmation/${b.ownerId}?lang=de`,
    });
    const claims = vapidClaims(got.headers.authorization ?? '', vapid.publicKey);
    expect(claims).toMatchObject({ aud: service.origin, sub: SUBJECT });
    expect(await deliveriesOf(b.ownerId)).toEqual([{ status: 'sent', attempts: 1 }]);

    // Later rounds send nothing more.
    clock.set(new Date(nineOClock(DAY).getTime() - hours(2)));
    await job();
    expect(await sender.sendDue()).toBe(0);
    expect(service.received).toHaveLength(1);
  });

  it('are retried after a failure, and end the subscription the push service answers 410 for', async () => {
    const DAY = '2026-11-26';
    const roomId = await roomWithReminders('Reading room');
    const slot = await createSlot(suite.admin, roomId, DAY, '10:00', '12:00', 5);
    const b = await book(slot, { language: 'en', email: 'reader@example.org' });
    const flaky = browserSubscription(`${service.origin}/push/flaky`);
    const gone = browserSubscription(`${service.origin}/push/gone`);
    expect((await subscribe(b.client, b.ownerId, flaky.json)).status).toBe(201);
    expect((await subscribe(b.client, b.ownerId, gone.json)).status).toBe(201);
    service.answers.set('/push/flaky', 503);
    service.answers.set('/push/gone', 410);

    clock.set(new Date(nineOClock(DAY).getTime() - hours(23)));
    await job();
    expect(await sender.sendDue()).toBe(2);
    expect(await subscriptionsOf(b.ownerId)).toEqual([flaky.json.endpoint]);
    expect(await deliveriesOf(b.ownerId)).toEqual([{ status: 'pending', attempts: 1 }]);
    // Not before its delay; then again, now answered.
    expect(await sender.sendDue()).toBe(0);
    service.answers.set('/push/flaky', 201);
    clock.set(new Date(clock.now().getTime() + PUSH_RETRY_DELAYS_MS[0]!));
    expect(await sender.sendDue()).toBe(1);
    const last = service.received.at(-1)!;
    expect(flaky.decrypt(last.body)).toEqual({
      title: `Reminder of your booking ${b.bookingNumber}`,
      body: 'Reading room, 26.11.2026, 10:00–12:00',
      url: `https://library.example/reserve/reservation-confirmation/${b.ownerId}?lang=en`,
    });
    expect(await deliveriesOf(b.ownerId)).toEqual([{ status: 'sent', attempts: 2 }]);
  });

  it('refuse bad subscriptions with problem+json and store nothing', async () => {
    const DAY = '2026-11-27';
    const roomId = await roomWithReminders('Refusal room');
    const b = await book(await createSlot(suite.admin, roomId, DAY, '09:00', '10:00', 5));
    const good = browserSubscription(`${service.origin}/push/good`).json;
    const bad: [unknown, string][] = [
      [{}, 'validation__error'],
      [{ ...good, endpoint: 'not a url' }, 'validation__error'],
      [{ ...good, endpoint: `${service.origin}/${'x'.repeat(1000)}` }, 'validation__error'],
      [{ ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(2) } }, 'validation__error'],
      [{ ...good, keys: { ...good.keys, auth: 'AAAA' } }, 'validation__error'],
      [{ ...good, keys: { ...good.keys, auth: '+/+/+/+/+/+/+/+/+/+/+w' } }, 'validation__error'],
      [{ ...good, endpoint: 'ftp://push.example/x' }, 'validation__error'],
      // Internal addresses and plain http elsewhere than the allowed loopback host.
      [{ ...good, endpoint: 'http://10.0.0.1/push' }, 'push__endpoint_refused'],
      [{ ...good, endpoint: 'https://169.254.169.254/latest' }, 'push__endpoint_refused'],
      [{ ...good, endpoint: 'https://localhost/push' }, 'push__endpoint_refused'],
    ];
    const count = async () =>
      (await suite.db.pool.query('SELECT 1 FROM push_subscriptions')).rowCount;
    const before = await count();
    for (const [json, code] of bad) {
      const res = await subscribe(b.client, b.ownerId, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { error: string }).error).toBe(code);
    }
    // An owner unknown: 404.
    expect((await subscribe(b.client, 'f'.repeat(32), good)).status).toBe(404);
    expect(await count()).toBe(before);

    // At most PUSH_SUBSCRIPTIONS_PER_OWNER browsers.
    for (let i = 0; i < PUSH_SUBSCRIPTIONS_PER_OWNER; i += 1)
      expect(
        (
          await subscribe(
            b.client,
            b.ownerId,
            browserSubscription(`${service.origin}/push/${i}`).json,
          )
        ).status,
      ).toBe(201);
    const over = await subscribe(b.client, b.ownerId, good);
    expect(over.status).toBe(409);
    expect(((await over.json()) as { error: string }).error).toBe('push__subscriptions_limit');
    expect(await subscriptionsOf(b.ownerId)).toHaveLength(PUSH_SUBSCRIPTIONS_PER_OWNER);

    // Unsubscribing: 204, then there is none of that endpoint.
    const endpoint = `${service.origin}/push/0`;
    const del = await b.client.request('DELETE', `/api/owners/${b.ownerId}/push-subscriptions`, {
      json: { endpoint },
    });
    expect(del.status).toBe(204);
    const again = await b.client.request('DELETE', `/api/owners/${b.ownerId}/push-subscriptions`, {
      json: { endpoint },
    });
    expect(again.status).toBe(404);
    expect(await subscriptionsOf(b.ownerId)).not.toContain(endpoint);
  });

  it('are erased with the personal data of the booking', async () => {
    const DAY = '2026-11-30';
    const roomId = await roomWithReminders('Erasure room');
    const b = await book(await createSlot(suite.admin, roomId, DAY, '09:00', '12:00', 5));
    const browser = browserSubscription(`${service.origin}/push/erased`);
    expect((await subscribe(b.client, b.ownerId, browser.json)).status).toBe(201);
    clock.set(new Date(nineOClock(DAY).getTime() - hours(23)));
    await job();
    expect(await deliveriesOf(b.ownerId)).toEqual([{ status: 'pending', attempts: 0 }]);
    // The day after the slot's day the erasure deletes the subscription and what it had pending.
    clock.set(new Date('2026-12-01T00:30:00Z'));
    expect(await erasePersonalData(suite.app.deps)).toBeGreaterThanOrEqual(1);
    expect(await subscriptionsOf(b.ownerId)).toEqual([]);
    expect(await deliveriesOf(b.ownerId)).toEqual([]);
    expect(await sender.sendDue()).toBe(0);
    // Subscribing again finds no booking.
    expect((await subscribe(b.client, b.ownerId, browser.json)).status).toBe(404);
  });
});
