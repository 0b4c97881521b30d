import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * One home for every rule: the booking limits come from the configuration alone
 * (the environment of the app, nothing else), and the commands, the calendar's marks and the
 * settings the visitor app reads all follow them.
 */

// Monday 23 Nov 2026, 10:00 in Vienna. Rooms open from today + 2 days to today + 30 working days.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const ENV = {
  MAX_CART_TICKETS: '3',
  MAX_TICKETS_PER_DAY: '1',
  MAX_TICKETS_PER_VISITOR: '4',
  CART_HOLD_MINUTES: '20',
};

let suite: AdminSuite;
let db: TestDatabase;
let app: TestApp;
let admin: Client;

type Cart = { transactionId: string; expiredAt: string; tickets: { id: string }[] };
type Slot = { id: string; date: string; startTime: string; failedRules: string[] };

const owner = {
  salutation: 'MS',
  firstName: 'Lina',
  lastName: 'Limit',
  email: 'lina.limit@example.at',
  phone: '+436641234567',
  accessibility: false,
  language: 'de',
};

const start = (c: Client, timeSlotId: string) =>
  c.request('POST', '/api/transactions', { json: { timeSlotId } });
const add = (c: Client, tx: string, timeSlotId: string) =>
  c.request('POST', `/api/transactions/${tx}/tickets`, { json: { timeSlotId } });
const book = (c: Client, tx: string, email = owner.email) =>
  c.request('PUT', `/api/transactions/${tx}/booking`, { json: { ...owner, email } });
