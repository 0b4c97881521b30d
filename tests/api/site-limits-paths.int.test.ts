import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWaitlists } from '@rr/command-service';
import { instantOf, ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  joinWaitlist,
  OPEN_FROM_TODAY,
} from '../support/fixtures.ts';

/**
 * Per-visitor limits per site on every path to a seat, not only the cart's
 * (docs/product.md#one-person-one-set-of-limits): with LIMITS_PER_SITE=true a person at her
 * limit in the law library is refused there but served in the main library when she rebooks a
 * ticket, joins a waitlist, is offered a freed seat and books the offer, and walks in at a seat.
 * One ticket a day, three from today on, per site.
 */

/** Monday 23 Nov 2026 in Vienna (UTC+1). */
const TODAY = '2026-11-23';
const local = (time: string) => instantOf(TODAY, time, 'Europe/Vienna');
const clock = new ManualClock(local('10:00'));
const LIMITS = {
  MAX_CART_TICKETS: '5',
  MAX_TICKETS_PER_DAY: '1',
  MAX_TICKETS_PER_VISITOR: '3',
  LIMITS_PER_SITE: 'true',
};

let suite: AdminSuite;
let admin: Client;
/** Rooms of the law library and of the main library (the first site), with a waitlist. */
let lawRoom: string;
let mainRoom: string;
/** Rooms with a seat plan (seats A, B), for the walk-ins. */
let lawSeats: string;
let mainSeats: string;
const seatIds = new Map<string, string>();

const person = {
  salutation: 'MS',
  firstName: 'Sina',
  lastName: 'Standort',
  phone: '+436641234567',
  accessibility: false,
  language: 'de',
};
type Problem = { error: string; payload: string[] };
const dayLimit = (date: string) => ({
  error: 'ticket__validation_error',
  payload: ['max_tickets_per_day_reached', date, '1'],
});
const visitorLimit = {
  error: 'ticket__validation_error',
  payload: ['max_tickets_by_user_reached'],
};

/** Books one ticket of each slot in one cart as the address: the booking's answer. */
async function book(email: string, ...slotIds: string[]) {
  const c = new Client(suite.app.baseUrl);
  const first = await c.request('POST', '/api/transactions', { json: { timeSlotId: slotIds[0] } });
  expect(first.status, await first.clone().text()).toBe(201);
  const tx = ((await first.json()) as { transactionId: string }).transactionId;
  for (const timeSlotId of slotIds.slice(1)) {
    const added = await c.request('POST', `/api/transactions/${tx}/tickets`, {
      json: { timeSlotId },
    });
    expect(added.status, await added.clone().text()).toBe(201);
  }
  return bookCart(c, tx, email);
}

async function bookCart(c: Client, tx: string, email: string) {
  const res = await c.request('PUT', `/api/transactions/${tx}/booking`, {
    json: { ...person, email },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function booked(email: string, ...slotIds: string[]) {
  const res = await book(email, ...slotIds);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { ownerId: string; tickets: { id: string; timeSlotId: string }[] };
}

/** A slot of one seat, taken by another reader's booking: a full slot to wait for. */
async function fullSlot(roomId: string, date: string, from: string, to: string) {
  const slotId = await createSlot(admin, roomId, date, from, to, 1);
  const seated = await bookAsNewVisitor(suite.app.baseUrl, [slotId]);
  const cancel = () =>
    seated.client.request('DELETE', `/api/owners/${seated.ownerId}/tickets?ids=${seated.ticketId}`);
  return { slotId, cancel };
}

async function join(slotId: string, email: string) {
  const res = await joinWaitlist(new Client(suite.app.baseUrl), slotId, { email, language: 'de' });
  return { status: res.status, body: (await res.json()) as Problem & { entryId: string } };
}

/** The data of a slot's events of one type, in the order written. */
async function slotEvents(slotId: string, type: string) {
  const r = await suite.db.pool.query<{ data: { entryId: string; offerId?: string } }>(
    `SELECT data FROM events WHERE stream_id = $1 AND event_type = $2 ORDER BY stream_version`,
    [`timeslot-${slotId}`, type],
  );
  return r.rows.map((row) => row.data);
}

async function walkIn(roomId: string, seat: string, timeSlotId: string, email: string) {
  const res = await new Client(suite.app.baseUrl).request(
    'POST',
    `/api/rooms/${roomId}/seats/${seatIds.get(`${roomId} ${seat}`)}/walk-in`,
    { json: { ...person, email, timeSlotId } },
  );
  return { status: res.status, body: (await res.json()) as Problem };
}

async function seatRoom(name: string, siteId?: string): Promise<string> {
  const roomId = await createRoom(admin, name, {
    ...OPEN_FROM_TODAY,
    ...(siteId ? { siteId } : {}),
  });
  const plan = await admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: { seats: ['A', 'B'].map((label, i) => ({ label, x: 10 + 20 * i, y: 10 })) },
  });
  expect(plan.status).toBe(200);
  for (const s of ((await plan.json()) as { seats: { id: string; label: string }[] }).seats)
    seatIds.set(`${roomId} ${s.label}`, s.id);
  return roomId;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: LIMITS });
  admin = suite.admin;
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status, await site.clone().text()).toBe(201);
  const lawSite = ((await site.json()) as { id: string }).id;
  lawRoom = await createRoom(admin, 'Jura-Lesesaal', { ...OPEN_FROM_TODAY, siteId: lawSite });
  mainRoom = await createRoom(admin, 'Hauptlesesaal', OPEN_FROM_TODAY);
  for (const roomId of [lawRoom, mainRoom]) {
    const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(services.status).toBe(200);
  }
  lawSeats = await seatRoom('Jura-Platzsaal', lawSite);
  mainSeats = await seatRoom('Haupt-Platzsaal');
});
afterAll(async () => {
  await suite?.close();
});

