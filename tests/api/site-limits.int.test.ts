import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import {
  Client,
  openAdminSuite,
  startTestApp,
  type AdminSuite,
  type TestApp,
} from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * Per-visitor limits per site or across sites (docs/product.md#one-person-one-set-of-limits):
 * with LIMITS_PER_SITE=true a person at her limit in the law library may still book in the main
 * library; without it (the default) her bookings count across every site, as before sites. Two
 * apps on one database, one with the setting and one without, decide on the same bookings.
 */

// Monday 23 Nov 2026, 10:00 in Vienna. Rooms open from today + 2 days.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const LIMITS = { MAX_CART_TICKETS: '5', MAX_TICKETS_PER_DAY: '1', MAX_TICKETS_PER_VISITOR: '3' };

let suite: AdminSuite;
let perSite: TestApp;
let across: TestApp;
let admin: Client;
let mainRoom: string;
let lawRoom: string;
let lawSite: string;

const owner = {
  salutation: 'MS',
  firstName: 'Sina',
  lastName: 'Standort',
  phone: '+436641234567',
  accessibility: false,
  language: 'de',
};

async function cartOf(app: TestApp, ...slotIds: string[]): Promise<{ c: Client; tx: string }> {
  const c = new Client(app.baseUrl);
  const first = await c.request('POST', '/api/transactions', { json: { timeSlotId: slotIds[0] } });
  expect(first.status, await first.clone().text()).toBe(201);
  const tx = ((await first.json()) as { transactionId: string }).transactionId;
  for (const id of slotIds.slice(1)) {
    const res = await c.request('POST', `/api/transactions/${tx}/tickets`, {
      json: { timeSlotId: id },
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  return { c, tx };
}

/** Books the slots as the address on the app: the status and, when refused, the rule's payload. */
async function book(app: TestApp, email: string, ...slotIds: string[]) {
  const { c, tx } = await cartOf(app, ...slotIds);
  const res = await c.request('PUT', `/api/transactions/${tx}/booking`, {
    json: { ...owner, email },
  });
  const body = (await res.json()) as { payload?: string[] };
  return { status: res.status, payload: res.status === 200 ? [] : body.payload };
}

const slot = (roomId: string, date: string, start: string, end: string) =>
  createSlot(admin, roomId, date, start, end, 5);

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: { ...LIMITS, LIMITS_PER_SITE: 'true' } });
  perSite = suite.app;
  admin = suite.admin;
  across = await startTestApp(suite.db, clock, { env: LIMITS });
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status, await site.clone().text()).toBe(201);
  lawSite = ((await site.json()) as { id: string }).id;
  mainRoom = await createRoom(admin, 'Hauptlesesaal');
  lawRoom = await createRoom(admin, 'Jura-Lesesaal', { siteId: lawSite });
});
afterAll(async () => {
  await across?.close();
  await suite?.close();
});

