// Over 300 lines: one file per API area; the cases share one app and database at one fixed clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';

let db: TestDatabase;
let app: TestApp;
let admin: Client;
// Monday 23 Nov 2026, 10:00 in Vienna.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));

const room = {
  name: 'Slot room',
  description: 'Room for slot tests',
  capacity: 10,
  openStartValue: 2,
  openStartType: 'DAY',
  openEndValue: 30,
  openEndType: 'WORKING_DAY',
};
const slot = {
  startTime: '09:00',
  endTime: '12:00',
  startDate: '2026-12-01',
  repeatUntil: '2026-12-01',
  daysOfWeek: [],
  includeHolidays: false,
  capacity: 5,
};

/** Visitors hold seats of a slot through the booking API (each its own cart). */
async function holdSeats(timeSlotId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const visitor = new Client(app.baseUrl);
    const res = await visitor.request('POST', '/api/transactions', { json: { timeSlotId } });
    expect(res.status).toBe(201);
    // Staff's next reads wait for these writes (they come later than staff's own).
    admin.lastPosition = visitor.lastPosition;
  }
}

async function events(): Promise<number> {
  return Number(
    (await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n,
  );
}
async function newRoom(overrides: Record<string, unknown> = {}): Promise<string> {
  const r = await admin.request('POST', '/api/admin/rooms', { json: { ...room, ...overrides } });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: string }).id;
}
type Slot = {
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  ticketCount: number;
  count: number;
  roomName: string;
  failedRules: string[];
};
async function slotsOf(roomId: string, q = ''): Promise<Slot[]> {
  const r = await admin.get(`/api/admin/rooms/${roomId}/timeslots${q}`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { content: Slot[] }).content;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, clock);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  await admin.login('boss', 'correct horse');
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('creating time slots', () => {
  it('creates a one-off slot and answers createdTimeSlots', async () => {
    const roomId = await newRoom();
    const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, { json: slot });
    expect(r.status).toBe(201);
    expect(((await r.json()) as { createdTimeSlots: number }).createdTimeSlots).toBe(1);
    const slots = await slotsOf(roomId);
    expect(slots).toHaveLength(1);
    expect(slots[0]).toMatchObject({
      date: '2026-12-01',
      startTime: '09:00',
      endTime: '12:00',
      capacity: 5,
      ticketCount: 0,
      count: 0,
      roomName: 'Slot room',
      failedRules: [],
    });
  });

  it('repeats on the chosen weekdays, skipping holidays unless included', async () => {
    const h = await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Mariä Empfängnis', date: '2026-12-08' },
    });
    expect(h.status).toBe(201);
    const roomId = await newRoom({ name: 'Series room' });
    const series = {
      ...slot,
      startDate: '2026-12-01',
      repeatUntil: '2026-12-31',
      daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
    };
    const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, { json: series });
    expect(await r.json()).toMatchObject({ createdTimeSlots: 22 });
    const dates = (await slotsOf(roomId)).map((s) => s.date);
    expect(dates).not.toContain('2026-12-08');
    expect(dates).not.toContain('2026-12-05');
    expect(dates).toContain('2026-12-07');
    const withHolidays = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: { ...series, startTime: '13:00', endTime: '14:00', includeHolidays: true },
    });
    expect(await withHolidays.json()).toMatchObject({ createdTimeSlots: 23 });
    expect(
      (await slotsOf(roomId, '?fromDate=2026-12-08&untilDate=2026-12-08')).map((s) => s.startTime),
    ).toEqual(['13:00']);
  });

  it('creates the slot on a Sunday holiday when repeat-until equals the start date', async () => {
    const roomId = await newRoom({ name: 'Sunday room' });
    await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Christtag', date: '2026-12-25' },
    });
    const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: { ...slot, startDate: '2026-12-25', repeatUntil: '2026-12-25', daysOfWeek: ['MONDAY'] },
    });
    expect(await r.json()).toMatchObject({ createdTimeSlots: 1 });
  });

  it('keeps wall-clock times on the DST change days', async () => {
    const roomId = await newRoom({ name: 'DST room' });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '02:00',
        endTime: '03:30',
        startDate: '2027-03-27',
        repeatUntil: '2027-03-29',
        daysOfWeek: ['SATURDAY', 'SUNDAY', 'MONDAY'],
      },
    });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '02:00',
        endTime: '03:30',
        startDate: '2027-10-31',
        repeatUntil: '2027-10-31',
      },
    });
    const slots = await slotsOf(roomId);
    expect(slots.map((s) => [s.date, s.startTime, s.endTime])).toEqual([
      ['2027-03-27', '02:00', '03:30'],
      ['2027-03-28', '02:00', '03:30'],
      ['2027-03-29', '02:00', '03:30'],
      ['2027-10-31', '02:00', '03:30'],
    ]);
  });

  it('refuses a batch with any overlapping slot, creating none of it', async () => {
    const roomId = await newRoom({ name: 'Overlap room' });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: { ...slot, startDate: '2026-12-10', repeatUntil: '2026-12-10' },
    });
    const before = await events();
    const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '11:00',
        endTime: '13:00',
        startDate: '2026-12-07',
        repeatUntil: '2026-12-11',
        daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
      },
    });
    expect(r.status).toBe(409);
    expect(await r.json()).toMatchObject({
      error: 'timeslot__overlapping',
      payload: [],
      values: { date: '2026-12-10' },
    });
    expect(await events()).toBe(before);
    expect(await slotsOf(roomId)).toHaveLength(1);
    // Touching ends do not overlap; other rooms do not clash.
    const touching = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '12:00',
        endTime: '13:00',
        startDate: '2026-12-10',
        repeatUntil: '2026-12-10',
      },
    });
    expect(touching.status).toBe(201);
    const other = await newRoom({ name: 'Other room' });
    expect(
      (
        await admin.request('POST', `/api/admin/rooms/${other}/timeslots`, {
          json: { ...slot, startDate: '2026-12-10', repeatUntil: '2026-12-10' },
        })
      ).status,
    ).toBe(201);
  });

  it('refuses concurrent overlapping creations in one room: exactly one wins', async () => {
    const roomId = await newRoom({ name: 'Race room' });
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
          json: {
            ...slot,
            startTime: `0${i}:30`,
            endTime: '09:45',
            startDate: '2026-12-15',
            repeatUntil: '2026-12-15',
          },
        }),
      ),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(attempts.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await slotsOf(roomId)).toHaveLength(1);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['start time missing', { startTime: '' }, 'startTime', 'Value is required'],
    ['hour 24', { startTime: '24:00' }, 'startTime', 'Select a valid time'],
    ['minute 60', { endTime: '10:60' }, 'endTime', 'Select a valid time'],
    [
      'end before start',
      { startTime: '12:00', endTime: '11:00' },
      'endTime',
      'Time until must be after Time from',
    ],
    [
      'end equal to start',
      { startTime: '12:00', endTime: '12:00' },
      'endTime',
      'Time until must be after Time from',
    ],
    ['start date missing', { startDate: undefined }, 'startDate', 'Value is required'],
    ['start date invalid', { startDate: '2026-02-30' }, 'startDate', 'Select a valid date'],
    [
      'repeat-until before start',
      { repeatUntil: '2026-11-30' },
      'repeatUntil',
      'Date not valid or ends BEFORE start date',
    ],
    [
      'repeating without weekday',
      { repeatUntil: '2026-12-31', daysOfWeek: [] },
      'daysOfWeek',
      'Select at least one weekday',
    ],
    ['unknown weekday', { repeatUntil: '2026-12-31', daysOfWeek: ['FUNDAY'] }, 'daysOfWeek.0', ''],
    ['capacity missing', { capacity: undefined }, 'capacity', 'Value is required'],
    [
      'capacity too large',
      { capacity: 100000 },
      'capacity',
      'The value must be between 0 and 99999',
    ],
    ['capacity fraction', { capacity: 1.5 }, 'capacity', 'Enter an integer'],
  ];
  for (const [title, change, field, message] of invalid) {
    it(`refuses: ${title}`, async () => {
      const roomId = await newRoom({ name: `Invalid ${title}`.slice(0, 50) });
      const before = await events();
      const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
        json: { ...slot, ...change },
      });
      expect(r.status).toBe(400);
      const body = (await r.json()) as {
        error: string;
        errors: { field: string; message: string }[];
      };
      expect(body.error).toBe('validation__error');
      const e = body.errors.find((x) => x.field === field);
      expect(e, JSON.stringify(body.errors)).toBeDefined();
      if (message) expect(e!.message).toBe(message);
      expect(await events()).toBe(before);
    });
  }

  it('refuses more than 999 slots at once and unknown rooms', async () => {
    const roomId = await newRoom({ name: 'Huge series room' });
    const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startDate: '2027-01-01',
        repeatUntil: '2030-12-31',
        daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
      },
    });
    expect(r.status).toBe(400);
    expect(
      (
        await admin.request(
          'POST',
          '/api/admin/rooms/00000000-0000-4000-8000-000000000000/timeslots',
          { json: slot },
        )
      ).status,
    ).toBe(404);
  });
});

