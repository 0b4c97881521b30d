import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseNoShows } from '@rr/command-service';
import { instantOf, ManualClock } from '@rr/platform';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';

/**
 * Per-site limits follow the room, not the booking (docs/product.md#one-person-one-set-of-limits):
 * a booking counts for the site its room belongs to now, so a room moved to another site takes
 * its bookings' counts along, and a room deleted counts for none. One ticket a day per site.
 */

/** Monday 23 Nov 2026 in Vienna (UTC+1). */
const TODAY = '2026-11-23';
const local = (time: string) => instantOf(TODAY, time, 'Europe/Vienna');
const clock = new ManualClock(local('08:00'));

let suite: AdminSuite;
let admin: Client;
let lawSite: string;
let lawRoom: string;
let mainRoom: string;

const person = {
  salutation: 'MS',
  firstName: 'Sina',
  lastName: 'Standort',
  phone: '+436641234567',
  accessibility: false,
  language: 'de',
};
const ROOM = { description: 'A room of the tests', capacity: 10, ...OPEN_FROM_TODAY };
const dayLimit = (date: string) => ({
  error: 'ticket__validation_error',
  payload: ['max_tickets_per_day_reached', date, '1'],
});

/** Books the slot as the address: the status and the answer. */
async function book(email: string, timeSlotId: string) {
  const c = new Client(suite.app.baseUrl);
  const cart = await c.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const tx = ((await cart.json()) as { transactionId: string }).transactionId;
  const res = await c.request('PUT', `/api/transactions/${tx}/booking`, {
    json: { ...person, email },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: { MAX_TICKETS_PER_DAY: '1', MAX_TICKETS_PER_VISITOR: '3', LIMITS_PER_SITE: 'true' },
  });
  admin = suite.admin;
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status, await site.clone().text()).toBe(201);
  lawSite = ((await site.json()) as { id: string }).id;
  lawRoom = await createRoom(admin, 'Jura-Lesesaal', { ...ROOM, siteId: lawSite });
  mainRoom = await createRoom(admin, 'Hauptlesesaal', ROOM);
});
afterAll(async () => {
  await suite?.close();
});

describe('per-site limits count by the room’s site now (LIMITS_PER_SITE=true)', () => {
  it('a room moved to another site takes its bookings’ counts along', async () => {
    clock.set(local('08:00'));
    const name = 'Wanderlesesaal';
    const wanderRoom = await createRoom(admin, name, { ...ROOM, siteId: lawSite });
    const wander = await createSlot(admin, wanderRoom, '2026-12-01', '09:00', '10:00', 5);
    const law = await createSlot(admin, lawRoom, '2026-12-01', '11:00', '12:00', 5);
    const main = await createSlot(admin, mainRoom, '2026-12-01', '13:00', '14:00', 5);
    const email = 'sina.wander@example.at';
    expect((await book(email, wander)).status).toBe(200);
    // The day's one ticket is the law library's while the room is of it.
    expect(await book(email, law)).toMatchObject({
      status: 409,
      body: dayLimit('2026-12-01'),
    });

    const current = (await (await admin.get(`/api/admin/rooms/${wanderRoom}`)).json()) as {
      version: number;
    };
    const moved = await admin.request('PUT', `/api/admin/rooms/${wanderRoom}`, {
      json: { name, ...ROOM, version: current.version, siteId: FIRST_SITE_ID },
    });
    expect(moved.status, await moved.clone().text()).toBe(200);

    // Now the ticket counts for the main library: the law library has a free day, the main
    // library none.
    expect(await book(email, main)).toMatchObject({
      status: 409,
      body: dayLimit('2026-12-01'),
    });
    expect((await book(email, law)).status).toBe(200);
  });

  it('a room deleted counts for none: its released ticket no longer fills the day', async () => {
    clock.set(local('08:00'));
    const goneRoom = await createRoom(admin, 'Abrisslesesaal', { ...ROOM, siteId: lawSite });
    const services = await admin.request('PUT', `/api/admin/rooms/${goneRoom}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 30 },
    });
    expect(services.status).toBe(200);
    const morning = await createSlot(admin, goneRoom, TODAY, '08:30', '09:30', 5);
    const afternoon = await createSlot(admin, lawRoom, TODAY, '14:00', '15:00', 5);
    const email = 'sina.gone@example.at';
    expect((await book(email, morning)).status).toBe(200);

    // She never came: the ticket is released, and still counts for the day (a room with a
    // booked ticket from today on cannot be deleted, a released one can).
    clock.set(local('09:05'));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    expect(await book(email, afternoon)).toMatchObject({
      status: 409,
      body: dayLimit(TODAY),
    });

    const deleted = await admin.request('DELETE', `/api/admin/rooms/${goneRoom}`);
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    // The deleted room's ticket counts for no site: the law library's day is free again.
    expect((await book(email, afternoon)).status).toBe(200);
  });
});
