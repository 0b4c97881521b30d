// The desk's day: GET /api/admin/day (the dashboard), GET /api/admin/check-in/lookup (what a code
// names on any day, who checked it in) and the reservations search by booking number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { checkInCodes, ManualClock } from '@rr/platform';
import {
  addUser,
  Client,
  openAdminSuite,
  TEST_KEY_SECRET,
  type AdminSuite,
} from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

// 10:30 in Vienna (UTC+1 in November), the test app's TIME_ZONE; every date follows it.
const NOW = new Date('2026-11-23T09:30:00Z');
const clock = new ManualClock(NOW);
const TODAY = '2026-11-23';
const TOMORROW = addDays(TODAY, 1);
const codes = checkInCodes(TEST_KEY_SECRET);

let suite: AdminSuite;
let desk: Client;
let reading: string;
let quiet: string;
let morning: string;
let noon: string;
let later: string;
let tomorrow: string;
let quietNow: string;

interface Booked {
  ticketId: string;
  bookingNumber: string;
}

let people = 0;
/** A staff booking of one ticket (confirmed overbooking: staff may fill a slot beyond its seats). */
async function staffBook(roomId: string, timeSlotId: string): Promise<Booked> {
  const r = await suite.admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/timeslots/${timeSlotId}/booking`,
    {
      json: {
        salutation: 'MS',
        firstName: 'Erika',
        lastName: `Pult${++people}`,
        phone: '+43111222',
        accessibility: false,
        confirmOverbooking: true,
      },
    },
  );
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json()) as Booked;
}

interface DeskSlot {
  id: string;
  startTime: string;
  endTime: string;
  capacity: number;
  booked: number;
  checkedIn: number;
  held: number;
  free: number;
  waiting: number;
}
interface DeskDay {
  date: string;
  time: string;
  rooms: {
    id: string;
    name: string;
    checkIn: boolean;
    current: DeskSlot | null;
    next: DeskSlot | null;
  }[];
  checkIn: { booked: number; checkedIn: number; noShows: number } | null;
  alerts: {
    kind: string;
    timeSlotId: string;
    roomName: string;
    tickets: number;
    capacity: number;
  }[];
}

async function day(client: Client = suite.admin): Promise<DeskDay> {
  client.lastPosition = desk.lastPosition ?? suite.admin.lastPosition;
  const r = await client.get('/api/admin/day');
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as DeskDay;
}

let checkedIn: Booked;
let other: Booked;
let overbooked: Booked[];
let future: Booked;

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  await addUser(suite.db, 'desk', 'check them in', ['checkin']);
  desk = new Client(suite.app.baseUrl);
  expect((await desk.login('desk', 'check them in')).status).toBe(200);
  reading = await createRoom(suite.admin, 'Desk reading room');
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${reading}/services`, {
    json: { checkInMinutesBefore: 15, noShowReleaseMinutes: null },
  });
  expect(services.status).toBe(200);
  quiet = await createRoom(suite.admin, 'Desk quiet room');
  morning = await createSlot(suite.admin, reading, TODAY, '08:00', '10:00', 5);
  noon = await createSlot(suite.admin, reading, TODAY, '10:00', '12:00', 3);
  later = await createSlot(suite.admin, reading, TODAY, '14:00', '16:00', 1);
  tomorrow = await createSlot(suite.admin, reading, TOMORROW, '10:00', '12:00', 4);
  quietNow = await createSlot(suite.admin, quiet, TODAY, '09:00', '11:00', 2);
  // Booked before the noon slot started (a staff booking of a running slot is checked in with it).
  clock.set(new Date('2026-11-23T08:30:00Z'));
  checkedIn = await staffBook(reading, noon);
  other = await staffBook(reading, noon);
  clock.set(NOW);
  overbooked = [await staffBook(reading, later), await staffBook(reading, later)];
  future = await staffBook(reading, tomorrow);
  const r = await desk.request('POST', '/api/admin/check-in', {
    json: { code: checkedIn.bookingNumber },
  });
  expect(r.status, await r.clone().text()).toBe(200);
});
afterAll(async () => {
  await suite?.close();
});