describe('editing, capacity and deleting', () => {
  it('edits times and capacity, refuses an overlap, deletes a slot without tickets', async () => {
    const roomId = await newRoom({ name: 'Edit room' });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: { ...slot, startDate: '2026-12-02', repeatUntil: '2026-12-02' },
    });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '13:00',
        endTime: '15:00',
        startDate: '2026-12-02',
        repeatUntil: '2026-12-02',
      },
    });
    const [first, second] = await slotsOf(roomId);
    const get = await admin.get(`/api/admin/rooms/${roomId}/timeslots/${first!.id}`);
    expect(await get.json()).toMatchObject({ id: first!.id, startTime: '09:00' });
    const ok = await admin.request('PUT', `/api/admin/rooms/${roomId}/timeslots/${first!.id}`, {
      json: { startTime: '08:00', endTime: '13:00', capacity: 7 },
    });
    expect(ok.status).toBe(200);
    expect(
      await (await admin.get(`/api/admin/rooms/${roomId}/timeslots/${first!.id}`)).json(),
    ).toMatchObject({ startTime: '08:00', endTime: '13:00', capacity: 7 });
    const clash = await admin.request('PUT', `/api/admin/rooms/${roomId}/timeslots/${first!.id}`, {
      json: { startTime: '08:00', endTime: '13:30', capacity: 7 },
    });
    expect(clash.status).toBe(409);
    expect(((await clash.json()) as { error: string }).error).toBe('timeslot__overlapping');
    const bad = await admin.request('PUT', `/api/admin/rooms/${roomId}/timeslots/${first!.id}`, {
      json: { startTime: '08:00', endTime: '07:00', capacity: 7 },
    });
    expect(bad.status).toBe(400);
    expect(
      (await admin.request('DELETE', `/api/admin/rooms/${roomId}/timeslots/${second!.id}`)).status,
    ).toBe(200);
    expect((await slotsOf(roomId)).map((s) => s.id)).toEqual([first!.id]);
    expect((await admin.get(`/api/admin/rooms/${roomId}/timeslots/${second!.id}`)).status).toBe(
      404,
    );
    // The freed times can be used again.
    const again = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '13:00',
        endTime: '15:00',
        startDate: '2026-12-02',
        repeatUntil: '2026-12-02',
      },
    });
    expect(again.status).toBe(201);
    const otherRoom = await newRoom({ name: 'Wrong room' });
    expect(
      (await admin.request('DELETE', `/api/admin/rooms/${otherRoom}/timeslots/${first!.id}`))
        .status,
    ).toBe(404);
  });

  it('sets the capacity of every slot of the room in a date range', async () => {
    const roomId = await newRoom({ name: 'Capacity room' });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startDate: '2026-12-01',
        repeatUntil: '2026-12-04',
        daysOfWeek: ['TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
      },
    });
    const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/capacity`, {
      json: { fromDate: '2026-12-02', untilDate: '2026-12-03', capacity: 0 },
    });
    expect(await r.json()).toMatchObject({ updatedTimeSlots: 2 });
    expect((await slotsOf(roomId)).map((s) => s.capacity)).toEqual([5, 0, 0, 5]);
    const bad = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/capacity`, {
      json: { fromDate: '2026-12-03', untilDate: '2026-12-02', capacity: 1 },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe(
      'untilDate',
    );
  });

  it('lists overbooked slots across rooms when capacity is cut below the tickets', async () => {
    const roomId = await newRoom({ name: 'Overbooked room' });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: { ...slot, startDate: '2026-12-03', repeatUntil: '2026-12-03' },
    });
    const [s] = await slotsOf(roomId);
    // Tickets arrive with the booking slice; the read model's ticket count is what the listing reads.
    // Four visitors hold seats; staff then cut the capacity below them.
    await holdSeats(s!.id, 4);
    const refused = await admin.request('DELETE', `/api/admin/rooms/${roomId}/timeslots/${s!.id}`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: 'timeslot__has_tickets',
      payload: ['seats', '4', '0', '4', expect.any(String)],
    });
    await admin.request('PUT', `/api/admin/rooms/${roomId}/timeslots/${s!.id}`, {
      json: { startTime: '09:00', endTime: '12:00', capacity: 2 },
    });
    const r = await admin.get(
      '/api/admin/rooms/timeslots?status=OVERBOOKED&fromDate=2026-11-23&sort=date:ASC,startTime:ASC',
    );
    const page = (await r.json()) as { content: Slot[]; totalCount: number };
    expect(page.content.map((x) => x.id)).toEqual([s!.id]);
    expect(page.content[0]).toMatchObject({
      ticketCount: 4,
      capacity: 2,
      roomName: 'Overbooked room',
    });
  });
});

