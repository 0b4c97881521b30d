// The seat's page its QR code leads to (docs/product.md#at-the-seat): what it reads, the check-in
// at the seat with the booking's number and address, and the walk-in booking a free seat of the
// slot under way. Every time is the injected clock's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';

/** Monday 23 November 2026, Vienna (UTC+1). */
const DAY = '2026-11-23';
const local = (time: string) => new Date(`${DAY}T${time}:00+01:00`);
const clock = new ManualClock(local('09:00'));

let suite: AdminSuite;
let roomId: string;
let slotId: string;
/** The plan's seats by label. */
const seatIds = new Map<string, string>();
const seatOf = (label: string) => seatIds.get(label)!;

interface SeatNow {
  room: { id: string; name: string; checkIn: boolean };
  seat: { id: string; label: string };
  slot: { id: string; startTime: string; endTime: string; started: boolean } | null;
  state: 'free' | 'taken' | 'out_of_service' | null;
  walkIn: boolean;
  nearestFree: { id: string; label: string }[];
}

/**
 * The visitors' requests, through one client: each read waits for the last write it saw (the
 * read models have it), as a visitor's browser does.
 */
let reader: Client;
const visitor = () => reader;

async function seatNow(label: string, room = roomId) {
  const res = await visitor().get(`/api/rooms/${room}/seats/${seatOf(label)}/now`);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { body: JSON.parse(text) as SeatNow, text };
}

/** Books a seat of the slot by a cart, as a visitor does online. */
async function bookSeat(label: string, email: string) {
  const v = visitor();
  const held = await v.request('POST', '/api/transactions', {
    json: { timeSlotId: slotId, seatId: seatOf(label) },
  });
  expect(held.status, await held.clone().text()).toBe(201);
  const { transactionId } = (await held.json()) as { transactionId: string };
  const booked = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: { ...person, email },
  });
  expect(booked.status, await booked.clone().text()).toBe(200);
  return (await booked.json()) as { bookingNumber: string; tickets: { id: string }[] };
}

const person = {
  salutation: 'MS',
  firstName: 'Erika',
  lastName: 'Leserin',
  phone: '+43111222',
  accessibility: false,
  language: 'de',
};

async function checkIn(label: string, json: Record<string, unknown>, undo = false) {
  const res = await visitor().request(
    'POST',
    `/api/rooms/${roomId}/seats/${seatOf(label)}/check-in${undo ? '/undo' : ''}`,
    { json },
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      error?: string;
      payload?: string[];
      ticketId?: string;
      checkedInAt?: string | null;
    },
  };
}

async function walkIn(label: string, email: string, at = slotId) {
  const res = await visitor().request(
    'POST',
    `/api/rooms/${roomId}/seats/${seatOf(label)}/walk-in`,
    { json: { ...person, email, timeSlotId: at } },
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      error?: string;
      ownerId?: string;
      ticketId?: string;
      checkedInAt?: string | null;
      seat?: { label: string } | null;
    },
  };
}

async function eventsOf(type: string, ticketId: string) {
  const r = await suite.db.pool.query<{ metadata: { actor: unknown } }>(
    `SELECT metadata FROM events WHERE event_type = $1 AND data->>'ticketId' = $2
      ORDER BY global_position`,
    [type, ticketId],
  );
  return r.rows.map((x) => x.metadata.actor);
}

