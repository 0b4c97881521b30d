// The seats a slot offers (docs/product.md#seat-plans, exam places): only they are free in the
// slot on every path, the read models show the others out of service, the tickets on seats no
// longer offered move (or the choice is refused naming them), and a rebuild gives the same rows.
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
  state: 'free' | 'taken' | 'out_of_service';
}
interface Problem {
  error: string;
  payload: string[];
  errors?: { field: string; rule: string }[];
}

const day = (n: number) => addDays(todayIn(app.deps.clock.now(), 'Europe/Vienna'), n);
const seat = (label: string, attributes: string[] = []) => ({ label, attributes, x: 10, y: 10 });

async function planRoom(name: string, labels: string[]) {
  const roomId = await createRoom(admin, name, { ...OPEN_FROM_TODAY, capacity: 20 });
  const res = await admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: { seats: labels.map((l) => seat(l, l === 'A1' ? ['power'] : [])) },
  });
  expect(res.status).toBe(200);
  const seats = ((await res.json()) as { seats: PlanSeat[] }).seats;
  return { roomId, id: (label: string) => seats.find((s) => s.label === label)!.id };
}

const chooseSeats = (roomId: string, slotId: string, seatIds: string[] | null, c = admin) =>
  c.request('PUT', `/api/admin/rooms/${roomId}/timeslots/${slotId}/seats`, { json: { seatIds } });

async function slotSeats(roomId: string, slotId: string): Promise<[string, string][]> {
  const res = await new Client(app.baseUrl).get(`/api/rooms/${roomId}/timeslots/${slotId}/seats`);
  expect(res.status).toBe(200);
  return ((await res.json()) as SlotSeat[]).map((s) => [s.label, s.state]);
}

async function staffBook(roomId: string, slotId: string, seatId?: string) {
  const res = await admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
    { json: { salutation: 'MR', firstName: 'Exam', lastName: 'Reader', language: 'de', seatId } },
  );
  return { status: res.status, body: (await res.json()) as { ticketId?: string; error?: string } };
}

async function hold(json: Record<string, unknown>) {
  const res = await new Client(app.baseUrl).request('POST', '/api/transactions', { json });
  return {
    status: res.status,
    body: (await res.json()) as { ticket?: { seat: PlanSeat | null }; error?: string },
  };
}