describe('visitor booking view', () => {
  it('hides slots without capacity or outside the booking window and marks full ones', async () => {
    // Today is Monday 23 Nov 2026; the window is DAY/2 .. WORKING_DAY/3 = 25 Nov .. 26 Nov.
    const roomId = await newRoom({
      name: 'Visitor room',
      openStartValue: 2,
      openStartType: 'DAY',
      openEndValue: 3,
      openEndType: 'WORKING_DAY',
    });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startDate: '2026-11-23',
        repeatUntil: '2026-11-28',
        daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'],
      },
    });
    const all = await slotsOf(roomId);
    const byDate = new Map(all.map((s) => [s.date, s.id]));
    await admin.request(
      'PUT',
      `/api/admin/rooms/${roomId}/timeslots/${byDate.get('2026-11-26')!}`,
      { json: { startTime: '09:00', endTime: '12:00', capacity: 0 } },
    );
    await holdSeats(byDate.get('2026-11-25')!, 5);
    const visitor = new Client(app.baseUrl);
    visitor.lastPosition = admin.lastPosition;
    const r = await visitor.get(
      `/api/rooms/${roomId}/booking?fromDate=2026-11-01&untilDate=2026-11-30`,
    );
    expect(r.status).toBe(200);
    const slots = (await r.json()) as Slot[];
    expect(slots.map((s) => [s.date, s.failedRules])).toEqual([
      ['2026-11-25', ['timeslot_no_tickets_left']],
    ]);
    // Staff's view of a slot answers with the same seat rule, for a visitor with an empty cart;
    // a slot the calendar hides says why (timeslot_not_open).
    const staffRules = async (date: string) =>
      (
        (await (
          await admin.get(`/api/admin/rooms/${roomId}/timeslots/${byDate.get(date)!}`)
        ).json()) as Slot
      ).failedRules;
    expect(await staffRules('2026-11-25')).toEqual(['timeslot_no_tickets_left']);
    expect(await staffRules('2026-11-23')).toEqual(['timeslot_not_open']);
    expect(await staffRules('2026-11-26')).toEqual([
      'timeslot_not_open',
      'timeslot_no_tickets_left',
    ]);
    // The staff's lists (the room's calendar, every room's slots) answer with the same rule.
    const expected = await Promise.all(
      [...byDate.keys()].map(async (date) => [date, await staffRules(date)] as const),
    );
    expect(expected.map(([date]) => date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
    ]);
    expect((await slotsOf(roomId)).map((s) => [s.date, s.failedRules])).toEqual(expected);
    const everyRoom = await admin.get(
      '/api/admin/rooms/timeslots?fromDate=2026-11-23&untilDate=2026-11-28&limit=999',
    );
    expect(everyRoom.status).toBe(200);
    const ofThisRoom = (
      (await everyRoom.json()) as { content: (Slot & { roomId: string })[] }
    ).content.filter((s) => s.roomId === roomId);
    expect(ofThisRoom.map((s) => [s.date, s.failedRules])).toEqual(expected);
    expect(new Map(expected).get('2026-11-24')).toEqual(['timeslot_not_open']);
    // A day later the window moves on by one day.
    clock.advance(24 * 3600 * 1000);
    const later = (await (
      await visitor.get(`/api/rooms/${roomId}/booking?fromDate=2026-11-01&untilDate=2026-11-30`)
    ).json()) as Slot[];
    expect(later.map((s) => s.date)).toEqual(['2026-11-27']);
    clock.advance(-24 * 3600 * 1000);
    expect(
      (await visitor.get(`/api/rooms/${roomId}/booking?fromDate=2026-11-30&untilDate=2026-11-01`))
        .status,
    ).toBe(400);
    expect((await visitor.get(`/api/rooms/${roomId}/booking`)).status).toBe(400);
  });
});

