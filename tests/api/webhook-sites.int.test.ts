// Webhooks of some sites (docs/product.md#integrations): an endpoint names the sites whose rooms'
// events it gets; a receiver on loopback of a branch's endpoint gets that branch's slots and
// bookings only, one of all sites gets every site's; a booking over two sites goes whole to
// either's endpoint, and an endpoint whose only site was deleted gets nothing. A site no site has,
// or more than 100 sites, is refused and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SITE_ID } from '@rr/contracts';
import { addDays, ManualClock, systemClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Near the real time: the deliveries are signed with the clock's time.
const clock = new ManualClock(systemClock.now());
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);

let suite: AdminSuite;
let juraSite: string;
let juraRoom: string;
let mainRoom: string;
let juraHooks: WebhookReceiver;
let allHooks: WebhookReceiver;

interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  siteIds: string[];
  description: string;
  enabled: boolean;
}

const EVENTS = ['timeslot.created', 'booking.created'];

async function createEndpoint(url: string, siteIds?: string[]): Promise<Endpoint> {
  const res = await suite.admin.request('POST', '/api/admin/webhooks', {
    json: { url, eventTypes: EVENTS, ...(siteIds ? { siteIds } : {}) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Endpoint;
}

const endpoints = async () =>
  (await (await suite.admin.get('/api/admin/webhooks')).json()) as Endpoint[];

let visitors = 0;
async function book(timeSlotId: string): Promise<string> {
  const v = new Client(suite.app.baseUrl);
  const res = await v.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  const { transactionId } = (await res.json()) as { transactionId: string };
  visitors += 1;
  const booked = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      firstName: 'Zelda',
      lastName: 'Zumpelfeld',
      email: `zelda.${visitors}@example.at`,
      phone: '+43 664 987654',
      accessibility: false,
      language: 'de',
    },
  });
  expect(booked.status, await booked.clone().text()).toBe(200);
  return transactionId;
}

/** What a receiver got: each delivery's type and the room (or the booking's rooms) it names. */
const told = (r: WebhookReceiver) =>
  r.received.map((got) => {
    const { type, data } = JSON.parse(got.body) as {
      type: string;
      data: { roomId?: string; tickets?: { roomId: string }[] };
    };
    return { type, rooms: data.tickets ? data.tickets.map((t) => t.roomId) : [data.roomId] };
  });

const waitForRequests = (r: WebhookReceiver, n: number) =>
  waitFor(`${n} requests`, () => r.received.length >= n, budget(10_000));

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_INTERVAL_MS: '50',
    },
  });
  const site = await suite.admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status).toBe(201);
  juraSite = ((await site.json()) as { id: string }).id;
  juraRoom = await createRoom(suite.admin, 'Gesetzessaal', {
    ...OPEN_FROM_TODAY,
    siteId: juraSite,
  });
  mainRoom = await createRoom(suite.admin, 'Lesesaal', OPEN_FROM_TODAY);
  juraHooks = await startReceiver();
  allHooks = await startReceiver();
});
afterAll(async () => {
  await juraHooks?.close();
  await allHooks?.close();
  await suite?.close();
});