describe('GET /api/admin/day', () => {
  it("answers per room the current and next slot of today with their counts, at the clock's time", async () => {
    const answer = await day();
    expect(answer.date).toBe(TODAY);
    expect(answer.time).toBe('10:30');
    expect(answer.rooms.map((r) => r.name)).toEqual(['Desk reading room', 'Desk quiet room']);
    const [room, quietRoom] = answer.rooms;
    expect(room).toEqual({
      id: reading,
      name: 'Desk reading room',
      checkIn: true,
      current: {
        id: noon,
        startTime: '10:00',
        endTime: '12:00',
        capacity: 3,
        booked: 2,
        checkedIn: 1,
        held: 0,
        free: 1,
        waiting: 0,
      },
      next: {
        id: later,
        startTime: '14:00',
        endTime: '16:00',
        capacity: 1,
        booked: 2,
        checkedIn: 0,
        held: 0,
        free: 0,
        waiting: 0,
      },
    });
    expect(quietRoom).toMatchObject({ id: quiet, checkIn: false, next: null });
    expect(quietRoom!.current).toMatchObject({ id: quietNow, booked: 0, free: 2 });
    // The morning slot has ended; tomorrow's is not the desk's day.
    expect(JSON.stringify(answer)).not.toContain(morning);
    expect(JSON.stringify(answer)).not.toContain(tomorrow);
  });

  it("counts today's check-ins of the rooms with check-in and alerts the overbooked slots", async () => {
    const answer = await day();
    expect(answer.checkIn).toEqual({ booked: 4, checkedIn: 1, noShows: 0 });
    expect(answer.alerts).toEqual([
      {
        kind: 'overbooked',
        timeSlotId: later,
        roomId: reading,
        roomName: 'Desk reading room',
        startTime: '14:00',
        endTime: '16:00',
        capacity: 1,
        tickets: 2,
      },
    ]);
  });

  it('follows the clock: after the last slot nothing runs and nothing is next', async () => {
    clock.set(new Date(`${TODAY}T16:30:00+01:00`));
    try {
      const answer = await day();
      expect(answer.time).toBe('16:30');
      expect(answer.rooms.every((r) => r.current === null && r.next === null)).toBe(true);
    } finally {
      clock.set(NOW);
    }
  });

  it('is for staff: the check-in role reads it, a visitor gets 401', async () => {
    expect((await day(desk)).date).toBe(TODAY);
    const r = await new Client(suite.app.baseUrl).get('/api/admin/day');
    expect(r.status).toBe(401);
  });
});

describe('GET /api/admin/check-in/lookup', () => {
  type Lookup = {
    tickets: {
      id: string;
      date: string;
      roomName: string;
      startTime: string;
      checkedInAt: string | null;
      checkedInBy: string | null;
      checkInOffered: boolean;
    }[];
  };
  async function lookup(code: string) {
    desk.lastPosition = desk.lastPosition ?? suite.admin.lastPosition;
    return desk.get(`/api/admin/check-in/lookup?code=${encodeURIComponent(code)}`);
  }

  it('names the day and room of a booking number of another day', async () => {
    const r = await lookup(future.bookingNumber.toLowerCase());
    expect(r.status).toBe(200);
    expect(((await r.json()) as Lookup).tickets).toEqual([
      expect.objectContaining({
        id: future.ticketId,
        date: TOMORROW,
        startTime: '10:00',
        roomName: 'Desk reading room',
        checkInOffered: true,
        checkedInAt: null,
        checkedInBy: null,
      }),
    ]);
    // The check-in by that code is refused as not found (it is not today's); the lookup explains.
    const refused = await desk.request('POST', '/api/admin/check-in', {
      json: { code: future.bookingNumber },
    });
    expect(refused.status).toBe(404);
  });

  it('says when and by whom a QR reference was checked in', async () => {
    const r = await lookup(codes.codeOf(checkedIn.ticketId));
    expect(r.status).toBe(200);
    expect(((await r.json()) as Lookup).tickets).toEqual([
      expect.objectContaining({
        id: checkedIn.ticketId,
        date: TODAY,
        checkedInAt: NOW.toISOString(),
        checkedInBy: 'desk',
      }),
    ]);
    // The check-in list says it too.
    const list = (await (await desk.get('/api/admin/check-in')).json()) as {
      rooms: { tickets: { id: string; checkedInBy: string | null }[] }[];
    };
    const tickets = list.rooms.flatMap((x) => x.tickets);
    expect(tickets.find((t) => t.id === checkedIn.ticketId)?.checkedInBy).toBe('desk');
    expect(tickets.find((t) => t.id === other.ticketId)?.checkedInBy).toBeNull();
  });

  it('answers 404 for a code that names nothing and 400 for an empty one', async () => {
    const none = await lookup('R-ZZZZZZ');
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: string }).error).toBe('not_found');
    const empty = await lookup(' ');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBe('validation__error');
  });
});

describe('GET /api/admin/tickets?searchTerm=R-…', () => {
  it("finds that booking's tickets by its booking number, in any case", async () => {
    const [first] = overbooked;
    const r = await suite.admin.get(
      `/api/admin/tickets?searchTerm=${encodeURIComponent(` ${first!.bookingNumber.toLowerCase()} `)}&fromDate=${TODAY}&sort=date:ASC`,
    );
    expect(r.status).toBe(200);
    const page = (await r.json()) as { content: { id: string }[]; totalCount: number };
    expect(page.content.map((t) => t.id)).toEqual([first!.ticketId]);
    expect(page.totalCount).toBe(1);
    // The default order (by name) finds it too.
    const byName = (await (
      await suite.admin.get(`/api/admin/tickets?searchTerm=${first!.bookingNumber}`)
    ).json()) as { totalCount: number };
    expect(byName.totalCount).toBe(1);
  });
});
