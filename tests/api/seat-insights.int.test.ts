import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { instantOf as instantAt } from '@rr/domain';
import { readModelProjections, rebuildProjection, rebuildReadModels } from '@rr/projections';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The seats' use of the insights (docs/product.md#insights) on a generated history of a room
 * with a seat plan: bookings of chosen seats at known instants, a cancellation, a hold that
 * ends, a check-in, and seat wishes refused (a seat taken, attributes no free seat has, a cart
 * retrying counting once). Every figure is checked against what the test counts itself; a
 * rebuild from the log gives the same rows. Every time is the injected clock's.
 */
const ZONE = 'Europe/Vienna';
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), ZONE);
let suite: AdminSuite;
const HOUR = 3_600_000;

/** The instant of a local date and time in the library's zone. */
const instantOf = (date: string, time: string): Date => instantAt(date, time, ZONE);

interface Seat {
  id: string;
  label: string;
  attributes: string[];
}
interface Slot {
  id: string;
  date: string;
  start: string;
  minutes: number;
}
/** A booking the test made and did not cancel. */
interface Booked {
  slot: Slot;
  seat: Seat;
  at: number;
  leadDays: number;
  ownerId: string;
  ticketId: string;
}

interface SeatAnswer {
  checkIn: boolean;
  seats: {
    label: string;
    attributes: string[];
    offeredHours: number;
    bookedHours: number;
    useShare: number | null;
    checkedInHours: number | null;
  }[];
  attributes: {
    attribute: string;
    seats: number;
    offeredHours: number;
    bookedHours: number;
    useShare: number | null;
    medianLeadDays: number | null;
    slots: number;
    soldOutSlots: number;
    soldOutFirstSlots: number;
    soldOutFirstShare: number | null;
    refusedNoneMatching: number;
    refusedTaken: number;
  }[];
  refused: { noneMatching: number; taken: number };
}

let n = 0;
const owner = () => {
  n += 1;
  return {
    salutation: 'NONE',
    firstName: 'Lea',
    lastName: `Platz${n}`,
    phone: '+43 1 234',
    accessibility: false,
    email: `seat-insight${n}@example.at`,
    language: 'de',
  };
};

const booked: Booked[] = [];

/** A visitor's cart holding the seat, booked now. */
async function book(slot: Slot, seat: Seat): Promise<Booked> {
  const v = new Client(suite.app.baseUrl);
  const cart = await v.request('POST', '/api/transactions', {
    json: { timeSlotId: slot.id, seatId: seat.id },
  });
  expect(cart.status).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const r = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: owner(),
  });
  expect(r.status).toBe(200);
  const body = (await r.json()) as { ownerId: string; tickets: { id: string }[] };
  const lead = instantOf(slot.date, slot.start).getTime() - clock.now().getTime();
  const b = {
    slot,
    seat,
    at: clock.now().getTime(),
    leadDays: Math.max(0, Math.floor(lead / 86_400_000)),
    ownerId: body.ownerId,
    ticketId: body.tickets[0]!.id,
  };
  booked.push(b);
  clock.advance(HOUR);
  return b;
}

const ATTRIBUTES = [
  'power',
  'window',
  'pc',
  'quiet',
  'standing-desk',
  'accessible',
  'lamp',
  'group-table',
];
const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100;
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10000) / 10000);
const median = (xs: number[]) =>
  xs.length === 0 ? null : [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1]!;