// Booked and held seats apart; held seats block no longer than their hold.
// Last in the file: it moves the shared clock past a hold.
describe('booked and held seats of a slot', () => {
  it('names booked and held apart, says until when the holds last, and frees the slot after', async () => {
    const roomId = await newRoom({ name: 'Held seats room' });
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: { ...slot, startDate: '2026-12-04', repeatUntil: '2026-12-04' },
    });
    const [s] = await slotsOf(roomId);
    const booked = await admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/timeslots/${s!.id}/booking`,
      { json: { salutation: 'MS', firstName: 'Bea', lastName: 'Booked', accessibility: false } },
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    const expiries: string[] = [];
    for (let i = 0; i < 2; i++) {
      const visitor = new Client(app.baseUrl);
      const res = await visitor.request('POST', '/api/transactions', {
        json: { timeSlotId: s!.id },
      });
      expect(res.status).toBe(201);
      expiries.push(((await res.json()) as { expiredAt: string }).expiredAt);
      admin.lastPosition = visitor.lastPosition;
      clock.advance(60_000);
    }
    const heldUntil = new Date(expiries[1]!).toISOString();

    const one = await admin.get(`/api/admin/rooms/${roomId}/timeslots/${s!.id}`);
    expect(await one.json()).toMatchObject({
      ticketCount: 3,
      bookedCount: 1,
      heldCount: 2,
      heldUntil,
    });
    const counts = {
      activeReservationCount: 3,
      bookedReservationCount: 1,
      heldReservationCount: 2,
      heldUntil,
    };
    const room = await admin.get(`/api/admin/rooms/${roomId}`);
    expect(await room.json()).toMatchObject(counts);
    const byName = `?name=${encodeURIComponent('Held seats room')}`;
    const staffList = (await (await admin.get(`/api/admin/rooms${byName}`)).json()) as {
      content: unknown[];
    };
    expect(staffList.content).toEqual([expect.objectContaining({ id: roomId, ...counts })]);
    // The visitors' answers of the same room carry no reservation counts: they are staff's.
    const passerby = new Client(app.baseUrl);
    passerby.lastPosition = admin.lastPosition;
    const publicRoom = await passerby.get(`/api/rooms/${roomId}`);
    expect(publicRoom.status).toBe(200);
    const publicList = (await (await passerby.get(`/api/rooms${byName}`)).json()) as {
      content: unknown[];
    };
    expect(publicList.content).toHaveLength(1);
    for (const answer of [await publicRoom.json(), publicList.content[0]]) {
      expect(answer).toMatchObject({ id: roomId, name: 'Held seats room' });
      for (const field of Object.keys(counts)) expect(answer).not.toHaveProperty(field);
    }
    const refused = await admin.request('DELETE', `/api/admin/rooms/${roomId}/timeslots/${s!.id}`);
    expect(refused.status).toBe(409);
    const problem = (await refused.json()) as { error: string; payload: string[]; title: string };
    expect(problem.error).toBe('timeslot__has_tickets');
    expect(problem.payload).toEqual(['seats', '3', '1', '2', heldUntil]);
    expect(problem.title).toContain('1 booked');
    expect(problem.title).toContain('2 held in carts until');
    const roomRefused = await admin.request('DELETE', `/api/admin/rooms/${roomId}`);
    expect(roomRefused.status).toBe(409);
    expect(await roomRefused.json()).toMatchObject({
      error: 'room__has_active_reservations',
      payload: ['seats', '3', '1', '2', heldUntil],
    });

    // After the last hold has ended, only the booking counts (the expiry job may not have run).
    clock.set(new Date(new Date(heldUntil).getTime() + 1000));
    const later = await admin.get(`/api/admin/rooms/${roomId}/timeslots/${s!.id}`);
    expect(await later.json()).toMatchObject({ bookedCount: 1, heldCount: 0, heldUntil: null });
    const still = await admin.request('DELETE', `/api/admin/rooms/${roomId}/timeslots/${s!.id}`);
    expect(still.status).toBe(409);
    expect(await still.json()).toMatchObject({ payload: ['seats', '1', '1', '0', ''] });

    // A slot with holds only can be deleted once they have ended.
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        ...slot,
        startTime: '13:00',
        endTime: '14:00',
        startDate: '2026-12-04',
        repeatUntil: '2026-12-04',
      },
    });
    const heldOnly = (await slotsOf(roomId)).find((x) => x.startTime === '13:00')!;
    const visitor = new Client(app.baseUrl);
    const cart = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: heldOnly.id },
    });
    expect(cart.status).toBe(201);
    admin.lastPosition = visitor.lastPosition;
    const blocked = await admin.request(
      'DELETE',
      `/api/admin/rooms/${roomId}/timeslots/${heldOnly.id}`,
    );
    expect(blocked.status).toBe(409);
    expect(((await blocked.json()) as { payload: string[] }).payload.slice(0, 4)).toEqual([
      'seats',
      '1',
      '0',
      '1',
    ]);
    const { expiredAt } = (await cart.json()) as { expiredAt: string };
    clock.set(new Date(new Date(expiredAt).getTime() + 1000));
    const freed = await admin.request(
      'DELETE',
      `/api/admin/rooms/${roomId}/timeslots/${heldOnly.id}`,
    );
    expect(freed.status).toBe(200);
  });
});
