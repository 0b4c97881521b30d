import { expect } from 'vitest';
import { Client } from '../support/app.ts';
import { createRoom, createSlot as createSlotOn } from '../support/fixtures.ts';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { iso, LIBRARY_ZONE, libraryTime } from './dates.ts';
import { E2E_ADMIN, startBrowserTest, type BrowserTest } from './harness.ts';

/**
 * The browser tests' own data, created through the real admin API of the server under test (the
 * servers start without the demo seed, see `startServer`): rooms, and time slots in them.
 */

export interface TestRoom {
  name: string;
  description: string;
  capacity: number;
}

/**
 * The rooms every browser test starts with, in this order (lists show rooms in the order they
 * were created). Their names are the tests' own and none of the demo seed's.
 */
export const TEST_ROOMS = [
  {
    name: 'Lesesaal Nord',
    description: 'Testraum: 60 Tische, Tageslicht, Stillarbeit',
    capacity: 60,
  },
  { name: 'Lesesaal Süd', description: 'Testraum: Altbestand unter Aufsicht', capacity: 12 },
  { name: 'Medienraum', description: 'Testraum: Zeitschriften und Mikrofilme', capacity: 24 },
] as const satisfies readonly TestRoom[];

export const TEST_ROOM_NAMES: readonly string[] = TEST_ROOMS.map((room) => room.name);
export const [FIRST_ROOM, SECOND_ROOM] = TEST_ROOM_NAMES as [string, string, string];

/** A client signed in as the admin of the e2e server (the `ADMIN_*` variables of `startServer`). */
export async function signInAdmin(baseUrl: string): Promise<Client> {
  const admin = new Client(baseUrl);
  const res = await admin.login(E2E_ADMIN.username, E2E_ADMIN.password);
  expect(res.status, await res.clone().text()).toBe(200);
  return admin;
}

/** A one-off time slot on day `d` (also on a holiday); answers its id. */
export const createSlot = (
  admin: Client,
  roomId: string,
  d: Date,
  startTime: string,
  endTime: string,
  capacity: number,
): Promise<string> => createSlotOn(admin, roomId, iso(d), startTime, endTime, capacity);

/**
 * A time slot over the whole of today (00:00-23:59) in the library's zone `zone`: with a zone from
 * `middayZone`, the slot runs now and for hours on. Answers its id.
 */
export const createWholeDaySlot = (
  admin: Client,
  roomId: string,
  zone: string,
  capacity: number,
): Promise<string> =>
  createSlotOn(admin, roomId, libraryTime(new Date(), zone).date, '00:00', '23:59', capacity);

/**
 * Waits until the read models have caught up with a write position (by default the client's
 * last write). The browser is another client that has not seen that position: without this wait
 * its first read could come before the change shows.
 */
export async function waitForReadModels(
  client: Client,
  position: string | null = client.lastPosition,
): Promise<void> {
  const reader = new Client(client.baseUrl).shareSession(client);
  reader.lastPosition = position;
  const res = await reader.get('/api/admin/rooms?limit=1');
  expect(res.status).toBe(200);
  expect(res.headers.get('x-read-stale'), 'the read models caught up').toBeNull();
}

/** What a visitor's booking answers: its number and the booked tickets' ids. */
export interface VisitorBooking {
  bookingNumber: string;
  /** The owner id of the confirmation link. */
  ownerId: string;
  ticketIds: string[];
  /** The visitor client's last write (for waitForReadModels). */
  position: string | null;
}

/**
 * A visitor books one seat of each slot through the API (a cart with the slots, then the booking)
 * with these details (no organisation unless given; in German unless another language is given:
 * the booking's mails and their links are in it).
 */
export async function bookAsVisitor(
  baseUrl: string,
  slotIds: string[],
  person: {
    firstName: string;
    lastName: string;
    email: string;
    organisation?: string;
    language?: 'de' | 'en';
  },
): Promise<VisitorBooking> {
  const visitor = new Client(baseUrl);
  const [first, ...more] = slotIds;
  const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: first } });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  for (const timeSlotId of more) {
    const added = await visitor.request('POST', `/api/transactions/${transactionId}/tickets`, {
      json: { timeSlotId },
    });
    expect(added.status, await added.clone().text()).toBeLessThan(300);
  }
  const res = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      title: '',
      organisation: '',
      phone: '+43123',
      accessibility: false,
      language: 'de',
      ...person,
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const b = (await res.json()) as {
    bookingNumber: string;
    ownerId: string;
    tickets: { id: string }[];
  };
  return {
    bookingNumber: b.bookingNumber,
    ownerId: b.ownerId,
    ticketIds: b.tickets.map((t) => t.id),
    position: visitor.lastPosition,
  };
}

export interface TestRooms {
  /** Signed in as admin, to create more test data. */
  admin: Client;
  /** The id of a room created here, by its name. */
  idOf: (name: string) => string;
}

/**
 * Signs in as admin and creates `TEST_ROOMS`, then `extra` rooms (in this order), and waits until
 * the read models show them. The one way every browser test file gets its rooms.
 */
export async function createTestRooms(
  baseUrl: string,
  extra: readonly TestRoom[] = [],
): Promise<TestRooms> {
  const admin = await signInAdmin(baseUrl);
  const ids = new Map<string, string>();
  for (const { name, description, capacity } of [...TEST_ROOMS, ...extra]) {
    // Open for visitors from today + 2 days to 30 working days ahead (the fixture's rules), as the
    // tests' date logic assumes.
    ids.set(name, await createRoom(admin, name, { description, capacity }));
  }
  await waitForReadModels(admin);
  return {
    admin,
    idOf: (name) => {
      const id = ids.get(name);
      if (!id) throw new Error(`no test room named ${name}`);
      return id;
    },
  };
}

/**
 * A browser test with its rooms: `startBrowserTest` (with `env`), then `createTestRooms` (with
 * `extra`); one `stop` ends it all. A failed start of the rooms stops the rest.
 */
export async function startWithTestRooms(
  env: Record<string, string> = {},
  extra: readonly TestRoom[] = [],
): Promise<BrowserTest & TestRooms> {
  const started = await startBrowserTest(env);
  try {
    return { ...started, ...(await createTestRooms(started.server.baseUrl, extra)) };
  } catch (err) {
    await started.stop();
    throw err;
  }
}

/**
 * A browser test of the waitlist's mails: an SMTP sink, then `startWithTestRooms` on a server
 * that sends through it at once and whose matcher (it runs at the expiry job's pace) offers a
 * freed seat within a second. `stop` ends the sink too.
 */
export async function startWithWaitlistMail(): Promise<
  BrowserTest & TestRooms & { sink: SmtpSink }
> {
  const sink = new SmtpSink(await freePort());
  await sink.start();
  try {
    const started = await startWithTestRooms({
      TIME_ZONE: LIBRARY_ZONE,
      SMTP_URL: sink.url,
      MAIL_INTERVAL_MS: '200',
      EXPIRY_JOB_INTERVAL_MS: '300',
    });
    const stop = async () => {
      await started.stop();
      await sink.stop();
    };
    return { ...started, sink, stop };
  } catch (err) {
    await sink.stop();
    throw err;
  }
}