describe('per-site limits on every path to a seat (LIMITS_PER_SITE=true)', () => {
  it('a rebooking: refused onto a day full in its site, served onto a day full only in another', async () => {
    clock.set(local('10:00'));
    const law1 = await createSlot(admin, lawRoom, '2026-12-01', '09:00', '10:00', 5);
    const law1later = await createSlot(admin, lawRoom, '2026-12-01', '13:00', '14:00', 5);
    const law2 = await createSlot(admin, lawRoom, '2026-12-02', '09:00', '10:00', 5);
    const main1 = await createSlot(admin, mainRoom, '2026-12-01', '11:00', '12:00', 5);
    const main2 = await createSlot(admin, mainRoom, '2026-12-02', '11:00', '12:00', 5);
    // 1 December is full in the law library; 2 December holds one ticket in each site.
    const b = await booked('sina.move@example.at', law1, law2, main2);
    const ticketOf = (slotId: string) => b.tickets.find((t) => t.timeSlotId === slotId)!.id;
    const move = (ticketId: string, timeSlotId: string) =>
      new Client(suite.app.baseUrl).request(
        'POST',
        `/api/owners/${b.ownerId}/tickets/${ticketId}/move`,
        { json: { timeSlotId } },
      );

    const refused = await move(ticketOf(law2), law1later);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject(dayLimit('2026-12-01'));
    // The main library's ticket moves to 1 December: the law library's ticket of that day is
    // another site's.
    const moved = await move(ticketOf(main2), main1);
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ timeSlotId: main1, status: 'BOOKED' });
  });

  it('a waitlist join: refused in the site where the person is at a limit, served in another', async () => {
    clock.set(local('10:00'));
    const lawEarly = await createSlot(admin, lawRoom, '2026-12-03', '09:00', '10:00', 5);
    const lawFull = await fullSlot(lawRoom, '2026-12-03', '13:00', '14:00');
    const mainFull = await fullSlot(mainRoom, '2026-12-03', '15:00', '16:00');
    const days = await Promise.all(
      ['2026-12-08', '2026-12-09', '2026-12-10'].map((date) =>
        createSlot(admin, lawRoom, date, '09:00', '10:00', 5),
      ),
    );

    // The day's one ticket in the law library.
    await booked('sina.day@example.at', lawEarly);
    expect(await join(lawFull.slotId, 'sina.day@example.at')).toMatchObject({
      status: 409,
      body: dayLimit('2026-12-03'),
    });
    expect((await join(mainFull.slotId, 'sina.day@example.at')).status).toBe(201);

    // Three tickets from today on in the law library.
    await booked('sina.total@example.at', ...days);
    expect(await join(lawFull.slotId, 'sina.total@example.at')).toMatchObject({
      status: 409,
      body: visitorLimit,
    });
    expect((await join(mainFull.slotId, 'sina.total@example.at')).status).toBe(201);
    expect(await slotEvents(lawFull.slotId, 'WaitlistJoined')).toEqual([]);
  });

  it('a waitlist offer and its booking: passed over and refused in the full site, offered and booked in another', async () => {
    clock.set(local('10:00'));
    const email = 'sina.offer@example.at';
    const lawEarly = await createSlot(admin, lawRoom, '2026-12-04', '08:00', '09:00', 5);
    const lawNoon = await fullSlot(lawRoom, '2026-12-04', '11:00', '12:00');
    const lawLate = await fullSlot(lawRoom, '2026-12-04', '17:00', '18:00');
    const mainFull = await fullSlot(mainRoom, '2026-12-04', '15:00', '16:00');
    // She waits in three lines while she holds nothing that day.
    const entry = async (slotId: string) => {
      const joined = await join(slotId, email);
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      return joined.body.entryId;
    };
    const inLawNoon = await entry(lawNoon.slotId);
    const inLawLate = await entry(lawLate.slotId);
    const inMain = await entry(mainFull.slotId);

    // The noon seat frees and is offered to her; then she books the day's one law ticket.
    expect((await lawNoon.cancel()).status).toBe(200);
    await matchWaitlists(suite.app.deps);
    const [noonOffer] = await slotEvents(lawNoon.slotId, 'SeatOffered');
    expect(noonOffer).toMatchObject({ entryId: inLawNoon });
    await booked(email, lawEarly);

    // Two more seats free. At her limit in the law library she is passed over for its seat;
    // the main library's is offered to her.
    expect((await lawLate.cancel()).status).toBe(200);
    expect((await mainFull.cancel()).status).toBe(200);
    await matchWaitlists(suite.app.deps);
    expect(await slotEvents(lawLate.slotId, 'SeatOffered')).toEqual([]);
    expect(await slotEvents(lawLate.slotId, 'WaitlistEntryPassedOver')).toMatchObject([
      { entryId: inLawLate },
    ]);
    const [mainOffer] = await slotEvents(mainFull.slotId, 'SeatOffered');
    expect(mainOffer).toMatchObject({ entryId: inMain });

    // Each offer taken becomes a cart; the law library's is refused at booking, the main
    // library's is booked.
    const take = async (slotId: string, offerId: string) => {
      const c = new Client(suite.app.baseUrl);
      const taken = await c.request('POST', `/api/timeslots/${slotId}/waitlist/offers/${offerId}`);
      expect(taken.status, await taken.clone().text()).toBe(201);
      const tx = ((await taken.json()) as { transactionId: string }).transactionId;
      return bookCart(c, tx, email);
    };
    expect(await take(lawNoon.slotId, noonOffer!.offerId!)).toMatchObject({
      status: 409,
      body: dayLimit('2026-12-04'),
    });
    expect((await take(mainFull.slotId, mainOffer!.offerId!)).status).toBe(200);
  });

  it('a walk-in at the seat: refused in the site where the person is at a limit, served in another', async () => {
    // The slots are made before they start; the walk-ins come while they are under way.
    clock.set(local('07:00'));
    const lawNow = await createSlot(admin, lawSeats, TODAY, '09:00', '12:00', 2);
    const mainNow = await createSlot(admin, mainSeats, TODAY, '09:00', '12:00', 2);
    const lawAfternoon = await createSlot(admin, lawRoom, TODAY, '14:00', '15:00', 5);
    const days = await Promise.all(
      ['2026-12-14', '2026-12-15', '2026-12-16'].map((date) =>
        createSlot(admin, lawRoom, date, '09:00', '10:00', 5),
      ),
    );
    await booked('walker.day@example.at', lawAfternoon);
    await booked('walker.total@example.at', ...days);
    clock.set(local('10:00'));

    expect(await walkIn(lawSeats, 'A', lawNow, 'walker.day@example.at')).toMatchObject({
      status: 409,
      body: dayLimit(TODAY),
    });
    expect((await walkIn(mainSeats, 'A', mainNow, 'walker.day@example.at')).status).toBe(201);
    expect(await walkIn(lawSeats, 'B', lawNow, 'walker.total@example.at')).toMatchObject({
      status: 409,
      body: visitorLimit,
    });
    expect((await walkIn(mainSeats, 'B', mainNow, 'walker.total@example.at')).status).toBe(201);
  });
});
