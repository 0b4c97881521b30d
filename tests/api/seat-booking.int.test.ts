// Seats of a room's plan taken by tickets (docs/product.md#seat-plans): the wish, the best free
// seat, refusals, every ticket's seat in answers, and no seat twice under a race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

let db: TestDatabase;
let app: TestApp;
let admin: Client;

interface PlanSeat {
  id: string;
  label: string;
}
interface SlotSeat extends PlanSeat {
  attributes: string[];
  state: 'free' | 'taken' | 'out_of_service';
}
interface CartAnswer {
  transactionId: string;
  ticket?: { id: string; seat: PlanSeat | null };
  tickets: { id: string; seat: PlanSeat | null }[];
}

const day = (n: number) => addDays(todayIn(app.deps.clock.now(), 'Europe/Vienna'), n);

async function planRoom(
  name: string,
  seats: unknown[],
): Promise<{ roomId: string; seats: PlanSeat[] }> {
  const roomId = await createRoom(admin, name, { ...OPEN_FROM_TODAY, capacity: 20 });
  const res = await admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, { json: { seats } });
  expect(res.status).toBe(200);
  return { roomId, seats: ((await res.json()) as { seats: PlanSeat[] }).seats };
}

const seat = (label: string, attributes: string[] = [], x = 10) => ({
  label,
  attributes,
  x,
  y: 10,
});

async function slotSeats(roomId: string, slotId: string): Promise<SlotSeat[]> {
  const res = await new Client(app.baseUrl).get(`/api/rooms/${roomId}/timeslots/${slotId}/seats`);
  expect(res.status).toBe(200);
  return (await res.json()) as SlotSeat[];
}

async function hold(json: Record<string, unknown>, client = new Client(app.baseUrl)) {
  const res = await client.request('POST', '/api/transactions', { json });
  return {
    status: res.status,
    body: (await res.json()) as CartAnswer & { error?: string },
    client,
  };
}