const bookedCount = async () =>
  Number(
    (
      await suite.db.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM events WHERE event_type = 'TransactionBooked'`,
      )
    ).rows[0]!.n,
  );

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  reader = new Client(suite.app.baseUrl);
  roomId = await createRoom(suite.admin, 'Lesesaal', { ...OPEN_FROM_TODAY, capacity: 20 });
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 30 },
  });
  expect(services.status).toBe(200);
  const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: {
      seats: [
        { label: 'A1', x: 10, y: 10, zone: 'Fenster', attributes: ['window'] },
        { label: 'A2', x: 20, y: 10 },
        { label: 'A3', x: 80, y: 80 },
        { label: 'B1', x: 12, y: 14 },
        { label: 'B2', x: 60, y: 60 },
        { label: 'C1', x: 90, y: 10 },
      ],
    },
  });
  expect(plan.status).toBe(200);
  for (const s of ((await plan.json()) as { seats: { id: string; label: string }[] }).seats)
    seatIds.set(s.label, s.id);
  slotId = await createSlot(suite.admin, roomId, DAY, '10:00', '12:00', 5);
});
afterAll(async () => {
  await suite.close();
});

describe('the seat page', () => {
  it('reads the seat, the next slot of today and its state, without who holds it', async () => {
    clock.set(local('09:00'));
    const before = await seatNow('A1');
    expect(before.body).toMatchObject({
      room: { id: roomId, name: 'Lesesaal', checkIn: true },
      seat: { id: seatOf('A1'), label: 'A1', zone: 'Fenster', attributes: ['window'] },
      slot: { id: slotId, startTime: '10:00', endTime: '12:00', started: false },
      state: 'free',
      walkIn: false,
      nearestFree: [],
    });
    await bookSeat('A1', 'reader.one@example.at');
    const taken = await seatNow('A1');
    expect(taken.body.state).toBe('taken');
    // The nearest free seats on the plan: B1 (4.5 away), A2 (10), B2 (70.7), C1 (80), A3 (99).
    expect(taken.body.nearestFree.map((s) => s.label)).toEqual(['B1', 'A2', 'B2', 'C1', 'A3']);
    expect(taken.text).not.toMatch(/Erika|Leserin|reader\.one|bookingNumber|ownerId/);

    const off = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${seatOf('A3')}/out-of-service`,
      { json: { from: DAY, until: DAY, reason: 'Lampe kaputt' } },
    );
    expect(off.status).toBe(201);
    // The staff's write came last: the next read waits for it.
    reader.lastPosition = suite.admin.lastPosition;
    expect((await seatNow('A3')).body).toMatchObject({ state: 'out_of_service', walkIn: false });
    expect((await seatNow('A1')).body.nearestFree.map((s) => s.label)).toEqual([
      'B1',
      'A2',
      'B2',
      'C1',
    ]);
  });

  it('skips a slot without capacity and a closed day, and names at most 5 nearest free seats', async () => {
    clock.set(local('09:00'));
    const room = await createRoom(suite.admin, 'Großer Saal', { ...OPEN_FROM_TODAY, capacity: 20 });
    const labels = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8'];
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${room}/seats`, {
      json: { seats: labels.map((label, i) => ({ label, x: 10 + 10 * i, y: 10 })) },
    });
    expect(plan.status).toBe(200);
    const ids = new Map(
      ((await plan.json()) as { seats: { id: string; label: string }[] }).seats.map((x) => [
        x.label,
        x.id,
      ]),
    );
    const now = async (label: string) => {
      const res = await visitor().get(`/api/rooms/${room}/seats/${ids.get(label)}/now`);
      expect(res.status).toBe(200);
      return (await res.json()) as SeatNow;
    };
    await createSlot(suite.admin, room, DAY, '13:00', '14:00', 0);
    const open = await createSlot(suite.admin, room, DAY, '15:00', '16:00', 8);
    reader.lastPosition = suite.admin.lastPosition;
    expect((await now('S1')).slot).toMatchObject({ id: open, startTime: '15:00' });

    const held = await visitor().request('POST', '/api/transactions', {
      json: { timeSlotId: open, seatId: ids.get('S1') },
    });
    expect(held.status, await held.clone().text()).toBe(201);
    const taken = await now('S1');
    expect(taken.state).toBe('taken');
    expect(taken.nearestFree.map((x) => x.label)).toEqual(['S2', 'S3', 'S4', 'S5', 'S6']);

    const closed = await suite.admin.request('POST', '/api/admin/closures', {
      json: { fromDate: DAY, untilDate: DAY, reason: 'Wasserschaden', roomIds: [room] },
    });
    expect(closed.status, await closed.clone().text()).toBeLessThan(300);
    reader.lastPosition = suite.admin.lastPosition;
    expect(await now('S1')).toMatchObject({ slot: null, walkIn: false, nearestFree: [] });
  });

  it('answers 404 for a seat not on the room’s plan and a room not known', async () => {
    const otherRoom = await createRoom(suite.admin, 'Ohne Plan');
    const elsewhere = await visitor().get(`/api/rooms/${otherRoom}/seats/${seatOf('A1')}/now`);
    expect(elsewhere.status).toBe(404);
    const unknown = await visitor().get(
      `/api/rooms/00000000-0000-4000-8000-000000000009/seats/${seatOf('A1')}/now`,
    );
    expect(unknown.status).toBe(404);
  });
});

describe('check-in at the seat', () => {
  let booking: { bookingNumber: string; tickets: { id: string }[] };

  it('checks the booking of this seat in within the desk’s window, by its number and address', async () => {
    clock.set(local('09:20'));
    booking = await bookSeat('B2', 'Reader.Two@Example.AT');
    const proof = { bookingNumber: booking.bookingNumber, email: 'reader.two@example.at' };
    // 09:40: the window opens 15 minutes before the start.
    clock.set(local('09:40'));
    const early = await checkIn('B2', proof);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('check_in__not_open');

    clock.set(local('09:50'));
    const wrongAddress = await checkIn('B2', { ...proof, email: 'someone@example.at' });
    expect(wrongAddress.status).toBe(404);
    const otherSeat = await checkIn('A2', proof);
    expect(otherSeat.status).toBe(409);
    expect(otherSeat.body).toMatchObject({
      error: 'check_in__other_seat',
      payload: ['seat', 'B2'],
    });
    expect(await eventsOf('TicketCheckedIn', booking.tickets[0]!.id)).toEqual([]);

    // The number in any case and the address in another spelling, as the cart rules know it.
    const done = await checkIn('B2', {
      bookingNumber: ` ${booking.bookingNumber.toLowerCase()} `,
      email: '  READER.two@example.at ',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      ticketId: booking.tickets[0]!.id,
      checkedInAt: local('09:50').toISOString(),
    });
    expect(await eventsOf('TicketCheckedIn', booking.tickets[0]!.id)).toEqual([
      { kind: 'visitor' },
    ]);
    const again = await checkIn('B2', proof);
    expect(again.body.error).toBe('check_in__already_checked_in');
  });

  it('undoes a check-in within 10 minutes, and not later', async () => {
    const proof = { bookingNumber: booking.bookingNumber, email: 'reader.two@example.at' };
    clock.set(local('09:55'));
    const undone = await checkIn('B2', proof, true);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.checkedInAt).toBeNull();
    clock.set(local('09:56'));
    expect((await checkIn('B2', proof)).status).toBe(200);
    clock.set(local('10:07'));
    const late = await checkIn('B2', proof, true);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('check_in__undo_expired');
  });

  it('says when the booking has no ticket in this room today', async () => {
    const otherSlot = await createSlot(suite.admin, roomId, '2026-11-24', '10:00', '12:00', 5);
    clock.set(local('10:10'));
    const v = visitor();
    const held = await v.request('POST', '/api/transactions', {
      json: { timeSlotId: otherSlot, seatId: seatOf('A2') },
    });
    const { transactionId } = (await held.json()) as { transactionId: string };
    const booked = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: { ...person, email: 'tomorrow@example.at' },
    });
    const { bookingNumber } = (await booked.json()) as { bookingNumber: string };
    const none = await checkIn('A2', { bookingNumber, email: 'tomorrow@example.at' });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('check_in__no_ticket_here');
  });
});

describe('a walk-in at a free seat', () => {
  it('is refused before the slot has started, and nothing is stored', async () => {
    clock.set(local('09:58'));
    const before = await bookedCount();
    const early = await walkIn('A2', 'early@example.at');
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('walk_in__not_under_way');
    expect(await bookedCount()).toBe(before);
  });

  it('books the seat for the rest of the slot, checked in at once, with the booking’s mail', async () => {
    clock.set(local('10:30'));
    expect((await seatNow('A2')).body).toMatchObject({
      slot: { started: true },
      state: 'free',
      walkIn: true,
    });
    const booked = await walkIn('A2', 'walker@example.at');
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body).toMatchObject({
      checkedInAt: local('10:30').toISOString(),
      seat: { label: 'A2' },
    });
    expect(await eventsOf('TicketCheckedIn', booked.body.ticketId!)).toEqual([{ kind: 'visitor' }]);
    const mail = await suite.db.pool.query<{ kind: string }>(
      'SELECT kind FROM mail_outbox WHERE owner_id = $1',
      [booked.body.ownerId],
    );
    // The outbox reactor enqueues the confirmation as for any booking (it runs beside the app).
    for (let i = 0; i < 100 && mail.rows.length === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      mail.rows = (
        await suite.db.pool.query<{ kind: string }>(
          'SELECT kind FROM mail_outbox WHERE owner_id = $1',
          [booked.body.ownerId],
        )
      ).rows;
    }
    expect(mail.rows.map((m) => m.kind)).toEqual(['confirmation']);
    expect((await seatNow('A2')).body).toMatchObject({ state: 'taken', walkIn: false });
  });

  it('is refused for a taken seat, a blacklisted address and one holding the slot already', async () => {
    clock.set(local('10:40'));
    const before = await bookedCount();
    const taken = await walkIn('A1', 'another@example.at');
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('seat__taken');
    const blocked = await suite.admin.request('POST', '/api/admin/blacklist', {
      json: { email: 'blocked@example.at', expiredAt: '2027-12-31' },
    });
    expect(blocked.status).toBe(201);
    const refused = await walkIn('B1', ' Blocked@Example.at');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('booking__email_blacklisted');
    // The per-visitor limits: the walker holds this slot already (in any spelling).
    const twice = await walkIn('B1', 'WALKER@example.at');
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['max_tickets_per_time_reached'],
    });
    expect(await bookedCount()).toBe(before);
  });

  it('books a seat once when two walk-ins race for it', async () => {
    clock.set(local('10:50'));
    const results = await Promise.all([
      walkIn('B1', 'racer.one@example.at'),
      walkIn('B1', 'racer.two@example.at'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)?.body.error).toBe('seat__taken');
    const held = await suite.db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events
        WHERE event_type = 'TicketHeld' AND data->'seat'->>'seatId' = $1
          AND data->>'timeSlotId' = $2`,
      [seatOf('B1'), slotId],
    );
    expect(Number(held.rows[0]!.n)).toBe(1);
  });

  it('is refused after the slot has ended', async () => {
    clock.set(local('12:00'));
    const late = await walkIn('B1', 'late@example.at');
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('walk_in__not_under_way');
    // The page has no slot now (none later today).
    expect((await seatNow('B1')).body).toMatchObject({ slot: null, state: null, walkIn: false });
  });
});
