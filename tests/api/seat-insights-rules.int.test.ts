import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseNoShows, releaseUnconfirmed } from '@rr/command-service';
import { instantOf } from '@rr/domain';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The seats' use of the insights (docs/product.md#insights), the rules of what counts: a seat out
 * of service is not offered on those days; a ticket whose address confirmation lapsed stops
 * counting on its seat while a no-show still counts; checked-in hours are null in a room without
 * check-in now; a room without a seat plan answers no seats. Every time is the injected clock's.
 */
const ZONE = 'Europe/Vienna';
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), ZONE), n);
let suite: AdminSuite;

interface SeatFigures {
  label: string;
  offeredHours: number;
  bookedHours: number;
  checkedInHours: number | null;
}
interface SeatAnswer {
  checkIn: boolean;
  seats: SeatFigures[];
  attributes: { attribute: string; seats: number; offeredHours: number; slots: number }[];
}

/** A room with a seat plan of these labels (no attributes); answers its id and seat ids. */
async function planRoom(name: string, labels: string[]) {
  const roomId = await createRoom(suite.admin, name, { ...OPEN_FROM_TODAY, capacity: 10 });
  const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: { seats: labels.map((label, i) => ({ label, x: 10 * (i + 1), y: 10 })) },
  });
  expect(plan.status, await plan.clone().text()).toBe(200);
  const seats = ((await plan.json()) as { seats: { id: string; label: string }[] }).seats;
  return { roomId, seat: (label: string) => seats.find((s) => s.label === label)!.id };
}

const services = async (roomId: string, json: Record<string, unknown>) =>
  expect(
    (await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, { json })).status,
  ).toBe(200);

let visitors = 0;
/** A new visitor books the seat of the slot; answers the ticket's id. */
async function book(timeSlotId: string, seatId?: string): Promise<string> {
  const v = new Client(suite.app.baseUrl);
  const cart = await v.request('POST', '/api/transactions', {
    json: seatId ? { timeSlotId, seatId } : { timeSlotId },
  });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  visitors += 1;
  const r = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'NONE',
      firstName: 'Sina',
      lastName: `Sitz${visitors}`,
      phone: '+43 1 234',
      accessibility: false,
      email: `seat-rules${visitors}@example.at`,
      language: 'de',
    },
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return ((await r.json()) as { tickets: { id: string }[] }).tickets[0]!.id;
}

async function seatInsights(roomId: string, from: string, until: string): Promise<SeatAnswer> {
  const r = await suite.admin.get(
    `/api/admin/insights/seats?roomId=${roomId}&fromDate=${from}&untilDate=${until}`,
  );
  expect(r.status).toBe(200);
  return (await r.json()) as SeatAnswer;
}

/** Per seat label: offered, booked and checked-in hours. */
const figures = (a: SeatAnswer) =>
  Object.fromEntries(
    a.seats.map((s) => [s.label, [s.offeredHours, s.bookedHours, s.checkedInHours]]),
  );

