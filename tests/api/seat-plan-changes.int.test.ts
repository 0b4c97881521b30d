import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { makePng } from '../support/images.ts';
import { maxPosition } from '../../frontend/src/lib/position.ts';

/**
 * A seat plan as staff change it, and a seat wish in a room without one
 * (docs/product.md#seat-plans): a seat left out of the seats set leaves the plan, an empty list
 * ends it, removing the plan's image keeps the seats; a room without a plan refuses a wished seat
 * and wished attributes and stores nothing. Every day is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);

interface PlanSeat {
  id: string;
  label: string;
}
interface Problem {
  error: string;
}
interface Plan {
  seats: PlanSeat[];
  image: unknown;
}

let suite: AdminSuite;

const putSeats = (roomId: string, labels: string[]) =>
  suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: { seats: labels.map((label, i) => ({ label, x: 10 * (i + 1), y: 10 })) },
  });

async function planRoom(name: string, labels: string[]) {
  const roomId = await createRoom(suite.admin, name, { ...OPEN_FROM_TODAY, capacity: 10 });
  const res = await putSeats(roomId, labels);
  expect(res.status, await res.clone().text()).toBe(200);
  return { roomId, seats: ((await res.json()) as { seats: PlanSeat[] }).seats };
}

/** The plan as staff read it (seats and image) and as visitors read it. */
async function plans(roomId: string): Promise<{ staff: Plan; visitors: Plan }> {
  const staff = await suite.admin.get(`/api/admin/rooms/${roomId}/seats`);
  const visitors = await suite.admin.get(`/api/rooms/${roomId}/seat-plan`);
  expect([staff.status, visitors.status]).toEqual([200, 200]);
  return { staff: (await staff.json()) as Plan, visitors: (await visitors.json()) as Plan };
}

const idsAndLabels = (seats: PlanSeat[]) => seats.map(({ id, label }) => ({ id, label }));

/** A new visitor's cart with one ticket of the slot, as wished. */
async function hold(json: Record<string, unknown>) {
  const res = await new Client(suite.app.baseUrl).request('POST', '/api/transactions', { json });
  const body = (await res.json()) as Problem & { ticket?: { seat: PlanSeat | null } };
  return { status: res.status, error: body.error, seat: body.ticket?.seat };
}

/** Books a seat of the slot as a new visitor (a cart with the seat wished, then its booking). */
async function bookSeat(timeSlotId: string, seatId: string) {
  const v = new Client(suite.app.baseUrl);
  const held = await v.request('POST', '/api/transactions', { json: { timeSlotId, seatId } });
  expect(held.status, await held.clone().text()).toBe(201);
  const { transactionId } = (await held.json()) as { transactionId: string };
  visitors += 1;
  const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      firstName: 'Paula',
      lastName: 'Platz',
      email: `platz${visitors}@example.at`,
      phone: '+43111222',
      accessibility: false,
      language: 'de',
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const booked = (await res.json()) as { ownerId: string; tickets: { id: string }[] };
  return { client: v, ownerId: booked.ownerId, ticketId: booked.tickets[0]!.id };
}
let visitors = 0;

/** The booking's tickets as its visitor reads them: id, status and seat. */
async function ticketsOf(b: { client: Client; ownerId: string }) {
  // Read after the visitor's own booking and staff's last change.
  b.client.lastPosition = maxPosition(b.client.lastPosition, suite.admin.lastPosition);
  const res = await b.client.get(`/api/owners/${b.ownerId}/tickets`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string; status: string; seat: PlanSeat | null }[]).map(
    (t) => ({ id: t.id, status: t.status, seat: t.seat && { id: t.seat.id, label: t.seat.label } }),
  );
}

const eventCount = async () =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite?.close();
});