const eventCount = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  await addUser(db, 'reports', 'correct horse', ['reports']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('a slot offering some seats of the plan', () => {
  it('gives only those seats, shows the others out of service, and is full when they are taken', async () => {
    const { roomId, id } = await planRoom('Exam hall', ['A1', 'A2', 'A3', 'A4']);
    const slotId = await createSlot(admin, roomId, day(3), '09:00', '12:00', 4);
    const chosen = await chooseSeats(roomId, slotId, [id('A2'), id('A3')]);
    expect(chosen.status).toBe(200);
    const slot = await admin.get(`/api/admin/rooms/${roomId}/timeslots/${slotId}`);
    expect(((await slot.json()) as { seatIds: string[] | null }).seatIds).toEqual([
      id('A2'),
      id('A3'),
    ]);
    await waitFor(
      'the read model has the choice',
      async () => (await slotSeats(roomId, slotId))[0]?.[1] === 'out_of_service',
      budget(20_000),
    );
    expect(await slotSeats(roomId, slotId)).toEqual([
      ['A1', 'out_of_service'],
      ['A2', 'free'],
      ['A3', 'free'],
      ['A4', 'out_of_service'],
    ]);
    // A seat not offered is refused to a cart and to staff, as one out of service is.
    expect((await hold({ timeSlotId: slotId, seatId: id('A1') })).body.error).toBe('seat__taken');
    expect((await staffBook(roomId, slotId, id('A4'))).body.error).toBe('seat__taken');
    // With attributes only an unoffered seat has: none matching among the offered.
    const power = await hold({ timeSlotId: slotId, seatAttributes: ['power'] });
    expect(power.body.error).toBe('seat__none_matching');
    const first = await hold({ timeSlotId: slotId });
    const second = await hold({ timeSlotId: slotId });
    expect([first.body.ticket?.seat?.label, second.body.ticket?.seat?.label].sort()).toEqual([
      'A2',
      'A3',
    ]);
    // Capacity 4, but two seats offered: the third is the capacity's refusal.
    const third = await hold({ timeSlotId: slotId });
    expect(third.status).toBe(409);
    expect(third.body.error).toBe('ticket__validation_error');
    const calendar = async () => {
      const res = await new Client(app.baseUrl).get(
        `/api/rooms/${roomId}/booking?fromDate=${day(3)}&untilDate=${day(3)}`,
      );
      return ((await res.json()) as { failedRules: string[] }[])[0]?.failedRules ?? [];
    };
    await waitFor(
      'the calendar shows the slot full',
      async () => (await calendar()).includes('timeslot_no_tickets_left'),
      budget(20_000),
    );
    // Every seat again: the slot has free seats once more.
    expect((await chooseSeats(roomId, slotId, null)).status).toBe(200);
    expect((await hold({ timeSlotId: slotId, seatId: id('A1') })).status).toBe(201);
  });

  it('moves the tickets on seats no longer offered, and refuses when a booking finds no seat', async () => {
    const { roomId, id } = await planRoom('Move hall', ['A1', 'A2', 'A3', 'A4']);
    const slotId = await createSlot(admin, roomId, day(4), '09:00', '12:00', 4);
    const onA1 = await staffBook(roomId, slotId, id('A1'));
    const onA4 = await staffBook(roomId, slotId, id('A4'));
    expect([onA1.status, onA4.status]).toEqual([201, 201]);
    expect((await chooseSeats(roomId, slotId, [id('A2'), id('A3')])).status).toBe(200);
    await waitFor(
      'the moved tickets in the read model',
      async () => (await slotSeats(roomId, slotId)).every(([, s]) => s !== 'free'),
      budget(20_000),
    );
    expect(await slotSeats(roomId, slotId)).toEqual([
      ['A1', 'out_of_service'],
      ['A2', 'taken'],
      ['A3', 'taken'],
      ['A4', 'out_of_service'],
    ]);
    // One seat for two bookings: refused naming the seat left without a place; nothing stored.
    const before = await eventCount();
    const refused = await chooseSeats(roomId, slotId, [id('A2')]);
    expect(refused.status).toBe(409);
    const problem = (await refused.json()) as Problem;
    expect(problem.error).toBe('timeslot__seats_in_use');
    expect(problem.payload).toEqual(['seats', 'A3']);
    expect(await eventCount()).toBe(before);
  });

  it('refuses seats not on the plan, a room without a plan, and anyone but an admin', async () => {
    const { roomId, id } = await planRoom('Check hall', ['A1', 'A2']);
    const slotId = await createSlot(admin, roomId, day(5), '09:00', '12:00', 2);
    const bare = await createRoom(admin, 'No plan', { ...OPEN_FROM_TODAY, capacity: 5 });
    const bareSlot = await createSlot(admin, bare, day(5), '09:00', '12:00', 5);
    const before = await eventCount();
    const unknown = await chooseSeats(roomId, slotId, [
      id('A1'),
      '00000000-0000-4000-8000-000000000009',
    ]);
    expect(unknown.status).toBe(400);
    const problem = (await unknown.json()) as Problem;
    expect(problem.error).toBe('validation__error');
    expect(problem.errors?.map((e) => [e.field, e.rule])).toEqual([['seatIds.1', 'unknown']]);
    const empty = await chooseSeats(roomId, slotId, []);
    expect(empty.status).toBe(400);
    const noPlan = await chooseSeats(bare, bareSlot, [id('A1')]);
    expect(noPlan.status).toBe(400);
    expect(((await noPlan.json()) as Problem).errors?.[0]?.field).toBe('seatIds');
    const desk = new Client(app.baseUrl);
    expect((await desk.login('reports', 'correct horse')).status).toBe(200);
    expect((await chooseSeats(roomId, slotId, [id('A1')], desk)).status).toBe(403);
    expect((await chooseSeats(roomId, slotId, [id('A1')], new Client(app.baseUrl))).status).toBe(
      401,
    );
    expect(await eventCount()).toBe(before);
  });

  it('chooses the seats of every slot in a date range at once, and a rebuild gives the same rows', async () => {
    const { roomId, id } = await planRoom('Range hall', ['A1', 'A2', 'A3']);
    const slots = [
      await createSlot(admin, roomId, day(6), '09:00', '12:00', 3),
      await createSlot(admin, roomId, day(7), '09:00', '12:00', 3),
      await createSlot(admin, roomId, day(9), '09:00', '12:00', 3),
    ];
    const res = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/seats`, {
      json: { fromDate: day(6), untilDate: day(7), seatIds: [id('A3')] },
    });
    const body = (await res.json()) as { updatedTimeSlots: number };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.updatedTimeSlots).toBe(2);
    await waitFor(
      'the read model has the range',
      async () => (await slotSeats(roomId, slots[1]!))[0]?.[1] === 'out_of_service',
      budget(20_000),
    );
    const offered = ([, state]: [string, string]) => state === 'free';
    expect((await slotSeats(roomId, slots[0]!)).filter(offered)).toEqual([['A3', 'free']]);
    expect((await slotSeats(roomId, slots[1]!)).filter(offered)).toEqual([['A3', 'free']]);
    expect((await slotSeats(roomId, slots[2]!)).filter(offered)).toHaveLength(3);
    const { live, rebuilt } = await compareWithRebuild(db.pool, budget(20_000));
    expect(rebuilt).toEqual(live);
    expect(live.rm_time_slots!.filter((row) => row.includes(id('A3')))).toHaveLength(2);
  });
});