/** Reads the seats' figures until they are `expected` (the projections follow the log). */
async function expectFigures(
  roomId: string,
  from: string,
  until: string,
  expected: Record<string, unknown[]>,
): Promise<SeatAnswer> {
  let got: SeatAnswer | undefined;
  const holds = async () => {
    got = await seatInsights(roomId, from, until);
    return JSON.stringify(figures(got)) === JSON.stringify(expected);
  };
  await waitFor('the expected seat figures', holds, budget(5000)).catch(() => undefined);
  expect(figures(got!)).toEqual(expected);
  return got!;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

describe('the seats offered', () => {
  it('leave out a seat on the days it is out of service, and only those', async () => {
    const { roomId, seat } = await planRoom('Out-of-service insights room', ['A', 'B']);
    const first = day(3);
    await createSlot(suite.admin, roomId, first, '09:00', '11:00', 4);
    await createSlot(suite.admin, roomId, addDays(first, 1), '09:00', '10:00', 4);
    // Both seats in every slot first: 3 hours each.
    await expectFigures(roomId, first, addDays(first, 1), { A: [3, 0, null], B: [3, 0, null] });
    const out = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${seat('A')}/out-of-service`,
      { json: { from: first, until: first, reason: 'Lampe kaputt' } },
    );
    expect(out.status).toBe(201);
    // A is not offered on the first day (its 2 hours), only in the next day's hour.
    const got = await expectFigures(roomId, first, addDays(first, 1), {
      A: [1, 0, null],
      B: [3, 0, null],
    });
    expect(got.checkIn).toBe(false);
  });
});

describe('the tickets counted on their seats', () => {
  it('leave a ticket whose confirmation lapsed, keep a no-show, and count checked-in hours only with check-in', async () => {
    const { roomId, seat } = await planRoom('Lapsed and no-show insights room', ['C1', 'C2', 'C3']);
    const checkIn = { checkInMinutesBefore: 30, noShowReleaseMinutes: 15 };
    await services(roomId, checkIn);
    const date = day(3);
    const slot = await createSlot(suite.admin, roomId, date, '09:00', '11:00', 4);
    // C2 and C3 booked before the room asks for confirmation: they never await it.
    const noShow = await book(slot, seat('C2'));
    const present = await book(slot, seat('C3'));
    await services(roomId, { ...checkIn, confirmBookingMinutes: 30 });
    await book(slot, seat('C1'));
    // Awaiting confirmation, C1's ticket takes its seat like a booked one.
    await expectFigures(roomId, date, date, { C1: [2, 2, 0], C2: [2, 2, 0], C3: [2, 2, 0] });

    // Its deadline passes unconfirmed: released, it no longer counts on C1.
    clock.advance(30 * 60_000);
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(1);
    await expectFigures(roomId, date, date, { C1: [2, 0, 0], C2: [2, 2, 0], C3: [2, 2, 0] });

    // C3's reader checks in at the desk; C2's never comes and is released as a no-show, which
    // still counts: the seat was booked until the release.
    const start = instantOf(date, '09:00', ZONE).getTime();
    clock.set(new Date(start - 10 * 60_000));
    const desk = await suite.admin.request('POST', `/api/admin/tickets/${present}/check-in`);
    expect(desk.status).toBeLessThan(300);
    clock.set(new Date(start + 15 * 60_000));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    await waitFor(
      'the no-show released',
      async () =>
        (
          await suite.db.pool.query(
            `SELECT 1 FROM events WHERE event_type = 'TicketNoShowReleased' AND data->>'ticketId' = $1`,
            [noShow],
          )
        ).rowCount === 1,
      budget(5000),
    );
    const withCheckIn = await expectFigures(roomId, date, date, {
      C1: [2, 0, 0],
      C2: [2, 2, 0],
      C3: [2, 2, 2],
    });
    expect(withCheckIn.checkIn).toBe(true);

    // Check-in switched off: the room checks nothing in now, so no seat has checked-in hours
    // (null, not 0), and the bookings still count.
    await services(roomId, {});
    const without = await expectFigures(roomId, date, date, {
      C1: [2, 0, null],
      C2: [2, 2, null],
      C3: [2, 2, null],
    });
    expect(without.checkIn).toBe(false);
  });
});

describe('a room without a seat plan', () => {
  it('answers no seats, and every attribute with none, though its slots are booked', async () => {
    // Another room with a plan and bookings on the same day, which must not show here.
    const other = await planRoom('Planned neighbour room', ['N1', 'N2']);
    const roomId = await createRoom(suite.admin, 'Room without a plan', {
      ...OPEN_FROM_TODAY,
      capacity: 10,
    });
    const date = day(4);
    const slot = await createSlot(suite.admin, roomId, date, '13:00', '15:00', 3);
    const neighbour = await createSlot(suite.admin, other.roomId, date, '13:00', '15:00', 3);
    await book(slot);
    await book(neighbour, other.seat('N1'));
    await expectFigures(other.roomId, date, date, { N1: [2, 2, null], N2: [2, 0, null] });

    const got = await seatInsights(roomId, date, date);
    expect(got.seats).toEqual([]);
    expect(got.attributes.length).toBeGreaterThan(0);
    for (const a of got.attributes)
      expect([a.attribute, a.seats, a.offeredHours, a.slots]).toEqual([a.attribute, 0, 0, 0]);
  });
});