describe('a seat wish in a room without a seat plan', () => {
  it('refuses a seat (not found) and attributes (seat__none_matching) on every path, storing nothing', async () => {
    const roomId = await createRoom(suite.admin, 'Saal ohne Plan', OPEN_FROM_TODAY);
    const [booked, held, added] = await Promise.all(
      ['08:00', '10:00', '12:00'].map((start) =>
        createSlot(suite.admin, roomId, day(3), start, `${start.slice(0, 2)}:45`, 5),
      ),
    );
    // A real seat, but of another room's plan.
    const { seats } = await planRoom('Saal mit Plan', ['X1']);
    const seatId = seats[0]!.id;
    const b = await bookAsNewVisitor(suite.app.baseUrl, [booked!]);
    // Without a wish the room gives tickets without seats, as a capacity.
    const visitor = new Client(suite.app.baseUrl);
    const cart = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: held },
    });
    expect(cart.status, await cart.clone().text()).toBe(201);
    const { transactionId, ticket } = (await cart.json()) as {
      transactionId: string;
      ticket: { seat: PlanSeat | null };
    };
    expect(ticket.seat).toBeNull();

    const before = await eventCount();
    const wishes = [
      [{ seatId }, 404, 'not_found'],
      [{ seatAttributes: ['window'] }, 409, 'seat__none_matching'],
    ] as const;
    for (const [wish, status, error] of wishes) {
      const paths = {
        'a new cart': () =>
          new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
            json: { timeSlotId: added, ...wish },
          }),
        'an added ticket': () =>
          visitor.request('POST', `/api/transactions/${transactionId}/tickets`, {
            json: { timeSlotId: added, ...wish },
          }),
        'a move': () =>
          b.client.request('POST', `/api/owners/${b.ownerId}/tickets/${b.ticketId}/move`, {
            json: { timeSlotId: added, ...wish },
          }),
      };
      for (const [path, send] of Object.entries(paths)) {
        const res = await send();
        const what = `${path} wishing ${JSON.stringify(wish)}`;
        expect(res.status, what).toBe(status);
        expect(((await res.json()) as Problem).error, what).toBe(error);
      }
    }
    expect(await eventCount()).toBe(before);
    const tickets = (await (await b.client.get(`/api/owners/${b.ownerId}/tickets`)).json()) as {
      id: string;
      status: string;
    }[];
    expect(tickets.map((t) => [t.id, t.status])).toEqual([[b.ticketId, 'BOOKED']]);
  });
});

