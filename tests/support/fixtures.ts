import {
  checkInCodes,
  createLogger,
  myBookingsLinks,
  waitlistReferences,
  type Clock,
} from '@rr/platform';
import { expect } from 'vitest';
import {
  Client,
  openAdminSuite,
  TEST_KEY_SECRET,
  type AdminSuite,
  type TestAppOptions,
} from './app.ts';
import { MailSender } from '@rr/projections';
import type { TestDatabase } from './db.ts';
import { freePort } from './ports.ts';
import { SmtpSink } from './smtp-sink.ts';
import { budget } from './time-budget.ts';

/** A room as staff create it (open from 2 days ahead for 30 working days); answers its id. */
export async function createRoom(
  admin: Client,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await admin.request('POST', '/api/admin/rooms', {
    json: {
      name,
      description: 'A room of the tests',
      capacity: 10,
      openStartValue: 2,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'WORKING_DAY',
      ...extra,
    },
  });
  if (r.status !== 201) throw new Error(`room not created: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { id: string }).id;
}

/** The mail sender of a test: to an SMTP sink (smtpUrl) or as .eml files into mailDir. */
export function testMailSender(
  db: TestDatabase,
  clock: Clock,
  to: { smtpUrl: string } | { mailDir: string },
  library?: { name?: string; contactEmail?: string },
): MailSender {
  return new MailSender({
    pool: db.pool,
    store: db.store,
    logger: createLogger('silent'),
    clock,
    smtpUrl: 'smtpUrl' in to ? to.smtpUrl : undefined,
    mailDir: 'mailDir' in to ? to.mailDir : '/nonexistent',
    from: 'Bibliothek <noreply@library.example>',
    publicBaseUrl: 'https://library.example/reserve/',
    timeZone: 'Europe/Vienna',
    intervalMs: 60_000,
    checkInCodes: checkInCodes(TEST_KEY_SECRET),
    waitlistReferences: waitlistReferences(TEST_KEY_SECRET),
    myBookingsLinks: myBookingsLinks(TEST_KEY_SECRET),
    ...(library ? { library } : {}),
  });
}

/** An API test's suite that sends mails: the mail sender hands them to an SMTP sink. */
export interface MailSuite extends AdminSuite {
  /** The SMTP server on loopback that keeps the mails sent. */
  sink: SmtpSink;
  /** Sends the outbox's due mails to `sink` when told (`sendDue`), by the suite's clock. */
  sender: MailSender;
}

/**
 * `openAdminSuite` with an SMTP sink and a mail sender to it; `close` stops the sender, the sink
 * and the suite. A step that fails stops what started before it.
 */
export async function openMailSuite(
  clock: Clock,
  options: TestAppOptions = {},
): Promise<MailSuite> {
  const suite = await openAdminSuite(clock, options);
  let sink: SmtpSink;
  try {
    sink = new SmtpSink(await freePort());
    await sink.start();
  } catch (err) {
    await suite.close();
    throw err;
  }
  const sender = testMailSender(suite.db, clock, { smtpUrl: sink.url });
  return {
    ...suite,
    sink,
    sender,
    close: async () => {
      await sender.stop();
      await sink.stop();
      await suite.close();
    },
  };
}

/**
 * Sends what the suite's outbox holds once the mail reactor has enqueued `count` mails (all
 * pending ones), by the suite's clock; answers the mails the sink received.
 */
export async function sendPendingMails(suite: MailSuite, count: number) {
  const before = suite.sink.messages.length;
  await expect
    .poll(
      async () =>
        (
          await suite.db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'pending'`,
          )
        ).rows[0]!.n,
      { timeout: budget(5000) },
    )
    .toBe(count);
  expect(await suite.sender.sendDue()).toBe(count);
  return suite.sink.messages.slice(before);
}

/** A room open to visitors from today for a year (`createRoom`'s `extra`). */
export const OPEN_FROM_TODAY = {
  openStartValue: 0,
  openStartType: 'DAY',
  openEndValue: 365,
  openEndType: 'DAY',
} as const;

/**
 * A one-off time slot on a day (also on a holiday), as staff create it; answers its id. The admin
 * client reads its own write (X-Min-Position): the slot is found at once, unless the read models
 * had not caught up within the server's wait (a very busy machine), which the answer says
 * (`X-Read-Stale`): then it reads again, as the app would. In a split deployment `reader` (a
 * client of a query process sharing the admin's session) reads it.
 */
