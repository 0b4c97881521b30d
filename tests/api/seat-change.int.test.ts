import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';

/**
 * A visitor changes only the seat of a booked ticket, keeping its slot (docs/product.md#rebooking):
 * that seat or a free one with the attributes, through the desk's one seat decision; refused for a
 * taken seat, another owner's ticket, a ticket no longer cancelable; two visitors racing for one
 * free seat: exactly one gets it. A move to another slot without a seat wish keeps the seat the
 * ticket had when it is free there (docs/product.md#how-tickets-take-seats).
 */
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const DAY = addDays('2026-11-23', 4);

interface PlanSeat {
  id: string;
  label: string;
}
interface Booked {
  client: Client;
  ownerId: string;
  ticketId: string;
  seat: PlanSeat;
}

let suite: AdminSuite;
let roomId: string;
let seats: PlanSeat[];
let hour = 6;

/** A seat of the plan as tickets name it (id and label). */
const byLabel = (label: string): PlanSeat => {
  const s = seats.find((x) => x.label === label)!;
  return { id: s.id, label: s.label };
};
const newSlot = () => {
  hour += 1;
  const h = String(hour).padStart(2, '0');
  return createSlot(suite.admin, roomId, DAY, `${h}:00`, `${h}:30`, 10);
};

async function book(timeSlotId: string, seatId: string, email: string): Promise<Booked> {
  const c = new Client(suite.app.baseUrl);
  const cart = await c.request('POST', '/api/transactions', { json: { timeSlotId, seatId } });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const res = await c.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: { salutation: 'MS', firstName: 'Sia', lastName: 'Seat', email, phone: '+4311' },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const b = (await res.json()) as {
    ownerId: string;
    tickets: { id: string; seat: PlanSeat }[];
  };
  return { client: c, ownerId: b.ownerId, ticketId: b.tickets[0]!.id, seat: b.tickets[0]!.seat };
}

const changeSeat = (b: Booked, json: Record<string, unknown>, ticketId = b.ticketId) =>
  b.client.request('PUT', `/api/owners/${b.ownerId}/tickets/${ticketId}/seat`, { json });

async function seatOf(b: Booked): Promise<PlanSeat | null> {
  const res = await b.client.get(`/api/owners/${b.ownerId}/tickets`);
  expect(res.status).toBe(200);
  const tickets = (await res.json()) as { id: string; seat: PlanSeat | null }[];
  return tickets.find((t) => t.id === b.ticketId)?.seat ?? null;
}

const seatEvents = async () =>
  Number(
    (
      await suite.db.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM events WHERE event_type = 'TicketSeatChanged'",
      )
    ).rows[0]!.n,
  );

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Platzwechselsaal', { ...OPEN_FROM_TODAY, capacity: 10 });
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: {
      seats: [
        { label: 'P1', attributes: [], x: 10, y: 10 },
        { label: 'P2', attributes: ['window'], x: 20, y: 10 },
        { label: 'P3', attributes: [], x: 30, y: 10 },
        { label: 'P4', attributes: ['window', 'power'], x: 40, y: 10 },
      ],
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  seats = ((await res.json()) as { seats: PlanSeat[] }).seats;
});

afterAll(async () => {
  await suite?.close();
});