/** The figures as the test counts them from its own bookings (every seat offered in every slot). */
function expectedFrom(
  seats: Seat[],
  slots: Slot[],
  checkedIn: Set<string>,
  refusals: { rule: string; attributes: string[] }[],
) {
  const offered = slots.reduce((m, s) => m + s.minutes, 0);
  const bookedMinutes = (seat: Seat) =>
    booked.filter((b) => b.seat.id === seat.id).reduce((m, b) => m + b.slot.minutes, 0);
  const lastOf = (slot: Slot, having: Seat[]) => {
    const taken = booked.filter((b) => b.slot.id === slot.id && having.includes(b.seat));
    return taken.length === having.length ? Math.max(...taken.map((b) => b.at)) : null;
  };
  const attributes = ATTRIBUTES.map((attribute) => {
    const having = seats.filter((s) => s.attributes.includes(attribute));
    const bookedSum = having.reduce((m, s) => m + bookedMinutes(s), 0);
    const withSeats = having.length === 0 ? [] : slots;
    const soldOut = withSeats.filter((s) => lastOf(s, having) !== null);
    const first = soldOut.filter((s) => {
      const room = lastOf(s, seats);
      return room === null || lastOf(s, having)! < room;
    });
    return {
      attribute,
      seats: having.length,
      offeredHours: hours(offered * having.length),
      bookedHours: hours(bookedSum),
      useShare: ratio(bookedSum, offered * having.length),
      medianLeadDays: median(
        booked.filter((b) => b.seat.attributes.includes(attribute)).map((b) => b.leadDays),
      ),
      slots: withSeats.length,
      soldOutSlots: soldOut.length,
      soldOutFirstSlots: first.length,
      soldOutFirstShare: ratio(first.length, withSeats.length),
      refusedNoneMatching: refusals.filter(
        (r) => r.rule === 'seat__none_matching' && r.attributes.includes(attribute),
      ).length,
      refusedTaken: refusals.filter(
        (r) => r.rule === 'seat__taken' && r.attributes.includes(attribute),
      ).length,
    };
  });
  return {
    checkIn: true,
    seats: seats.map((s) => ({
      seatId: s.id,
      label: s.label,
      zone: null,
      attributes: s.attributes,
      offeredHours: hours(offered),
      bookedHours: hours(bookedMinutes(s)),
      useShare: ratio(bookedMinutes(s), offered),
      checkedInHours: hours(
        booked
          .filter((b) => b.seat.id === s.id && checkedIn.has(b.ticketId))
          .reduce((m, b) => m + b.slot.minutes, 0),
      ),
    })),
    attributes,
    refused: {
      noneMatching: refusals.filter((r) => r.rule === 'seat__none_matching').length,
      taken: refusals.filter((r) => r.rule === 'seat__taken').length,
    },
  };
}

const seatTables = readModelProjections
  .filter((p) => p.name === 'insight-seats')
  .flatMap((p) => p.tables);
const dump = async () =>
  Promise.all(
    seatTables.map(
      async (t) =>
        (await suite.db.pool.query(`SELECT * FROM ${t} ORDER BY ticket_id`)).rows as unknown[],
    ),
  );

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