describe('setting the seats again', () => {
  it('takes a seat left out off the plan, and an empty list ends the plan', async () => {
    const { roomId, seats } = await planRoom('Umbau-Saal', ['A1', 'A2', 'A3']);
    const [a1, a2, a3] = seats;
    const slotId = await createSlot(suite.admin, roomId, day(4), '10:00', '12:00', 5);

    const fewer = await putSeats(roomId, ['A1', 'A3']);
    expect(fewer.status, await fewer.clone().text()).toBe(200);
    expect(idsAndLabels(((await fewer.json()) as { seats: PlanSeat[] }).seats)).toEqual(
      idsAndLabels([a1!, a3!]),
    );
    const after = await plans(roomId);
    expect(idsAndLabels(after.staff.seats)).toEqual(idsAndLabels([a1!, a3!]));
    expect(idsAndLabels(after.visitors.seats)).toEqual(idsAndLabels([a1!, a3!]));
    // A seat no longer on the plan is not found, and no ticket takes it.
    const before = await eventCount();
    const gone = await hold({ timeSlotId: slotId, seatId: a2!.id });
    expect([gone.status, gone.error]).toEqual([404, 'not_found']);
    expect(await eventCount()).toBe(before);
    expect((await hold({ timeSlotId: slotId })).seat).toEqual(idsAndLabels([a1!])[0]);

    // No seats: no plan. Tickets are a capacity again, without seats.
    const none = await putSeats(roomId, []);
    expect(none.status, await none.clone().text()).toBe(200);
    expect(((await none.json()) as { seats: PlanSeat[] }).seats).toEqual([]);
    const ended = await plans(roomId);
    expect([ended.staff.seats, ended.visitors.seats]).toEqual([[], []]);
    const seatless = await hold({ timeSlotId: slotId });
    expect([seatless.status, seatless.seat]).toEqual([201, null]);
    const wished = await hold({ timeSlotId: slotId, seatId: a3!.id });
    expect([wished.status, wished.error]).toEqual([404, 'not_found']);
  });

  it('moves the tickets of a seat that leaves to a free seat of the new plan', async () => {
    const { roomId, seats } = await planRoom('Abbau-Saal', ['B1', 'B2', 'B3']);
    const [b1, b2] = seats;
    const slotId = await createSlot(suite.admin, roomId, day(5), '10:00', '12:00', 5);
    const booked = await bookSeat(slotId, b1!.id);

    const res = await putSeats(roomId, ['B2', 'B3']);
    expect(res.status, await res.clone().text()).toBe(200);
    const gone = await hold({ timeSlotId: slotId, seatId: b1!.id });
    expect([gone.status, gone.error]).toEqual([404, 'not_found']);
    // The booking stays booked, on the free seat of the fewest attributes, first on the plan.
    expect(await ticketsOf(booked)).toEqual([
      { id: booked.ticketId, status: 'BOOKED', seat: idsAndLabels([b2!])[0] },
    ]);
    expect((await hold({ timeSlotId: slotId, seatId: b2!.id })).error).toBe('seat__taken');
  });

  it('is refused when a booking of a seat that leaves finds no free seat, and nothing changes', async () => {
    const { roomId, seats } = await planRoom('Voll-Saal', ['C1', 'C2']);
    const [c1, c2] = seats;
    const slotId = await createSlot(suite.admin, roomId, day(6), '10:00', '12:00', 5);
    const first = await bookSeat(slotId, c1!.id);
    await bookSeat(slotId, c2!.id);
    const before = await eventCount();

    const res = await putSeats(roomId, ['C2']);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error: 'timeslot__seats_in_use',
      payload: ['seats', 'C1'],
    });
    expect(await eventCount()).toBe(before);
    expect(idsAndLabels((await plans(roomId)).staff.seats)).toEqual(idsAndLabels([c1!, c2!]));
    expect(await ticketsOf(first)).toEqual([
      { id: first.ticketId, status: 'BOOKED', seat: idsAndLabels([c1!])[0] },
    ]);
  });

  it('leaves the tickets of slots ended their seats, and a plan ended leaves every ticket its seat, which comes back with its label', async () => {
    const start = clock.now();
    try {
      // 07:00 in Vienna: a slot of this morning, booked full, then ended by 09:00.
      clock.set(new Date(start.getTime() - 2 * 3600_000));
      const { roomId, seats } = await planRoom('Morgen-Saal', ['D1', 'D2']);
      const [d1, d2] = seats;
      const morning = await createSlot(suite.admin, roomId, day(0), '07:30', '08:30', 5);
      const early = await bookSeat(morning, d1!.id);
      await bookSeat(morning, d2!.id);
      const later = await createSlot(suite.admin, roomId, day(7), '10:00', '12:00', 5);
      const kept = await bookSeat(later, d1!.id);
      clock.set(start);

      // The morning's slot ended: its bookings neither move nor refuse the change.
      const fewer = await putSeats(roomId, ['D1']);
      expect(fewer.status, await fewer.clone().text()).toBe(200);
      const onD1 = idsAndLabels([d1!])[0];
      expect(await ticketsOf(early)).toEqual([
        { id: early.ticketId, status: 'BOOKED', seat: onD1 },
      ]);

      const ended = await putSeats(roomId, []);
      expect(ended.status, await ended.clone().text()).toBe(200);
      expect(await ticketsOf(kept)).toEqual([{ id: kept.ticketId, status: 'BOOKED', seat: onD1 }]);
      // Set again, D1 and D2 are the seats they were: the booking still holds D1.
      const again = await putSeats(roomId, ['D1', 'D2']);
      expect(again.status).toBe(200);
      expect(idsAndLabels(((await again.json()) as { seats: PlanSeat[] }).seats)).toEqual(
        idsAndLabels([d1!, d2!]),
      );
      const taken = await hold({ timeSlotId: later, seatId: d1!.id });
      expect([taken.status, taken.error]).toEqual([409, 'seat__taken']);
    } finally {
      clock.set(start);
    }
  });
});

describe('the plan image removed', () => {
  it('keeps the seats: staff and visitors read them, and tickets still take them', async () => {
    const { roomId, seats } = await planRoom('Bildersaal', ['C1', 'C2']);
    const slotId = await createSlot(suite.admin, roomId, day(6), '10:00', '12:00', 5);
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(makePng(64, 48))], { type: 'image/png' }),
      'plan.png',
    );
    const put = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seat-plan/image`, {
      form,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const withImage = await plans(roomId);
    expect(withImage.staff.image).toMatchObject({ contentType: 'image/png' });

    const removed = await suite.admin.request(
      'DELETE',
      `/api/admin/rooms/${roomId}/seat-plan/image`,
    );
    expect(removed.status).toBe(200);
    const after = await plans(roomId);
    expect([after.staff.image, after.visitors.image]).toEqual([null, null]);
    expect(after.staff.seats).toEqual(withImage.staff.seats);
    expect(idsAndLabels(after.visitors.seats)).toEqual(idsAndLabels(seats));
    expect((await suite.admin.get(`/api/rooms/${roomId}/seat-plan/image`)).status).toBe(404);
    // The write side keeps the plan too: a ticket takes a seat of it, a wished one as well.
    expect((await hold({ timeSlotId: slotId })).seat).toEqual(idsAndLabels(seats)[0]);
    const c2 = await hold({ timeSlotId: slotId, seatId: seats[1]!.id });
    expect([c2.status, c2.seat]).toEqual([201, idsAndLabels(seats)[1]]);
  });
});