async function refused(res: Response): Promise<string[]> {
  const body = (await res.json()) as { error: string; payload: string[] };
  expect(res.status, JSON.stringify(body)).toBe(409);
  expect(body.error).toBe('ticket__validation_error');
  return body.payload;
}
async function cartOf(c: Client, ...slotIds: string[]): Promise<string> {
  const first = await start(c, slotIds[0]!);
  expect(first.status, await first.clone().text()).toBe(201);
  const tx = ((await first.json()) as Cart).transactionId;
  for (const id of slotIds.slice(1)) expect((await add(c, tx, id)).status).toBe(201);
  return tx;
}
const eventCount = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** The calendar of a room with a cart: each slot's failed rules by its date and start time. */
async function marks(c: Client, tx: string, roomId: string): Promise<Record<string, string[]>> {
  const res = await c.get(
    `/api/transactions/${tx}/rooms/${roomId}/available-timeslots?fromDate=2026-12-01&untilDate=2026-12-31`,
  );
  expect(res.status).toBe(200);
  const slots = (await res.json()) as Slot[];
  return Object.fromEntries(
    slots.map((s) => [`${s.date} ${s.startTime.slice(0, 5)}`, s.failedRules]),
  );
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: ENV });
  ({ db, app, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('booking limits from the configuration (MAX_CART_TICKETS=3, MAX_TICKETS_PER_DAY=1)', () => {
  it('serves them as public settings, described in the OpenAPI document', async () => {
    const visitor = new Client(app.baseUrl);
    const res = await visitor.get('/api/settings');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      maxCartTickets: 3,
      holdMinutes: 20,
      maxTicketsPerDay: 1,
      maxTicketsPerVisitor: 4,
      limitsPerSite: false,
      timeZone: 'Europe/Vienna',
      wallets: { apple: false, google: false },
    });
    const doc = (await (await visitor.get('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.paths['/api/settings']?.get?.responses['200']).toBeDefined();
    expect(Object.keys(doc.components.schemas.Settings?.properties ?? {}).sort()).toEqual([
      'holdMinutes',
      'limitsPerSite',
      'maxCartTickets',
      'maxTicketsPerDay',
      'maxTicketsPerVisitor',
      'timeZone',
      'visitorSignIn',
      'wallets',
      'webPushPublicKey',
    ]);
  });

  it('refuses the 2nd ticket of a day and the 4th of a cart, and the calendar marks them first', async () => {
    const roomId = await createRoom(admin, 'Limits room', { description: 'Booking limits' });
    const d1a = await createSlot(admin, roomId, '2026-12-01', '09:00', '10:00', 5);
    const d1b = await createSlot(admin, roomId, '2026-12-01', '11:00', '12:00', 5);
    const d2 = await createSlot(admin, roomId, '2026-12-02', '09:00', '10:00', 5);
    const d3 = await createSlot(admin, roomId, '2026-12-03', '09:00', '10:00', 5);
    const d4 = await createSlot(admin, roomId, '2026-12-04', '09:00', '10:00', 5);
    const v = new Client(app.baseUrl);

    const first = await start(v, d1a);
    expect(first.status).toBe(201);
    const cart = (await first.json()) as Cart;
    const tx = cart.transactionId;
    // The hold follows CART_HOLD_MINUTES.
    expect(Date.parse(cart.expiredAt)).toBe(clock.now().getTime() + 20 * 60_000);

    // One ticket on 1 December: the day's other slot is marked before any add is tried...
    expect(await marks(v, tx, roomId)).toEqual({
      '2026-12-01 09:00': ['timeslot_already_in_transaction'],
      '2026-12-01 11:00': ['max_tickets_per_day_reached'],
      '2026-12-02 09:00': [],
      '2026-12-03 09:00': [],
      '2026-12-04 09:00': [],
    });
    // ... and the command refuses it with the same rule, naming the day and the maximum,
    // storing nothing.
    const before = await eventCount();
    expect(await refused(await add(v, tx, d1b))).toEqual([
      'max_tickets_per_day_reached',
      '2026-12-01',
      '1',
    ]);
    expect(await eventCount()).toBe(before);

    // Three tickets: the cart is full for every other slot.
    expect((await add(v, tx, d2)).status).toBe(201);
    expect((await add(v, tx, d3)).status).toBe(201);
    expect(await marks(v, tx, roomId)).toEqual({
      '2026-12-01 09:00': ['timeslot_already_in_transaction'],
      '2026-12-01 11:00': ['max_tickets_per_transaction_reached', 'max_tickets_per_day_reached'],
      '2026-12-02 09:00': ['timeslot_already_in_transaction'],
      '2026-12-03 09:00': ['timeslot_already_in_transaction'],
      '2026-12-04 09:00': ['max_tickets_per_transaction_reached'],
    });
    const full = await eventCount();
    expect(await refused(await add(v, tx, d4))).toEqual(['max_tickets_per_transaction_reached']);
    expect(await eventCount()).toBe(full);
    expect((await book(v, tx)).status).toBe(200);
  });

  it('checks the per-day and per-visitor maxima against earlier bookings only at booking', async () => {
    const roomId = await createRoom(admin, 'Limits room 2', { description: 'Booking limits' });
    const slot = (date: string, startTime: string, endTime: string) =>
      createSlot(admin, roomId, date, startTime, endTime, 5);
    const d1 = await slot('2026-12-01', '14:00', '15:00');
    const d1later = await slot('2026-12-01', '16:00', '17:00');
    const d2 = await slot('2026-12-02', '14:00', '15:00');
    const d3 = await slot('2026-12-03', '14:00', '15:00');
    const d7 = await slot('2026-12-07', '14:00', '15:00');
    const d8 = await slot('2026-12-08', '14:00', '15:00');
    const email = 'lina.limit.2@example.at';
    const v0 = new Client(app.baseUrl);
    expect((await book(v0, await cartOf(v0, d1, d2, d3), email)).status).toBe(200);

    // 3 of MAX_TICKETS_PER_VISITOR=4 are booked, one of them on 1 December. A new cart knows
    // nothing of them (the visitor is named by the e-mail address only at booking): its calendar
    // marks nothing, the booking refuses.
    const v1 = new Client(app.baseUrl);
    const tx1 = await cartOf(v1, d1later);
    expect((await marks(v1, tx1, roomId))['2026-12-07 14:00']).toEqual([]);
    expect(await refused(await book(v1, tx1, email))).toEqual([
      'max_tickets_per_day_reached',
      '2026-12-01',
      '1',
    ]);
    const v2 = new Client(app.baseUrl);
    const tx2 = await cartOf(v2, d7, d8);
    expect(await refused(await book(v2, tx2, email))).toEqual(['max_tickets_by_user_reached']);
  });
});