describe("the seats' use on a generated history", () => {
  it('answers per seat, per attribute and the refused seat wishes as the test counted them', async () => {
    const roomId = await createRoom(suite.admin, 'Seat insights room', {
      ...OPEN_FROM_TODAY,
      capacity: 10,
    });
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: {
        seats: [
          { label: 'W1', attributes: ['window', 'power'], x: 10, y: 10 },
          { label: 'W2', attributes: ['window'], x: 20, y: 10 },
          { label: 'P1', attributes: ['power', 'quiet'], x: 30, y: 10 },
          { label: 'N1', attributes: [], x: 40, y: 10 },
        ],
      },
    });
    expect(plan.status).toBe(200);
    const seats = ((await plan.json()) as { seats: Omit<Seat, 'attributes'>[] }).seats.map((s) => ({
      ...s,
      attributes:
        { W1: ['power', 'window'], W2: ['window'], P1: ['power', 'quiet'] }[s.label] ?? [],
    }));
    const seat = (label: string) => seats.find((s) => s.label === label)!;
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { checkInMinutesBefore: 30 },
    });
    expect(services.status).toBe(200);
    const first = addDays(today(), 3);
    const slotAt = async (date: string, start: string, end: string, minutes: number) => ({
      id: await createSlot(suite.admin, roomId, date, start, end, 4),
      date,
      start,
      minutes,
    });
    const s1 = await slotAt(first, '09:00', '11:00', 120);
    const s2 = await slotAt(addDays(first, 1), '13:00', '16:30', 210);
    const s3 = await slotAt(addDays(first, 2), '10:00', '11:00', 60);

    // S1: both window seats first, then P1: window and power sold out while N1 is still free.
    await book(s1, seat('W1'));
    await book(s1, seat('W2'));
    await book(s1, seat('P1'));
    // S2: the room fills up, the window seats last (sold out with the room, not first), the
    // power seats before the room's last seat.
    clock.advance(24 * HOUR);
    await book(s2, seat('N1'));
    await book(s2, seat('P1'));
    await book(s2, seat('W1'));
    await book(s2, seat('W2'));
    // S3: a booking cancelled and a hold removed leave nothing booked.
    const gone = await book(s3, seat('W2'));
    const cancelled = await new Client(suite.app.baseUrl).request(
      'DELETE',
      `/api/owners/${gone.ownerId}/tickets?ids=${gone.ticketId}`,
    );
    expect(cancelled.status).toBe(200);
    booked.splice(booked.indexOf(gone), 1);
    const holder = new Client(suite.app.baseUrl);
    const hold = await holder.request('POST', '/api/transactions', {
      json: { timeSlotId: s3.id, seatId: seat('N1').id },
    });
    expect(hold.status).toBe(201);
    const holdCart = ((await hold.json()) as { transactionId: string }).transactionId;

    // Refused seat wishes: W1 of S1 taken (one cart trying three times, another once), a window
    // seat in S2 (none free at all: full, not a seat wish), window and quiet in S1 (N1 is free
    // but has neither), and N1 in S3 held by the cart above.
    const refusals: { rule: string; attributes: string[] }[] = [];
    const refuse = async (
      c: Client,
      json: Record<string, unknown>,
      error: string,
      recorded?: { rule: string; attributes: string[] },
    ) => {
      const r = await c.request('POST', '/api/transactions', { json });
      expect(r.status).toBe(409);
      expect(((await r.json()) as { error: string }).error).toBe(error);
      if (recorded) refusals.push(recorded);
    };
    const retrying = new Client(suite.app.baseUrl);
    const someCart = await retrying.request('POST', '/api/transactions', {
      json: { timeSlotId: s3.id, seatId: seat('P1').id },
    });
    expect(someCart.status).toBe(201);
    const cartId = ((await someCart.json()) as { transactionId: string }).transactionId;
    for (let i = 0; i < 3; i++) {
      const r = await retrying.request('POST', `/api/transactions/${cartId}/tickets`, {
        json: { timeSlotId: s1.id, seatId: seat('W1').id },
      });
      expect(r.status).toBe(409);
    }
    refusals.push({ rule: 'seat__taken', attributes: ['power', 'window'] });
    await refuse(
      new Client(suite.app.baseUrl),
      { timeSlotId: s1.id, seatId: seat('W1').id },
      'seat__taken',
      { rule: 'seat__taken', attributes: ['power', 'window'] },
    );
    await refuse(
      new Client(suite.app.baseUrl),
      { timeSlotId: s1.id, seatAttributes: ['window'] },
      'seat__none_matching',
      { rule: 'seat__none_matching', attributes: ['window'] },
    );
    await refuse(
      new Client(suite.app.baseUrl),
      { timeSlotId: s1.id, seatAttributes: ['quiet'] },
      'seat__none_matching',
      { rule: 'seat__none_matching', attributes: ['quiet'] },
    );
    await refuse(
      new Client(suite.app.baseUrl),
      { timeSlotId: s3.id, seatId: seat('N1').id },
      'seat__taken',
      { rule: 'seat__taken', attributes: [] },
    );
    const removed = await holder.request('DELETE', `/api/transactions/${holdCart}`);
    expect(removed.status).toBeLessThan(300);
    const removedSome = await retrying.request('DELETE', `/api/transactions/${cartId}`);
    expect(removedSome.status).toBeLessThan(300);
    // S3: a booking on W1 moved at the desk to N1 counts on N1.
    const moved = await book(s3, seat('W1'));
    const move = await suite.admin.request('PUT', `/api/admin/tickets/${moved.ticketId}/seat`, {
      json: { seatId: seat('N1').id },
    });
    expect(move.status, await move.clone().text()).toBeLessThan(300);
    moved.seat = seat('N1');

    // One ticket checked in at the desk (S1's W2), within the check-in window.
    clock.set(new Date(instantOf(s1.date, s1.start).getTime() - 10 * 60_000));
    const w2 = booked.find((b) => b.slot === s1 && b.seat.label === 'W2')!;
    const checkIn = await suite.admin.request('POST', `/api/admin/tickets/${w2.ticketId}/check-in`);
    expect(checkIn.status).toBeLessThan(300);

    const period = `roomId=${roomId}&fromDate=${first}&untilDate=${addDays(first, 6)}`;
    const expected = expectedFrom(seats, [s1, s2, s3], new Set([w2.ticketId]), refusals);
    let got: SeatAnswer | undefined;
    await waitFor(
      'the refusals and the check-in recorded',
      async () => {
        const r = await suite.admin.get(`/api/admin/insights/seats?${period}`);
        expect(r.status).toBe(200);
        got = (await r.json()) as SeatAnswer;
        return (
          got.refused.taken + got.refused.noneMatching === refusals.length &&
          got.seats.some((s) => (s.checkedInHours ?? 0) > 0)
        );
      },
      budget(5000),
    );
    expect(got).toEqual(expected);
    // What the history was made to show, said plainly.
    const window = got!.attributes.find((a) => a.attribute === 'window')!;
    expect([window.soldOutSlots, window.soldOutFirstSlots]).toEqual([2, 1]);
    const power = got!.attributes.find((a) => a.attribute === 'power')!;
    expect([power.soldOutSlots, power.soldOutFirstSlots]).toEqual([2, 2]);
    expect(got!.seats.find((s) => s.label === 'N1')!.useShare).toBe(ratio(210 + 60, 390));
    expect(got!.seats.find((s) => s.label === 'W1')!.bookedHours).toBe(hours(120 + 210));

    // The CSV of the attributes: a header and a row per attribute.
    const csv = await suite.admin.get(`/api/admin/insights/seats.csv?${period}&part=attributes`);
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split('\r\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1 + ATTRIBUTES.length);
    expect(lines[1]!.startsWith('power;2;')).toBe(true);

    // A rebuild from the log gives the same rows and the same answer.
    const before = await dump();
    for (const p of readModelProjections.filter((x) => x.name.startsWith('insight')))
      await rebuildProjection(suite.db.pool, suite.app.deps.store, p);
    expect(await dump()).toEqual(before);
    // And in batches of a few events, which split a ticket's hold, booking and moves apart.
    const seatsProjection = readModelProjections.filter((p) => p.name === 'insight-seats');
    for (const size of [1, 3, 7]) {
      await rebuildReadModels(suite.db.pool, suite.app.deps.store, seatsProjection, size);
      expect(await dump(), `batches of ${size}`).toEqual(before);
    }
    const again = await suite.admin.get(`/api/admin/insights/seats?${period}`);
    expect(await again.json()).toEqual(expected);
  });

  it('counts a seat offered only in the slots that offer it (exam places)', async () => {
    const roomId = await createRoom(suite.admin, 'Seat insights exam room', {
      ...OPEN_FROM_TODAY,
      capacity: 10,
    });
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: {
        seats: [
          { label: 'E1', attributes: ['power'], x: 10, y: 10 },
          { label: 'E2', attributes: [], x: 20, y: 10 },
        ],
      },
    });
    expect(plan.status).toBe(200);
    const [e1] = ((await plan.json()) as { seats: { id: string }[] }).seats;
    const day = addDays(today(), 3);
    const exam = await createSlot(suite.admin, roomId, day, '09:00', '11:00', 4);
    await createSlot(suite.admin, roomId, addDays(day, 1), '09:00', '10:00', 4);
    const chosen = await suite.admin.request(
      'PUT',
      `/api/admin/rooms/${roomId}/timeslots/${exam}/seats`,
      { json: { seatIds: [e1!.id] } },
    );
    expect(chosen.status).toBeLessThan(300);
    const period = `roomId=${roomId}&fromDate=${day}&untilDate=${addDays(day, 1)}`;
    const offered = async () => {
      const r = await suite.admin.get(`/api/admin/insights/seats?${period}`);
      expect(r.status).toBe(200);
      return ((await r.json()) as SeatAnswer).seats.map((s) => [s.label, s.offeredHours]);
    };
    // E1: the exam slot's 2 hours and the next day's hour; E2 only the next day's hour (once
    // the projections have both slots and the choice).
    const expected = [
      ['E1', 3],
      ['E2', 1],
    ];
    await waitFor(
      'both slots and the choice counted',
      async () => JSON.stringify(await offered()) === JSON.stringify(expected),
      budget(5000),
    );
    expect(await offered()).toEqual(expected);
  });

  it('refuses a missing room, a bad period and visitors', async () => {
    const from = today();
    for (const q of [
      `fromDate=${from}&untilDate=${from}`,
      `roomId=nope&fromDate=${from}&untilDate=${from}`,
      `roomId=${crypto.randomUUID()}&fromDate=${from}&untilDate=${addDays(from, 400)}`,
    ]) {
      const r = await suite.admin.get(`/api/admin/insights/seats?${q}`);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe('validation__error');
    }
    const visitor = await new Client(suite.app.baseUrl).get(
      `/api/admin/insights/seats?roomId=${crypto.randomUUID()}&fromDate=${from}&untilDate=${from}`,
    );
    expect(visitor.status).toBe(401);
  });
});