export async function createSlot(
  admin: Client,
  roomId: string,
  date: string,
  startTime: string,
  endTime: string,
  capacity: number,
  reader: Client = admin,
): Promise<string> {
  const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
    json: {
      startTime,
      endTime,
      startDate: date,
      repeatUntil: date,
      daysOfWeek: [],
      includeHolidays: true,
      capacity,
    },
  });
  if (r.status !== 201) throw new Error(`slot not created: ${r.status} ${await r.text()}`);
  reader.lastPosition = admin.lastPosition;
  const deadline = performance.now() + budget(60_000);
  for (;;) {
    const res = await reader.get(
      `/api/admin/rooms/${roomId}/timeslots?fromDate=${date}&untilDate=${date}&limit=999`,
    );
    const list = (await res.json()) as { content: { id: string; startTime: string }[] };
    const slot = list.content.find((s) => s.startTime === startTime);
    if (slot) return slot.id;
    if (res.headers.get('x-read-stale') === null || performance.now() > deadline)
      throw new Error(`the slot ${date} ${startTime} just created is not listed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A waitlist joiner's personal data; each test adds the address and the language. */
export const WAITLIST_OWNER = {
  salutation: 'MS',
  firstName: 'Wanda',
  lastName: 'Warte',
  phone: '+43 1 234',
  accessibility: false,
};

/** The owner of the reminder tests' bookings: the personal data a cart's booking takes. */
export const REMINDED_READER = {
  salutation: 'MS',
  title: '',
  firstName: 'Maria',
  lastName: 'Leserin',
  organisation: '',
  email: 'maria.leserin@example.at',
  phone: '+43 111 222',
  accessibility: false,
  language: 'de',
};

/** Joins the waitlist of a full slot as a visitor. */
export const joinWaitlist = (c: Client, slotId: string, json: Record<string, unknown>) =>
  c.request('POST', `/api/timeslots/${slotId}/waitlist`, { json });

/** Fills the slot with `seats` carts' holds, each a new visitor's (answers the carts' ids). */
export async function fillWithHolds(
  baseUrl: string,
  slotId: string,
  seats: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < seats; i++) {
    const r = await new Client(baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: slotId },
    });
    if (r.status !== 201) throw new Error(`no hold: ${r.status} ${await r.text()}`);
    ids.push(((await r.json()) as { transactionId: string }).transactionId);
  }
  return ids;
}

let newVisitors = 0;

/** What `bookAsNewVisitor` answers: the booking and the visitor's client (its session). */
export interface NewVisitorBooking {
  ownerId: string;
  bookingNumber: string;
  /** The first ticket's id, and every ticket's in the order of the slots. */
  ticketId: string;
  ticketIds: string[];
  client: Client;
}

/**
 * Books one ticket of each slot as a new visitor, whose address is its own (no per-visitor limit
 * meets another's) unless the test gives one (a rule of the address under test), in `language`;
 * the name (and phone) may be given for a test that reads it in a mail or looks for it. Waits
 * until the visitor reads the booking back (the read models have it), through `readerUrl` in a
 * split deployment (a query process).
 */
export async function bookAsNewVisitor(
  baseUrl: string,
  timeSlotIds: readonly string[],
  language: 'de' | 'en' = 'de',
  person: {
    salutation?: 'MR' | 'MS';
    firstName?: string;
    lastName?: string;
    email?: string;
    phone?: string;
  } = {},
  readerUrl: string = baseUrl,
): Promise<NewVisitorBooking> {
  const v = new Client(baseUrl);
  let transactionId = '';
  for (const timeSlotId of timeSlotIds) {
    const res = transactionId
      ? await v.request('POST', `/api/transactions/${transactionId}/tickets`, {
          json: { timeSlotId },
        })
      : await v.request('POST', '/api/transactions', { json: { timeSlotId } });
    if (res.status >= 300) throw new Error(`no ticket: ${res.status} ${await res.text()}`);
    transactionId ||= ((await res.json()) as { transactionId: string }).transactionId;
  }
  newVisitors += 1;
  const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: person.salutation ?? 'MS',
      title: '',
      firstName: person.firstName ?? 'Erika',
      lastName: person.lastName ?? 'Leserin',
      organisation: '',
      email: person.email ?? `leserin${newVisitors}@example.at`,
      phone: person.phone ?? '+43111222',
      accessibility: false,
      language,
    },
  });
  if (res.status !== 200) throw new Error(`not booked: ${res.status} ${await res.text()}`);
  const b = (await res.json()) as {
    ownerId: string;
    bookingNumber: string;
    tickets: { id: string }[];
  };
  const reader = readerUrl === baseUrl ? v : new Client(readerUrl);
  reader.lastPosition = v.lastPosition;
  const read = await reader.get(`/api/owners/${b.ownerId}/tickets`);
  if (read.status !== 200) throw new Error(`booking not read back: ${read.status}`);
  const ticketIds = b.tickets.map((t) => t.id);
  return {
    ownerId: b.ownerId,
    bookingNumber: b.bookingNumber,
    ticketId: ticketIds[0]!,
    ticketIds,
    client: v,
  };
}
