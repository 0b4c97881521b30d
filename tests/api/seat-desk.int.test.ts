// The staff and display views of a room's seats (docs/product.md#staff-and-display-views): the
// desk's seat list of a slot (with names, staff only), the desk's day's free seats by attribute,
// and the display's plan (no personal data).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOf, ManualClock, todayIn } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Noon of the library's today, fixed: the whole-day slot runs at every reading of the clock, even
 * when the machine's clock passes the library's midnight during the test.
 */
const clock = new ManualClock(
  instantOf(todayIn(new Date(), 'Europe/Vienna'), '12:00', 'Europe/Vienna'),
);

let db: TestDatabase;
let app: TestApp;
let admin: Client;
let roomId: string;
let slotId: string;
const seatIds = new Map<string, string>();
/** A visitor with a cart (holding S3): no staff session. */
let visitor: Client;

interface DeskSeat {
  id: string;
  label: string;
  attributes: string[];
  state: string;
  ticket: { id: string; firstName: string | null; lastName: string | null } | null;
}
interface DeskSlotSeats {
  timeSlotId: string;
  seats: DeskSeat[];
  withoutSeat: { id: string; lastName: string | null }[];
}

const seatsPath = () => `/api/admin/rooms/${roomId}/timeslots/${slotId}/seats`;

async function deskSeats(client: Client = admin): Promise<DeskSlotSeats> {
  const res = await client.get(seatsPath());
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as DeskSlotSeats;
}

const states = async () => (await deskSeats()).seats.map((s) => `${s.label}:${s.state}`).join();