describe('webhooks of some sites', () => {
  it('refuses a site no site has and stores nothing', async () => {
    const before = await endpoints();
    const unknown = '9d3b1c1e-6f43-4e8e-9a51-0c0f6f0e0b7a';
    const res = await suite.admin.request('POST', '/api/admin/webhooks', {
      json: { url: juraHooks.url, eventTypes: EVENTS, siteIds: [juraSite, unknown] },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'validation__error',
      errors: [{ field: 'siteIds.1', rule: 'invalid' }],
    });
    // Each site once, and ids only.
    for (const siteIds of [[juraSite, juraSite], ['jura']]) {
      const again = await suite.admin.request('POST', '/api/admin/webhooks', {
        json: { url: juraHooks.url, eventTypes: EVENTS, siteIds },
      });
      expect(again.status).toBe(400);
      expect(((await again.json()) as { error: string }).error).toBe('validation__error');
    }
    expect(await endpoints()).toEqual(before);
  });

  it('tells an endpoint of a branch that branch’s slots and bookings only', async () => {
    const jura = await createEndpoint(juraHooks.url, [juraSite]);
    expect(jura.siteIds).toEqual([juraSite]);
    const all = await createEndpoint(allHooks.url);
    expect(all.siteIds).toEqual([]);
    expect((await suite.admin.get(`/api/admin/webhooks/${jura.id}`)).status).toBe(200);

    const mainSlot = await createSlot(suite.admin, mainRoom, day(3), '09:00', '11:00', 5);
    const juraSlot = await createSlot(suite.admin, juraRoom, day(3), '09:00', '11:00', 5);
    await book(mainSlot);
    await book(juraSlot);

    await waitForRequests(allHooks, 4);
    await waitForRequests(juraHooks, 2);
    await sleep(budget(400));
    expect(told(juraHooks)).toEqual([
      { type: 'timeslot.created', rooms: [juraRoom] },
      { type: 'booking.created', rooms: [juraRoom] },
    ]);
    expect(told(allHooks)).toEqual([
      { type: 'timeslot.created', rooms: [mainRoom] },
      { type: 'timeslot.created', rooms: [juraRoom] },
      { type: 'booking.created', rooms: [mainRoom] },
      { type: 'booking.created', rooms: [juraRoom] },
    ]);
  });

  it('changes the sites of an endpoint; a refused change leaves it as it was', async () => {
    const [jura] = (await endpoints()).filter((e) => e.url === juraHooks.url);
    const change = (siteIds: string[]) =>
      suite.admin.request('PUT', `/api/admin/webhooks/${jura!.id}`, {
        json: { url: jura!.url, eventTypes: EVENTS, siteIds, enabled: true },
      });
    const refused = await change([FIRST_SITE_ID, '9d3b1c1e-6f43-4e8e-9a51-0c0f6f0e0b7a']);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: 'validation__error',
      errors: [{ field: 'siteIds.1', rule: 'invalid' }],
    });
    const kept = (await (
      await suite.admin.get(`/api/admin/webhooks/${jura!.id}`)
    ).json()) as Endpoint;
    expect(kept.siteIds).toEqual([juraSite]);

    const changed = await change([FIRST_SITE_ID]);
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as Endpoint).siteIds).toEqual([FIRST_SITE_ID]);

    const seen = juraHooks.received.length;
    await createSlot(suite.admin, juraRoom, day(4), '09:00', '11:00', 5);
    const mainSlot = await createSlot(suite.admin, mainRoom, day(4), '09:00', '11:00', 5);
    await waitForRequests(juraHooks, seen + 1);
    await sleep(budget(400));
    expect(told(juraHooks).slice(seen)).toEqual([{ type: 'timeslot.created', rooms: [mainRoom] }]);
    expect(mainSlot).toBeTruthy();
  });

  it('tells a room moved between sites to both sites, then to its new site only', async () => {
    const rooms = await startReceiver();
    try {
      const res = await suite.admin.request('POST', '/api/admin/webhooks', {
        json: { url: rooms.url, eventTypes: ['room.changed'], siteIds: [juraSite] },
      });
      expect(res.status).toBe(201);
      const moving = await createRoom(suite.admin, 'Wanderraum', OPEN_FROM_TODAY);
      const details = {
        name: 'Wanderraum',
        description: 'A room of the tests',
        capacity: 10,
        ...OPEN_FROM_TODAY,
      };
      const version = async () =>
        (
          (await (await suite.admin.get(`/api/admin/rooms/${moving}`)).json()) as {
            version: number;
          }
        ).version;
      const move = async (siteId: string) =>
        expect(
          (
            await suite.admin.request('PUT', `/api/admin/rooms/${moving}`, {
              json: { ...details, version: await version(), siteId },
            })
          ).status,
        ).toBe(200);
      await move(juraSite); // into the branch: told (its new site)
      await move(FIRST_SITE_ID); // out of it: told (the site it left)
      await move(FIRST_SITE_ID); // changed in the first site: not told
      await waitForRequests(rooms, 2);
      await sleep(budget(400));
      expect(
        rooms.received.map(
          (got) => (JSON.parse(got.body) as { data: { roomId: string } }).data.roomId,
        ),
      ).toEqual([moving, moving]);
    } finally {
      await rooms.close();
    }
  });

  it('sends a booking with rooms of two sites whole to an endpoint of either site', async () => {
    const hooks = await startReceiver();
    try {
      const res = await suite.admin.request('POST', '/api/admin/webhooks', {
        json: { url: hooks.url, eventTypes: ['booking.created'], siteIds: [juraSite] },
      });
      expect(res.status).toBe(201);
      const mainSlot = await createSlot(suite.admin, mainRoom, day(5), '09:00', '10:00', 5);
      const juraSlot = await createSlot(suite.admin, juraRoom, day(5), '11:00', '12:00', 5);
      const v = new Client(suite.app.baseUrl);
      const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: mainSlot } });
      const { transactionId } = (await cart.json()) as { transactionId: string };
      const added = await v.request('POST', `/api/transactions/${transactionId}/tickets`, {
        json: { timeSlotId: juraSlot },
      });
      expect(added.status, await added.clone().text()).toBe(201);
      const booked = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
        json: {
          salutation: 'MS',
          firstName: 'Zelda',
          lastName: 'Zumpelfeld',
          email: 'zelda.beide@example.at',
          phone: '+43 664 987654',
          accessibility: false,
          language: 'de',
        },
      });
      expect(booked.status, await booked.clone().text()).toBe(200);
      await waitForRequests(hooks, 1);
      await sleep(budget(400));
      expect(told(hooks)).toEqual([{ type: 'booking.created', rooms: [mainRoom, juraRoom] }]);
    } finally {
      await hooks.close();
    }
  });

  it('tells an endpoint whose only site was deleted nothing, rather than every site', async () => {
    const hooks = await startReceiver();
    try {
      const site = await suite.admin.request('POST', '/api/admin/sites', {
        json: { name: 'Zweigstelle Alt', slug: 'alt', contactEmail: 'alt@library.example' },
      });
      expect(site.status).toBe(201);
      const gone = ((await site.json()) as { id: string }).id;
      const res = await suite.admin.request('POST', '/api/admin/webhooks', {
        json: { url: hooks.url, eventTypes: EVENTS, siteIds: [gone] },
      });
      expect(res.status).toBe(201);
      const deleted = await suite.admin.request('DELETE', `/api/admin/sites/${gone}`, {
        json: { version: 0 },
      });
      expect(deleted.status, await deleted.clone().text()).toBeLessThan(300);
      const seen = allHooks.received.length;
      const slot = await createSlot(suite.admin, mainRoom, day(6), '09:00', '10:00', 5);
      await book(slot);
      // The endpoint of every site gets them: the deliveries were made.
      await waitForRequests(allHooks, seen + 2);
      await sleep(budget(400));
      expect(hooks.received).toEqual([]);
    } finally {
      await hooks.close();
    }
  });

  it('refuses more than 100 sites on one endpoint, storing nothing', async () => {
    const before = await endpoints();
    const res = await suite.admin.request('POST', '/api/admin/webhooks', {
      json: {
        url: juraHooks.url,
        eventTypes: EVENTS,
        siteIds: Array.from({ length: 101 }, () => crypto.randomUUID()),
      },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'validation__error',
      errors: [expect.objectContaining({ field: 'siteIds' })],
    });
    expect(await endpoints()).toEqual(before);
  });
});