describe("a visitor changing only their ticket's seat", () => {
  it('moves the ticket to the free seat asked for, in the same slot, and frees the old one', async () => {
    const slotId = await newSlot();
    const b = await book(slotId, byLabel('P1').id, 'sia.one@example.at');
    const res = await changeSeat(b, { seatId: byLabel('P3').id });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { id: string; timeSlotId: string; seat: PlanSeat };
    expect(body).toMatchObject({ id: b.ticketId, timeSlotId: slotId, seat: byLabel('P3') });
    expect(await seatOf(b)).toEqual(byLabel('P3'));
    // The old seat is free again: another visitor takes it.
    await book(slotId, byLabel('P1').id, 'sia.two@example.at');
  });

  it('refuses a seat another ticket holds and changes nothing', async () => {
    const slotId = await newSlot();
    const b = await book(slotId, byLabel('P1').id, 'sia.three@example.at');
    await book(slotId, byLabel('P3').id, 'sia.four@example.at');
    const before = await seatEvents();
    const res = await changeSeat(b, { seatId: byLabel('P3').id });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe('seat__taken');
    expect(await seatEvents()).toBe(before);
    expect(await seatOf(b)).toEqual(byLabel('P1'));
  });

  it("is not found for another owner's ticket, and refuses a body asking for both", async () => {
    const slotId = await newSlot();
    const b = await book(slotId, byLabel('P1').id, 'sia.five@example.at');
    const other = await book(slotId, byLabel('P2').id, 'sia.six@example.at');
    const res = await changeSeat(b, { seatId: byLabel('P3').id }, other.ticketId);
    expect(res.status).toBe(404);
    expect(await seatOf(other)).toEqual(byLabel('P2'));
    const both = await changeSeat(b, { seatId: byLabel('P3').id, seatAttributes: ['window'] });
    expect(both.status).toBe(400);
    expect(await seatOf(b)).toEqual(byLabel('P1'));
    // Neither: any free seat (the fewest attributes first).
    const any = await changeSeat(b, {});
    expect(((await any.json()) as { seat: PlanSeat }).seat).toEqual(byLabel('P3'));
  });

  it('gives a free seat having the attributes asked for, or refuses when none has them', async () => {
    const slotId = await newSlot();
    const b = await book(slotId, byLabel('P1').id, 'sia.seven@example.at');
    await book(slotId, byLabel('P2').id, 'sia.eight@example.at');
    const res = await changeSeat(b, { seatAttributes: ['window'] });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { seat: PlanSeat }).seat).toEqual(byLabel('P4'));
    const none = await changeSeat(b, { seatAttributes: ['pc'] });
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: string }).error).toBe('seat__none_matching');
    expect(await seatOf(b)).toEqual(byLabel('P4'));
  });

  it('gives one free seat to exactly one of two visitors racing for it', async () => {
    const slotId = await newSlot();
    const a = await book(slotId, byLabel('P1').id, 'sia.nine@example.at');
    const b = await book(slotId, byLabel('P2').id, 'sia.ten@example.at');
    const target = byLabel('P3').id;
    const results = await Promise.all([
      changeSeat(a, { seatId: target }),
      changeSeat(b, { seatId: target }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const onTarget = [await seatOf(a), await seatOf(b)].filter((s) => s?.id === target);
    expect(onTarget).toHaveLength(1);
  });

  it('refuses a ticket whose slot has started (no longer cancelable)', async () => {
    const slotId = await newSlot();
    const b = await book(slotId, byLabel('P1').id, 'sia.late@example.at');
    const saved = clock.now();
    // The slot's start in Vienna (UTC+1 in winter) has come.
    clock.set(new Date(`${DAY}T${String(hour - 1).padStart(2, '0')}:05:00Z`));
    try {
      const res = await changeSeat(b, { seatId: byLabel('P3').id });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toBe('ticket__not_cancelable');
    } finally {
      clock.set(saved);
    }
    expect(await seatOf(b)).toEqual(byLabel('P1'));
  });
});

describe('a move to another slot without a seat wish', () => {
  const move = (b: Booked, timeSlotId: string) =>
    b.client.request('POST', `/api/owners/${b.ownerId}/tickets/${b.ticketId}/move`, {
      json: { timeSlotId },
    });

  it('keeps the seat the ticket had when it is free in the new slot, else gives the best free one', async () => {
    const from = await newSlot();
    const b = await book(from, byLabel('P3').id, 'sia.move@example.at');
    // Without the rule the best free seat would be P1 (no attributes, first on the plan).
    const to = await newSlot();
    const kept = await move(b, to);
    expect(kept.status, await kept.clone().text()).toBe(200);
    const moved = (await kept.json()) as { id: string; timeSlotId: string; seat: PlanSeat };
    expect(moved).toMatchObject({ timeSlotId: to, seat: byLabel('P3') });
    expect(await seatOf({ ...b, ticketId: moved.id })).toEqual(byLabel('P3'));

    // Where another ticket holds P3, the move takes the best free seat instead.
    const taken = await newSlot();
    await book(taken, byLabel('P3').id, 'sia.rival@example.at');
    const again = await move({ ...b, ticketId: moved.id }, taken);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(((await again.json()) as { seat: PlanSeat }).seat).toEqual(byLabel('P1'));
  });
});