async function staffBook(firstName: string, lastName: string, seatLabel?: string) {
  const res = await admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
    {
      json: {
        salutation: 'MS',
        firstName,
        lastName,
        language: 'de',
        confirmOverbooking: true,
        ...(seatLabel ? { seatId: seatIds.get(seatLabel) } : {}),
      },
    },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { ticketId: string }).ticketId;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, clock);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
  roomId = await createRoom(admin, 'Seat desk room', { ...OPEN_FROM_TODAY, capacity: 10 });
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  const plan = [
    ['S1', ['power', 'window']],
    ['S2', ['power']],
    ['S3', []],
    ['S4', ['pc']],
    ['S5', ['power']],
    ['S6', ['power', 'window']],
  ] as const;
  const res = await admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: {
      seats: plan.map(([label, attributes], i) => ({ label, attributes, x: 10 + i * 10, y: 20 })),
    },
  });
  expect(res.status).toBe(200);
  for (const s of ((await res.json()) as { seats: { id: string; label: string }[] }).seats)
    seatIds.set(s.label, s.id);
  // The whole library day: it runs now, so the desk's day and the display show it as current.
  const today = todayIn(app.deps.clock.now(), 'Europe/Vienna');
  slotId = await createSlot(admin, roomId, today, '00:00', '23:59', 8);
  // A walk-in booked in a running slot of a room with check-in is checked in at once; the
  // second one's check-in is taken back (booked, not checked in).
  await staffBook('Anna', 'Sitz', 'S1');
  const second = await staffBook('Bert', 'Platz', 'S2');
  const undo = await admin.request('DELETE', `/api/admin/tickets/${second}/check-in`);
  expect(undo.status, await undo.clone().text()).toBe(200);
  visitor = new Client(app.baseUrl);
  const held = await visitor.request('POST', '/api/transactions', {
    json: { timeSlotId: slotId, seatId: seatIds.get('S3') },
  });
  expect(held.status, await held.clone().text()).toBe(201);
  const broken = await admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/seats/${seatIds.get('S4')}/out-of-service`,
    { json: { from: today, until: today, reason: 'PC kaputt' } },
  );
  expect(broken.status, await broken.clone().text()).toBe(201);
  await waitFor(
    'the read models have the seats',
    async () =>
      (await states()) === 'S1:checked_in,S2:booked,S3:held,S4:out_of_service,S5:free,S6:free',
    budget(20_000),
  );
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe("the desk's seats of a slot", () => {
  it('says each seat free, held, booked, checked in or out of service, with the visitor on it', async () => {
    const answer = await deskSeats();
    expect(answer.timeSlotId).toBe(slotId);
    const byLabel = new Map(answer.seats.map((s) => [s.label, s]));
    expect(byLabel.get('S1')?.ticket).toMatchObject({ firstName: 'Anna', lastName: 'Sitz' });
    expect(byLabel.get('S2')?.ticket).toMatchObject({ firstName: 'Bert', lastName: 'Platz' });
    expect(byLabel.get('S3')?.ticket).toBeNull();
    expect(byLabel.get('S5')?.ticket).toBeNull();
    expect(byLabel.get('S6')?.attributes).toEqual(['power', 'window']);
    expect(answer.withoutSeat).toEqual([]);
  });

  it('is read by the desk and reports roles; refused without a session and to a room not its own', async () => {
    await addUser(db, 'desk', 'desk password', ['checkin']);
    await addUser(db, 'counter', 'counter password', ['reports']);
    for (const [user, password] of [
      ['desk', 'desk password'],
      ['counter', 'counter password'],
    ] as const) {
      const staff = new Client(app.baseUrl);
      expect((await staff.login(user, password)).status).toBe(200);
      expect((await deskSeats(staff)).seats).toHaveLength(6);
    }
    // A visitor with a cart (no staff session) is refused, as is nobody at all.
    expect((await visitor.get(seatsPath())).status).toBe(401);
    expect((await new Client(app.baseUrl).get(seatsPath())).status).toBe(401);
    const otherRoom = await createRoom(admin, 'Another desk room');
    const wrong = await admin.get(`/api/admin/rooms/${otherRoom}/timeslots/${slotId}/seats`);
    expect(wrong.status).toBe(404);
    expect(((await wrong.json()) as { error: string }).error).toBe('not_found');
    expect((await admin.get(`/api/admin/rooms/x/timeslots/${slotId}/seats`)).status).toBe(400);
  });
});

describe("the desk's day and the display", () => {
  it('count the free seats by attribute, and show the plan without names', async () => {
    const day = await admin.get('/api/admin/day');
    expect(day.status).toBe(200);
    const desk = (await day.json()) as {
      rooms: { id: string; current: { id: string; seats?: unknown } | null }[];
    };
    const room = desk.rooms.find((r) => r.id === roomId);
    expect(room?.current?.id).toBe(slotId);
    // Free: S5 (power) and S6 (power, window); S4 (pc) is out of service.
    expect(room?.current?.seats).toEqual({
      free: 2,
      byAttribute: [
        { attribute: 'power', free: 2 },
        { attribute: 'window', free: 1 },
        { attribute: 'pc', free: 0 },
      ],
    });
    const res = await new Client(app.baseUrl).get(`/api/display?roomId=${roomId}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const personal of ['Anna', 'Sitz', 'Bert', 'Platz']) expect(text).not.toContain(personal);
    const display = JSON.parse(text) as {
      rooms: { seatPlan?: { timeSlotId: string; image: unknown; seats: DeskSeat[] } }[];
    };
    const plan = display.rooms[0]?.seatPlan;
    expect(plan?.timeSlotId).toBe(slotId);
    expect(plan?.image).toBeNull();
    expect(plan?.seats.map((s) => `${s.label}:${s.state}`)).toEqual([
      'S1:taken',
      'S2:taken',
      'S3:taken',
      'S4:out_of_service',
      'S5:free',
      'S6:free',
    ]);
    // A room without a plan has none on the display and no seat counts at the desk.
    const plain = await createRoom(admin, 'Plain room', { ...OPEN_FROM_TODAY });
    const today = todayIn(app.deps.clock.now(), 'Europe/Vienna');
    await createSlot(admin, plain, today, '00:00', '23:59', 3);
    const plainDisplay = (await (await admin.get(`/api/display?roomId=${plain}`)).json()) as {
      rooms: Record<string, unknown>[];
    };
    expect(plainDisplay.rooms[0]?.current).not.toBeNull();
    expect(plainDisplay.rooms[0]).not.toHaveProperty('seatPlan');
    const again = (await (await admin.get('/api/admin/day')).json()) as typeof desk;
    expect(again.rooms.find((r) => r.id === plain)?.current).not.toHaveProperty('seats');
  });

  it('lists a booking beyond the free seats as one without a seat; the desk moves none to a seat out of service', async () => {
    // S5 and S6 are free: two bookings take them, the third is an overbooking without a seat.
    await staffBook('Cora', 'Fünf');
    await staffBook('Dora', 'Sechs');
    const unseated = await staffBook('Emil', 'Ohne');
    await waitFor(
      'the read model has the bookings',
      async () => (await deskSeats()).withoutSeat.length === 1,
      budget(20_000),
    );
    expect((await deskSeats()).withoutSeat).toMatchObject([{ id: unseated, lastName: 'Ohne' }]);
    const answer = await deskSeats();
    const bert = answer.seats.find((s) => s.label === 'S2')!.ticket!.id;
    const refused = await admin.request('PUT', `/api/admin/tickets/${bert}/seat`, {
      json: { seatId: seatIds.get('S4') },
    });
    expect(refused.status).toBe(409);
    const day = (await (await admin.get('/api/admin/day')).json()) as {
      rooms: { id: string; current: { seats?: { free: number } } | null }[];
    };
    expect(day.rooms.find((r) => r.id === roomId)?.current?.seats?.free).toBe(0);
  });
});
