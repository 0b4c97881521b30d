// The live occupancy display: GET /api/display at a fixed clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

// Monday 23 Nov 2026, 10:00 in Vienna (the test app's TIME_ZONE).
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const TODAY = '2026-11-23';

let db: TestDatabase;
let app: TestApp;
let admin: Client;

interface DisplaySlot {
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  freeSeats: number;
  bookableFrom: string | null;
}
interface DisplayRoom {
  id: string;
  name: string;
  current: DisplaySlot | null;
  next: DisplaySlot[];
}
interface Display {
  today: string;
  time: string;
  rooms: DisplayRoom[];
}

const visitor = {
  salutation: 'MS',
  title: 'Dr.',
  firstName: 'Anna',
  lastName: 'Musterfrau',
  organisation: 'Universität Wien',
  email: 'anna.display@example.at',
  phone: '+436641234567',
  accessibility: true,
  language: 'de',
};

/** The display as a screen in the foyer asks for it, after the writes `after` has made. */
async function display(query = '', after?: Client): Promise<Display> {
  const screen = new Client(app.baseUrl);
  screen.lastPosition = after?.lastPosition ?? admin.lastPosition;
  const r = await screen.get(`/api/display${query}`);
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Display;
}

/** A visitor's cart holding one seat of the slot (the seat is held, not booked). */
async function hold(timeSlotId: string): Promise<{ client: Client; transactionId: string }> {
  const client = new Client(app.baseUrl);
  const r = await client.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(r.status, await r.clone().text()).toBe(201);
  return { client, transactionId: ((await r.json()) as { transactionId: string }).transactionId };
}

async function book(cart: { client: Client; transactionId: string }): Promise<void> {
  const r = await cart.client.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
    json: visitor,
  });
  expect(r.status, await r.clone().text()).toBe(200);
}