describe('per-visitor limits per site (LIMITS_PER_SITE)', () => {
  it('counts the day’s maximum per site when on, across sites when off', async () => {
    const email = 'sina.day@example.at';
    const law9 = await slot(lawRoom, '2026-12-01', '09:00', '10:00');
    const main11 = await slot(mainRoom, '2026-12-01', '11:00', '12:00');
    const law13 = await slot(lawRoom, '2026-12-01', '13:00', '14:00');
    const main15 = await slot(mainRoom, '2026-12-01', '15:00', '16:00');
    expect(await book(perSite, email, law9)).toEqual({ status: 200, payload: [] });
    // At her day's limit in the law library, the main library still takes her...
    expect(await book(perSite, email, main11)).toEqual({ status: 200, payload: [] });
    // ... but not the law library once more,
    expect(await book(perSite, email, law13)).toEqual({
      status: 409,
      payload: ['max_tickets_per_day_reached', '2026-12-01', '1'],
    });
    // and without the setting every site counts: one ticket of the day is all.
    expect(await book(across, email, main15)).toEqual({
      status: 409,
      payload: ['max_tickets_per_day_reached', '2026-12-01', '1'],
    });
  });

  it('counts the total from today on per site when on, across sites when off', async () => {
    const email = 'sina.total@example.at';
    const law2 = await slot(lawRoom, '2026-12-02', '09:00', '10:00');
    const law3 = await slot(lawRoom, '2026-12-03', '09:00', '10:00');
    const law4 = await slot(lawRoom, '2026-12-04', '09:00', '10:00');
    const law5 = await slot(lawRoom, '2026-12-05', '09:00', '10:00');
    const main2 = await slot(mainRoom, '2026-12-02', '11:00', '12:00');
    const main5 = await slot(mainRoom, '2026-12-05', '11:00', '12:00');
    expect(await book(perSite, email, law2, law3, law4)).toEqual({ status: 200, payload: [] });
    expect(await book(perSite, email, law5)).toEqual({
      status: 409,
      payload: ['max_tickets_by_user_reached'],
    });
    expect(await book(perSite, email, main2)).toEqual({ status: 200, payload: [] });
    expect(await book(across, email, main5)).toEqual({
      status: 409,
      payload: ['max_tickets_by_user_reached'],
    });
  });

  it('counts a cart’s tickets per site too, and its calendar marks them so', async () => {
    const law7 = await slot(lawRoom, '2026-12-07', '09:00', '10:00');
    const law7b = await slot(lawRoom, '2026-12-07', '13:00', '14:00');
    const main7 = await slot(mainRoom, '2026-12-07', '11:00', '12:00');
    const main7overlap = await slot(mainRoom, '2026-12-07', '09:30', '10:30');
    // Read by the cart's own client first (it waits for its writes), then by the other app.
    const marks = async (app: TestApp, c: Client, tx: string, roomId: string) => {
      const res = await (app === perSite ? c : new Client(app.baseUrl)).get(
        `/api/transactions/${tx}/rooms/${roomId}/available-timeslots?fromDate=2026-12-07&untilDate=2026-12-07`,
      );
      expect(res.status).toBe(200);
      const slots = (await res.json()) as { id: string; failedRules: string[] }[];
      return Object.fromEntries(slots.map((s) => [s.id, s.failedRules]));
    };
    const { c, tx } = await cartOf(perSite, law7);
    // One person is at one place at a time: the overlap counts across sites either way.
    expect(await marks(perSite, c, tx, mainRoom)).toEqual({
      [main7]: [],
      [main7overlap]: ['max_tickets_per_time_reached'],
    });
    expect(await marks(perSite, c, tx, lawRoom)).toEqual({
      [law7]: ['timeslot_already_in_transaction'],
      [law7b]: ['max_tickets_per_day_reached'],
    });
    expect(await marks(across, c, tx, mainRoom)).toEqual({
      [main7]: ['max_tickets_per_day_reached'],
      [main7overlap]: ['max_tickets_per_time_reached', 'max_tickets_per_day_reached'],
    });
    const refusedAcross = await new Client(across.baseUrl).request(
      'POST',
      `/api/transactions/${tx}/tickets`,
      { json: { timeSlotId: main7 } },
    );
    expect(refusedAcross.status).toBe(409);
    const added = await c.request('POST', `/api/transactions/${tx}/tickets`, {
      json: { timeSlotId: main7 },
    });
    expect(added.status, await added.clone().text()).toBe(201);
    // The visitor app learns the rule and each ticket's site, so its cart names a day full per
    // site (a day of two tickets at two sites is full at neither).
    const rule = async (app: TestApp) =>
      (
        (await (await new Client(app.baseUrl).get('/api/settings')).json()) as {
          limitsPerSite: boolean;
        }
      ).limitsPerSite;
    expect(await rule(perSite)).toBe(true);
    expect(await rule(across)).toBe(false);
    const cart = (await (await c.get(`/api/transactions/${tx}`)).json()) as {
      tickets: { roomId: string; siteId: string | null }[];
    };
    expect(cart.tickets.map((t) => `${t.roomId} ${t.siteId}`).sort()).toEqual(
      [`${lawRoom} ${lawSite}`, `${mainRoom} ${FIRST_SITE_ID}`].sort(),
    );
    const refusedLaw = await c.request('POST', `/api/transactions/${tx}/tickets`, {
      json: { timeSlotId: law7b },
    });
    expect(refusedLaw.status).toBe(409);
    expect(((await refusedLaw.json()) as { payload: string[] }).payload[0]).toBe(
      'max_tickets_per_day_reached',
    );
  });
});