/** Books a held cart with a person of its own (the per-visitor limits count each apart). */
async function bookCart(cart: Awaited<ReturnType<typeof hold>>, email: string) {
  const res = await cart.client.request(
    'PUT',
    `/api/transactions/${cart.body.transactionId}/booking`,
    {
      json: {
        salutation: 'MS',
        firstName: 'Renn',
        lastName: 'Platz',
        email,
        phone: '+43111222',
        accessibility: false,
        language: 'de',
      },
    },
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

/**
 * The seat each booked ticket of a slot holds, from the event log alone: the seat its
 * `TicketHeld` took, for every ticket a `TicketBooked` booked.
 */
async function bookedSeatsFromLog(slotId: string): Promise<string[]> {
  const held = (await eventsOf('TicketHeld')).filter((e) => e.data.timeSlotId === slotId);
  const booked = new Set((await eventsOf('TicketBooked')).map((e) => e.data.ticketId));
  return held
    .filter((e) => booked.has(e.data.ticketId))
    .map((e) => (e.data.seat as { label: string }).label)
    .sort();
}

/** The seat labels of a slot's booked tickets in the read model (live or rebuilt rows). */
const bookedRows = (rows: string[] | undefined, slotId: string) => {
  // A dump without the table is a broken comparison, not a slot without bookings.
  if (!rows) throw new Error('the dump has no rm_tickets');
  return rows
    .map((row) => JSON.parse(row) as { time_slot_id: string; status: string; seat_label: string })
    .filter((t) => t.time_slot_id === slotId && t.status === 'BOOKED')
    .map((t) => t.seat_label)
    .sort();
};

async function eventsOf(type: string): Promise<{ data: Record<string, unknown> }[]> {
  const r = await db.pool.query<{ data: Record<string, unknown> }>(
    'SELECT data FROM events WHERE event_type = $1 ORDER BY global_position',
    [type],
  );
  return r.rows;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('a ticket in a room with a seat plan', () => {
  it('takes the seat asked for, refuses it to the next, and names it in every answer', async () => {
    const { roomId, seats } = await planRoom('Window room', [
      seat('A1', ['window', 'power']),
      seat('A2', ['window']),
      seat('A3', []),
    ]);
    const slotId = await createSlot(admin, roomId, day(3), '10:00', '12:00', 3);
    const a1 = seats.find((s) => s.label === 'A1')!;
    const first = await hold({ timeSlotId: slotId, seatId: a1.id });
    expect(first.status).toBe(201);
    expect(first.body.ticket?.seat).toEqual({ id: a1.id, label: 'A1' });
    const again = await hold({ timeSlotId: slotId, seatId: a1.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('seat__taken');
    await waitFor(
      'the read model has the hold',
      async () => (await slotSeats(roomId, slotId))[0]?.state === 'taken',
      budget(20_000),
    );
    const states = await slotSeats(roomId, slotId);
    expect(states.map((s) => [s.label, s.state])).toEqual([
      ['A1', 'taken'],
      ['A2', 'free'],
      ['A3', 'free'],
    ]);
    // Any seat: the one with the fewest attributes; with attributes: one having them all.
    const any = await hold({ timeSlotId: slotId });
    expect(any.body.ticket?.seat?.label).toBe('A3');
    const windowSeat = await hold({ timeSlotId: slotId, seatAttributes: ['window'] });
    expect(windowSeat.body.ticket?.seat?.label).toBe('A2');
    // The slot is full now: the capacity's refusal.
    const full = await hold({ timeSlotId: slotId });
    expect(full.status).toBe(409);
    expect(full.body.error).toBe('ticket__validation_error');
  });

  it('refuses attributes no free seat has, an unknown seat, and a seat and attributes at once', async () => {
    const { roomId, seats } = await planRoom('Quiet room', [seat('Q1', ['quiet']), seat('Q2', [])]);
    const slotId = await createSlot(admin, roomId, day(4), '10:00', '12:00', 2);
    const none = await hold({ timeSlotId: slotId, seatAttributes: ['pc'] });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('seat__none_matching');
    const unknown = await hold({
      timeSlotId: slotId,
      seatId: '00000000-0000-4000-8000-000000000001',
    });
    expect(unknown.status).toBe(404);
    const both = await hold({
      timeSlotId: slotId,
      seatId: seats[0]!.id,
      seatAttributes: ['quiet'],
    });
    expect(both.status).toBe(400);
    const wrongAttribute = await hold({ timeSlotId: slotId, seatAttributes: ['sofa'] });
    expect(wrongAttribute.status).toBe(400);
    const held = (await eventsOf('TicketHeld')).filter((e) => e.data.timeSlotId === slotId);
    expect(held).toEqual([]);
  });

  it('offers the same seat for the next slot of a cart, and books it with the seat', async () => {
    const { roomId, seats } = await planRoom('Long day room', [seat('L1'), seat('L2'), seat('L3')]);
    const morning = await createSlot(admin, roomId, day(5), '08:00', '10:00', 3);
    const noon = await createSlot(admin, roomId, day(5), '10:00', '12:00', 3);
    const l2 = seats.find((s) => s.label === 'L2')!;
    const visitor = new Client(app.baseUrl);
    const cart = await hold({ timeSlotId: morning, seatId: l2.id }, visitor);
    const added = await visitor.request(
      'POST',
      `/api/transactions/${cart.body.transactionId}/tickets`,
      {
        json: { timeSlotId: noon },
      },
    );
    expect(added.status).toBe(201);
    const answer = (await added.json()) as CartAnswer;
    expect(answer.ticket?.seat?.label).toBe('L2');
    const booked = await visitor.request(
      'PUT',
      `/api/transactions/${cart.body.transactionId}/booking`,
      {
        json: {
          salutation: 'MS',
          firstName: 'Sitz',
          lastName: 'Platz',
          email: 'sitz.platz@example.at',
          phone: '+43111222',
          accessibility: false,
          language: 'de',
        },
      },
    );
    expect(booked.status).toBe(200);
    const b = (await booked.json()) as { ownerId: string; tickets: { seat: PlanSeat | null }[] };
    expect(b.tickets.map((t) => t.seat?.label)).toEqual(['L2', 'L2']);
    const mine = await visitor.get(`/api/owners/${b.ownerId}/tickets`);
    const tickets = (await mine.json()) as { seat: PlanSeat | null }[];
    expect(tickets.map((t) => t.seat?.label)).toEqual(['L2', 'L2']);
  });

  it('a staff booking beyond the free seats books a ticket without a seat', async () => {
    const { roomId } = await planRoom('Small plan room', [seat('S1')]);
    const slotId = await createSlot(admin, roomId, day(6), '10:00', '12:00', 1);
    const book = () =>
      admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`, {
        json: { salutation: 'MR', firstName: 'Desk', lastName: 'Reader', language: 'de' },
      });
    const first = await book();
    expect(first.status).toBe(201);
    expect(((await first.json()) as { seat: PlanSeat | null }).seat?.label).toBe('S1');
    const second = await book();
    expect(second.status).toBe(201);
    expect(((await second.json()) as { seat: PlanSeat | null }).seat).toBeNull();
  });

  it('a slot with more capacity than free seats takes only as many tickets as seats', async () => {
    const { roomId } = await planRoom('Two seat room', [seat('T1'), seat('T2')]);
    const slotId = await createSlot(admin, roomId, day(7), '10:00', '12:00', 5);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await hold({ timeSlotId: slotId }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 409]);
    // The calendar shows the slot full once the read models have the holds.
    const shown = async () => {
      const slots = await new Client(app.baseUrl).get(
        `/api/rooms/${roomId}/booking?fromDate=${day(7)}&untilDate=${day(7)}`,
      );
      const [slot] = (await slots.json()) as { failedRules: string[] }[];
      return slot?.failedRules ?? [];
    };
    await waitFor(
      'the slot shown full',
      async () => (await shown()).includes('timeslot_no_tickets_left'),
      budget(20_000),
    );
    expect(await shown()).toEqual(['timeslot_no_tickets_left']);
  });
});

describe('a seat taken out of service', () => {
  it('moves its tickets to a free seat of the same kind, and cancels a booking when none is free', async () => {
    const { roomId, seats } = await planRoom('Lamp room', [
      seat('P1', ['power']),
      seat('P2', ['power']),
      seat('N1', []),
    ]);
    const byLabel = (l: string) => seats.find((s) => s.label === l)!;
    const slotA = await createSlot(admin, roomId, day(10), '10:00', '12:00', 3);
    const slotB = await createSlot(admin, roomId, day(11), '10:00', '12:00', 3);
    const book = async (slotId: string, seatId: string, email: string) => {
      const v = new Client(app.baseUrl);
      const cart = await hold({ timeSlotId: slotId, seatId }, v);
      expect(cart.status).toBe(201);
      const res = await v.request('PUT', `/api/transactions/${cart.body.transactionId}/booking`, {
        json: {
          salutation: 'MS',
          firstName: 'Lisa',
          lastName: 'Lampe',
          email,
          phone: '+43111222',
          accessibility: false,
          language: 'de',
        },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { ownerId: string }).ownerId;
    };
    // Day A: P1 booked, P2 free: the booking moves to P2. Day B: P1 and P2 booked: no seat with
    // power is free for P1's booking (N1 has none), so it is cancelled with the reason.
    const movedOwner = await book(slotA, byLabel('P1').id, 'moved@example.at');
    const cancelledOwner = await book(slotB, byLabel('P1').id, 'cancelled@example.at');
    await book(slotB, byLabel('P2').id, 'stays@example.at');
    const res = await admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${byLabel('P1').id}/out-of-service`,
      { json: { from: day(10), until: day(11), reason: 'Lampe kaputt' } },
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ moved: 1, cancelled: 1 });
    const ticketsOf = async (ownerId: string) =>
      (await (await new Client(app.baseUrl).get(`/api/owners/${ownerId}/tickets`)).json()) as {
        status: string;
        seat: PlanSeat | null;
        cancellation?: { reason: string | null } | null;
      }[];
    await waitFor(
      'the read models have the move and the cancellation',
      async () =>
        (await ticketsOf(movedOwner))[0]?.seat?.label === 'P2' &&
        (await ticketsOf(cancelledOwner))[0]?.status === 'CANCELLED',
      budget(20_000),
    );
    expect((await ticketsOf(cancelledOwner))[0]?.cancellation?.reason).toBe('Lampe kaputt');
    const changed = await eventsOf('TicketSeatChanged');
    expect(changed.map((e) => (e.data.seat as { label: string }).label)).toEqual(['P2']);
    // Out of service on those days: not offered to anyone.
    const states = await slotSeats(roomId, slotA);
    expect(states.find((s) => s.label === 'P1')?.state).toBe('out_of_service');
  });
});

describe('the desk moves a reader to another seat', () => {
  it('to a free seat; a taken one is refused; the desk role may, the reports role may not', async () => {
    const { roomId, seats } = await planRoom('Desk room', [seat('D1'), seat('D2'), seat('D3')]);
    const slotId = await createSlot(admin, roomId, day(12), '10:00', '12:00', 3);
    const byLabel = (l: string) => seats.find((s) => s.label === l)!.id;
    const staffBook = async (seatId: string) => {
      const res = await admin.request(
        'POST',
        `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
        {
          json: { salutation: 'MR', firstName: 'Desk', lastName: 'Reader', language: 'de', seatId },
        },
      );
      expect(res.status).toBe(201);
      return ((await res.json()) as { ticketId: string }).ticketId;
    };
    const ticketId = await staffBook(byLabel('D1'));
    await staffBook(byLabel('D2'));
    const move = (c: Client, seatId: string) =>
      c.request('PUT', `/api/admin/tickets/${ticketId}/seat`, { json: { seatId } });
    const taken = await move(admin, byLabel('D2'));
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toBe('seat__taken');
    await addUser(db, 'desk', 'desk password', ['checkin']);
    await addUser(db, 'counter', 'counter password', ['reports']);
    const desk = new Client(app.baseUrl);
    expect((await desk.login('desk', 'desk password')).status).toBe(200);
    const reports = new Client(app.baseUrl);
    expect((await reports.login('counter', 'counter password')).status).toBe(200);
    expect((await move(reports, byLabel('D3'))).status).toBe(403);
    const moved = await move(desk, byLabel('D3'));
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { seat: PlanSeat }).seat.label).toBe('D3');
    await waitFor(
      'the seat list shows the move',
      async () =>
        (await slotSeats(roomId, slotId)).map((s) => s.state).join() === 'free,taken,taken',
      budget(20_000),
    );
  });
});

describe("the reservations list's CSV", () => {
  it('has the column Platz with each ticket’s seat where a listed ticket holds one', async () => {
    const { roomId } = await planRoom('Export room', [seat('X1')]);
    const slotId = await createSlot(admin, roomId, day(14), '10:00', '12:00', 2);
    // The seat, then an overbooking beyond it: a ticket without a seat, its cell empty.
    for (const lastName of ['Erster', 'Zweiter']) {
      const res = await admin.request(
        'POST',
        `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
        {
          json: {
            salutation: 'MR',
            firstName: 'Export',
            lastName,
            language: 'de',
            confirmOverbooking: true,
          },
        },
      );
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const csv = async () => {
      const res = await admin.get(`/api/admin/tickets/export.csv?roomId=${roomId}`);
      expect(res.status).toBe(200);
      return (await res.text())
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
    };
    await waitFor('both tickets listed', async () => (await csv()).length === 3, budget(20_000));
    const [header, ...rows] = await csv();
    expect(header!.split(';').at(-1)).toBe('Platz');
    expect(rows.map((r) => [r.split(';')[1], r.split(';').at(-1)]).sort()).toEqual([
      ['Erster', 'X1'],
      ['Zweiter', ''],
    ]);
  });
});

describe("a seat change in the ticket's history", () => {
  it('names the seat held and the seat moved to, with the actor and the reason', async () => {
    const { roomId, seats } = await planRoom('History room', [seat('H1'), seat('H2')]);
    const slotId = await createSlot(admin, roomId, day(13), '10:00', '12:00', 2);
    const byLabel = (l: string) => seats.find((s) => s.label === l)!.id;
    const cart = await hold({ timeSlotId: slotId, seatId: byLabel('H1') });
    expect(cart.status).toBe(201);
    await bookCart(cart, 'history.seat@example.at');
    const ticketId = cart.body.ticket!.id;
    const moved = await admin.request('PUT', `/api/admin/tickets/${ticketId}/seat`, {
      json: { seatId: byLabel('H2'), reason: 'Lampe kaputt' },
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    type Entry = { what: string; seat?: string; reason?: string; actor: { kind: string } };
    const history = async () => {
      const res = await admin.get(`/api/admin/tickets/${ticketId}/history`);
      return res.status === 200 ? ((await res.json()) as Entry[]) : [];
    };
    await waitFor(
      'the ticket in the read models',
      async () => (await history()).length > 0,
      budget(20_000),
    );
    const entries = await history();
    expect(entries.find((e) => e.what === 'held')).toMatchObject({
      seat: 'H1',
      actor: { kind: 'visitor' },
    });
    expect(entries.find((e) => e.what === 'seat-changed')).toMatchObject({
      seat: 'H2',
      reason: 'Lampe kaputt',
      actor: { kind: 'admin', username: 'boss' },
    });
  });
});

describe('no seat twice', () => {
  it('100 visitors racing for one seat: exactly one holds and books it, from the event log', async () => {
    const { roomId, seats } = await planRoom('Race room', [
      seat('R1'),
      seat('R2'),
      seat('R3'),
      seat('R4'),
    ]);
    const slotId = await createSlot(admin, roomId, day(8), '10:00', '12:00', 4);
    const r1 = seats.find((s) => s.label === 'R1')!;
    const results = await Promise.all(
      Array.from({ length: 100 }, () => hold({ timeSlotId: slotId, seatId: r1.id })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 409).every((r) => r.body.error === 'seat__taken'),
    ).toBe(true);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const held = (await eventsOf('TicketHeld')).filter((e) => e.data.timeSlotId === slotId);
    expect(held).toHaveLength(1);
    expect((held[0]!.data.seat as PlanSeat).label).toBe('R1');
    // The one winner books it: one booked ticket on R1 in the log, and a rebuild of the read
    // models from the log gives the same seat to the same ticket.
    await bookCart(
      results.find((r) => r.status === 201)!,
      'race.one@example.at',
    );
    expect(await bookedSeatsFromLog(slotId)).toEqual(['R1']);
    const { live, rebuilt } = await compareWithRebuild(db.pool, budget(20_000));
    expect(rebuilt).toEqual(live);
    expect(bookedRows(live.rm_tickets, slotId)).toEqual(['R1']);
  });

  it('50 visitors racing for the last three seats: three hold and book one each, all different', async () => {
    const { roomId } = await planRoom('Last seats room', [seat('Z1'), seat('Z2'), seat('Z3')]);
    const slotId = await createSlot(admin, roomId, day(9), '10:00', '12:00', 10);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => hold({ timeSlotId: slotId })),
    );
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((r) => r.body.ticket?.seat?.label))).toEqual(
      new Set(['Z1', 'Z2', 'Z3']),
    );
    const held = (await eventsOf('TicketHeld')).filter((e) => e.data.timeSlotId === slotId);
    expect(held).toHaveLength(3);
    expect(new Set(held.map((e) => (e.data.seat as { seatId: string }).seatId)).size).toBe(3);
    // Each winner books its seat: three booked tickets, one on each seat, in the log and in
    // the read models rebuilt from it.
    for (const [i, cart] of won.entries()) await bookCart(cart, `race.last${i}@example.at`);
    expect(await bookedSeatsFromLog(slotId)).toEqual(['Z1', 'Z2', 'Z3']);
    const { live, rebuilt } = await compareWithRebuild(db.pool, budget(20_000));
    expect(rebuilt).toEqual(live);
    expect(bookedRows(live.rm_tickets, slotId)).toEqual(['Z1', 'Z2', 'Z3']);
  });
});