let reading: string;
let current: string;
let next: string;
let afternoon: string;
let quiet: string;
let empty: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, clock);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  await admin.login('boss', 'correct horse');
  // Open from today, so visitors can hold today's seats.
  reading = await createRoom(admin, 'Display reading room', { openStartValue: 0 });
  current = await createSlot(admin, reading, TODAY, '09:00', '11:00', 5);
  next = await createSlot(admin, reading, TODAY, '11:00', '13:00', 4);
  afternoon = await createSlot(admin, reading, TODAY, '14:00', '16:00', 3);
  await createSlot(admin, reading, '2026-11-24', '09:00', '11:00', 5);
  // Today's only slot has ended: the screen shows the first slot after today.
  quiet = await createRoom(admin, 'Display quiet room', { openStartValue: 0 });
  await createSlot(admin, quiet, TODAY, '08:00', '09:30', 2);
  await createSlot(admin, quiet, '2026-11-26', '08:00', '10:00', 2);
  await createSlot(admin, quiet, '2026-11-25', '12:00', '14:00', 2);
  empty = await createRoom(admin, 'Display empty room');
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('GET /api/display', () => {
  it('answers per room, in the room order, the slot running now and the next ones with free seats', async () => {
    const answer = await display();
    expect(answer.today).toBe(TODAY);
    expect(answer.time).toBe('10:00');
    expect(answer.rooms.map((r) => r.id)).toEqual([reading, quiet, empty]);
    const [room, quietRoom, emptyRoom] = answer.rooms;
    expect(room).toEqual({
      id: reading,
      name: 'Display reading room',
      current: {
        id: current,
        date: TODAY,
        startTime: '09:00',
        endTime: '11:00',
        capacity: 5,
        freeSeats: 5,
        bookableFrom: null,
      },
      next: [
        {
          id: next,
          date: TODAY,
          startTime: '11:00',
          endTime: '13:00',
          capacity: 4,
          freeSeats: 4,
          bookableFrom: null,
        },
        {
          id: afternoon,
          date: TODAY,
          startTime: '14:00',
          endTime: '16:00',
          capacity: 3,
          freeSeats: 3,
          bookableFrom: null,
        },
      ],
    });
    // No slot running and none left today: the first one after today.
    expect(quietRoom!.current).toBeNull();
    expect(quietRoom!.next.map((s) => [s.date, s.startTime])).toEqual([['2026-11-25', '12:00']]);
    expect(emptyRoom).toEqual({
      id: empty,
      name: 'Display empty room',
      current: null,
      next: [],
    });
  });

  it('answers one room with roomId; an unknown room is 404, a bad id 400', async () => {
    const one = await display(`?roomId=${quiet}`);
    expect(one.rooms.map((r) => r.name)).toEqual(['Display quiet room']);

    const screen = new Client(app.baseUrl);
    const unknown = await screen.get('/api/display?roomId=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(((await unknown.json()) as { error: string }).error).toBe('not_found');
    const bad = await screen.get('/api/display?roomId=not-an-id');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('validation__error');
  });

  it('counts a cart hold and a booking as taken seats, and shows no personal data', async () => {
    const cart = await hold(current);
    const held = await display(`?roomId=${reading}`, cart.client);
    expect(held.rooms[0]!.current!.freeSeats).toBe(4);

    await book(cart);
    const booked = await display(`?roomId=${reading}`, cart.client);
    expect(booked.rooms[0]!.current!.freeSeats).toBe(4);
    expect(booked.rooms[0]!.next.map((s) => s.freeSeats)).toEqual([4, 3]);

    const second = await hold(next);
    await book(second);
    const answer = await display('', second.client);
    expect(answer.rooms[0]!.next.map((s) => s.freeSeats)).toEqual([3, 3]);
    // Rooms, times and seat counts only: no field of a ticket or its owner.
    const text = JSON.stringify(answer);
    for (const value of Object.values(visitor)) {
      if (typeof value === 'string' && value.length > 2) expect(text).not.toContain(value);
    }
    for (const room of answer.rooms) {
      expect(Object.keys(room).sort()).toEqual(['current', 'id', 'name', 'next']);
      for (const slot of [room.current, ...room.next]) {
        if (slot) {
          expect(Object.keys(slot).sort()).toEqual([
            'bookableFrom',
            'capacity',
            'date',
            'endTime',
            'freeSeats',
            'id',
            'startTime',
          ]);
        }
      }
    }
  });

  it('never shows fewer than 0 free seats when staff cut the capacity below the tickets', async () => {
    // The slot of 11:00 has one booking; a hold makes two taken seats.
    const cart = await hold(next);
    admin.lastPosition = cart.client.lastPosition;
    const cut = await admin.request('PUT', `/api/admin/rooms/${reading}/timeslots/${next}`, {
      json: { startTime: '11:00', endTime: '13:00', capacity: 1 },
    });
    expect(cut.status).toBe(200);
    const answer = await display(`?roomId=${reading}`);
    expect(answer.rooms[0]!.next[0]).toMatchObject({ id: next, capacity: 1, freeSeats: 0 });
  });

  it('follows the clock: an expired hold frees its seat, a later time moves current and next', async () => {
    // The slot running now has one booking; a further hold lasts 15 minutes from 10:00.
    const cart = await hold(current);
    expect((await display(`?roomId=${reading}`, cart.client)).rooms[0]!.current!.freeSeats).toBe(3);
    try {
      // 10:20: the hold has ended, though the expiry job (not running here) has not released it.
      clock.set(new Date('2026-11-23T09:20:00Z'));
      expect((await display(`?roomId=${reading}`)).rooms[0]!.current!.freeSeats).toBe(4);

      clock.set(new Date('2026-11-23T10:20:00Z')); // 11:20
      const later = await display(`?roomId=${reading}`);
      expect(later.time).toBe('11:20');
      expect(later.rooms[0]!.current).toMatchObject({ id: next, freeSeats: 0 });
      expect(later.rooms[0]!.next.map((s) => s.id)).toEqual([afternoon]);

      clock.set(new Date('2026-11-23T16:30:00Z')); // 17:30: today is over
      const evening = (await display(`?roomId=${reading}`)).rooms[0]!;
      expect(evening.current).toBeNull();
      expect(evening.next.map((s) => [s.date, s.startTime, s.freeSeats])).toEqual([
        ['2026-11-24', '09:00', 5],
      ]);
    } finally {
      clock.set(NOW);
    }
  });

  it("counts the waitlist's claims: a seat freed while people wait is not free for walk-ins", async () => {
    const room = await createRoom(admin, 'Display waitlist room', { openStartValue: 0 });
    const services = { waitlistOfferMinutes: 30 };
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, { json: services });
    expect(set.status).toBe(200);
    const slot = await createSlot(admin, room, TODAY, '16:00', '17:00', 1);
    const cart = await hold(slot);
    const reader = new Client(app.baseUrl);
    const joined = await reader.request('POST', `/api/timeslots/${slot}/waitlist`, {
      json: { email: 'waiting.display@example.at', language: 'de' },
    });
    expect(joined.status, await joined.clone().text()).toBe(201);
    const removed = await cart.client.request('DELETE', `/api/transactions/${cart.transactionId}`);
    expect(removed.status).toBeLessThan(300);
    const shown = await display(`?roomId=${room}`, cart.client);
    expect(shown.rooms[0]!.next).toMatchObject([{ id: slot, capacity: 1, freeSeats: 0 }]);
  });
});

describe('a slot after the booking window', () => {
  it('says from which day it can be booked online, as the visitor calendar does', async () => {
    // Open for two days: until Wednesday 25 Nov; Friday 27 Nov opens on Wednesday 25 (the
    // calendar's laterDays name the same day).
    const later = await createRoom(admin, 'Display later room', {
      openStartValue: 0,
      openEndValue: 2,
      openEndType: 'DAY',
    });
    await createSlot(admin, later, '2026-11-27', '09:00', '11:00', 3);
    const answer = await display(`?roomId=${later}`);
    expect(answer.rooms[0]!.next).toMatchObject([
      { date: '2026-11-27', freeSeats: 3, bookableFrom: '2026-11-25' },
    ]);
    const calendar = await new Client(app.baseUrl).get(
      `/api/rooms/${later}/calendar?fromDate=2026-11-27&untilDate=2026-11-27`,
      { 'X-Min-Position': admin.lastPosition! },
    );
    expect(await calendar.json()).toMatchObject({
      bookableUntil: '2026-11-25',
      laterDays: [{ date: '2026-11-27', bookableFrom: '2026-11-25' }],
    });
  });
});

describe('closed slots', () => {
  it('are not shown: a closed day of a room shows its next open slot instead, the running one too', async () => {
    const today = todayIn(clock.now(), 'Europe/Vienna');
    const room = await createRoom(admin, 'Display closed room', { openStartValue: 0 });
    // 10:00 now: the 09:00 slot is running, the 14:00 one is next.
    await createSlot(admin, room, today, '09:00', '11:00', 5);
    await createSlot(admin, room, today, '14:00', '16:00', 5);
    const tomorrow = await createSlot(admin, room, addDays(today, 1), '09:00', '11:00', 4);
    const later = await createSlot(admin, room, addDays(today, 2), '12:00', '14:00', 3);
    const before = (await display(`?roomId=${room}`)).rooms[0]!;
    expect(before.current?.startTime).toBe('09:00');
    expect(before.next.map((s) => s.startTime)).toEqual(['14:00']);

    const close = (date: string) =>
      admin.request('POST', '/api/admin/closures', {
        json: { roomIds: [room], fromDate: date, untilDate: date, reason: 'Wasserschaden' },
      });
    // Today closed: neither the running slot nor the afternoon shows; the screen points to the
    // first open slot after today, as when today's slots are over.
    expect((await close(today)).status).toBe(200);
    const closedToday = (await display(`?roomId=${room}`)).rooms[0]!;
    expect(closedToday.current).toBeNull();
    expect(closedToday.next.map((s) => s.id)).toEqual([tomorrow]);

    // Tomorrow closed as well: the day after.
    expect((await close(addDays(today, 1))).status).toBe(200);
    const closedTwice = (await display(`?roomId=${room}`)).rooms[0]!;
    expect(closedTwice.current).toBeNull();
    expect(closedTwice.next).toMatchObject([
      { id: later, date: addDays(today, 2), startTime: '12:00', freeSeats: 3 },
    ]);
  });
});
