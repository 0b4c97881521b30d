import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { matchWaitlists } from '@rr/command-service';
import type { MailSender } from '@rr/projections';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, testMailSender } from '../support/fixtures.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { freePort } from '../support/ports.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Closures (docs/product.md#closures): the preview's counts, closing a room's days (the slots take
 * no more carts and leave the visitor calendar), cancelling their bookings with the reason the
 * mails state, telling the waitlist, bad input refused with nothing stored, a closure run twice.
 * Every date is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let sink: SmtpSink;
let sender: MailSender;
let roomId: string;
let otherRoomId: string;

const owner = (n: number, language: 'de' | 'en' = 'de') => ({
  salutation: 'MS',
  firstName: 'Lena',
  lastName: `Leserin${n}`,
  phone: '+43 1 234',
  accessibility: false,
  email: `reader${n}@example.at`,
  language,
});

/** A visitor books one seat of the slot; answers the booking's owner id. */
async function book(slotId: string, n: number, language: 'de' | 'en' = 'de'): Promise<string> {
  const v = new Client(suite.app.baseUrl);
  const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(cart.status).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const r = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: owner(n, language),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { ownerId: string }).ownerId;
}

const preview = (query: string) => suite.admin.get(`/api/admin/closures/preview?${query}`);
const close = (json: Record<string, unknown>) =>
  suite.admin.request('POST', '/api/admin/closures', { json });
const eventCount = async () =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** The ids of the room's slots the visitor calendar offers on a day. */
async function offered(room: string, date: string): Promise<string[]> {
  // Read at staff's last write (the closure), as their own reads are.
  const at = suite.admin.lastPosition;
  const r = await new Client(suite.app.baseUrl).get(
    `/api/rooms/${room}/booking?fromDate=${date}&untilDate=${date}`,
    at ? { 'X-Min-Position': at } : undefined,
  );
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: string }[]).map((s) => s.id);
}

async function outboxHas(kind: string, n: number): Promise<void> {
  await waitFor(
    `${n} ${kind} mails in the outbox`,
    async () => {
      const r = await suite.db.pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM mail_outbox WHERE kind = $1',
        [kind],
      );
      return Number(r.rows[0]!.n) >= n;
    },
    budget(5000),
  );
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  sink = new SmtpSink(await freePort());
  await sink.start();
  sender = testMailSender(
    suite.db,
    clock,
    { smtpUrl: sink.url },
    { name: 'Stadtbibliothek Testhausen', contactEmail: 'lesesaal@bibliothek.example' },
  );
  roomId = await createRoom(suite.admin, 'Closure room');
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(services.status).toBe(200);
  otherRoomId = await createRoom(suite.admin, 'Other closure room');
});
afterAll(async () => {
  await sender.stop();
  await sink.stop();
  await suite.close();
});

describe('closing a day with bookings and a waitlist', () => {
  it('previews the counts, closes the slots, cancels 3 bookings whose mails state the reason, and tells the waitlist', async () => {
    const date = day(5);
    const morning = await createSlot(suite.admin, roomId, date, '09:00', '12:00', 2);
    const afternoon = await createSlot(suite.admin, roomId, date, '13:00', '17:00', 5);
    const elsewhere = await createSlot(suite.admin, otherRoomId, date, '09:00', '12:00', 5);
    await book(morning, 1);
    await book(morning, 2, 'en');
    await book(afternoon, 3);
    // The morning is full: one reader waits for it.
    const joined = await new Client(suite.app.baseUrl).request(
      'POST',
      `/api/timeslots/${morning}/waitlist`,
      { json: { email: 'waiting@example.at', language: 'de' } },
    );
    expect(joined.status).toBe(201);
    // Staff's next read waits for the join as for their own writes (read-your-writes).
    suite.admin.lastPosition = ((await joined.json()) as { position: string }).position;

    const p = await preview(`fromDate=${date}&untilDate=${date}&roomIds=${roomId}`);
    expect(p.status).toBe(200);
    expect(await p.json()).toEqual({ slots: 2, closed: 0, bookings: 3, waiting: 1 });
    // Without rooms: every room's slots of the day.
    const all = await preview(`fromDate=${date}&untilDate=${date}`);
    expect(await all.json()).toMatchObject({ slots: 3, bookings: 3 });

    const r = await close({
      roomIds: [roomId],
      fromDate: date,
      untilDate: date,
      reason: 'Wasserschaden',
      cancelBookings: true,
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ closedSlots: 2, cancelledTickets: 3 });

    // The visitor calendar no longer offers the day's slots of the room; the other room's stays.
    expect(await offered(roomId, date)).toEqual([]);
    expect(await offered(otherRoomId, date)).toEqual([elsewhere]);
    // The visitor calendar says why: the closure's reason on the day, which is not open; the
    // other room's day stays open.
    const calendarOf = async (room: string) =>
      (await (
        await new Client(suite.app.baseUrl).get(
          `/api/rooms/${room}/calendar?fromDate=${date}&untilDate=${date}`,
          { 'X-Min-Position': suite.admin.lastPosition! },
        )
      ).json()) as { closures: unknown[]; openDays: string[] };
    expect(await calendarOf(roomId)).toMatchObject({
      closures: [{ date, reason: 'Wasserschaden' }],
      openDays: [],
    });
    expect(await calendarOf(otherRoomId)).toMatchObject({ closures: [], openDays: [date] });
    // A cart is refused by the seat rule; so is a join of the waitlist.
    const v = new Client(suite.app.baseUrl);
    const add = await v.request('POST', '/api/transactions', { json: { timeSlotId: afternoon } });
    expect(add.status).toBe(409);
    expect(await add.json()).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['timeslot_not_open'],
    });
    const late = await v.request('POST', `/api/timeslots/${morning}/waitlist`, {
      json: { email: 'late@example.at', language: 'de' },
    });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(((await late.json()) as { payload?: string[] }).payload).toEqual(['timeslot_not_open']);
    // Staff see the slot closed, with the reason and the rule the visitor calendar applies.
    const staffSlot = (await (
      await suite.admin.get(`/api/admin/rooms/${roomId}/timeslots/${morning}`)
    ).json()) as { closedReason: string | null; failedRules: string[]; ticketCount: number };
    expect(staffSlot.closedReason).toBe('Wasserschaden');
    expect(staffSlot.failedRules).toContain('timeslot_not_open');
    // So do the staff's lists (the room's calendar, every room's slots); the other room's slot
    // of the day stays open there.
    type Listed = { id: string; closedReason: string | null; failedRules: string[] };
    const roomList = (
      (await (
        await suite.admin.get(
          `/api/admin/rooms/${roomId}/timeslots?fromDate=${date}&untilDate=${date}`,
        )
      ).json()) as { content: Listed[] }
    ).content;
    const everyRoom = (
      (await (
        await suite.admin.get(
          `/api/admin/rooms/timeslots?fromDate=${date}&untilDate=${date}&limit=999`,
        )
      ).json()) as { content: Listed[] }
    ).content;
    expect(roomList.map((l) => l.id).sort()).toEqual([morning, afternoon].sort());
    for (const listed of [...roomList, ...everyRoom]) {
      const isClosed = listed.id === morning || listed.id === afternoon;
      expect(listed.closedReason, listed.id).toBe(isClosed ? 'Wasserschaden' : null);
      expect(listed.failedRules.includes('timeslot_not_open'), listed.id).toBe(isClosed);
    }
    expect(everyRoom.map((s) => s.id)).toContain(elsewhere);
    // The freed seats are offered to nobody: the slot is closed.
    expect(await matchWaitlists(suite.app.deps)).toBe(0);
    // The history names the closure and the cancellations with the reason.
    const history = (await (
      await suite.admin.get(`/api/admin/rooms/${roomId}/timeslots/${morning}/history`)
    ).json()) as { what: string; reason?: string }[];
    expect(history).toContainEqual(
      expect.objectContaining({ what: 'slot-closed', reason: 'Wasserschaden' }),
    );
    expect(
      history.filter((h) => h.what === 'cancelled' && h.reason === 'Wasserschaden'),
    ).toHaveLength(2);

    // Three cancellation mails (one per booking), each stating the reason in its language, and
    // one mail to the reader waiting.
    await outboxHas('cancellation', 3);
    await outboxHas('waitlist-closed', 1);
    await sender.sendDue();
    const cancellations = sink.messages.filter(
      (m) => m.subject?.startsWith('Stornierung') || m.subject?.startsWith('Cancellation'),
    );
    expect(cancellations).toHaveLength(3);
    const german = cancellations.filter((m) => m.subject?.startsWith('Stornierung'));
    expect(german).toHaveLength(2);
    for (const m of german) {
      expect(m.text).toContain('Die Bibliothek hat Ihre Buchung storniert: Wasserschaden');
      expect(m.text).toContain('Stadtbibliothek Testhausen');
      expect(m.text).toContain('Kontakt: lesesaal@bibliothek.example');
      expect(m.text).not.toContain('Ihre Bibliothek');
    }
    const english = cancellations.find((m) => m.subject?.startsWith('Cancellation'));
    expect(english?.text).toContain('The library has cancelled your booking: Wasserschaden');
    // The waiting person got the confirmation of joining before; now the closure's mail.
    const toWaiting = sink.messages.filter(
      (m) => (m.to as { text: string } | undefined)?.text === 'waiting@example.at',
    );
    expect(toWaiting.map((m) => m.subject)).toEqual([
      'Sie stehen auf der Warteliste: Closure room',
      'Termin geschlossen: Closure room',
    ]);
    expect(toWaiting[1]?.text).toContain('Wasserschaden');
    expect(toWaiting[1]?.text).toContain('Stadtbibliothek Testhausen');
  });
});

describe('idempotence', () => {
  it('a closure run twice closes nothing more and writes no event; all rooms when none are named', async () => {
    const date = day(7);
    await createSlot(suite.admin, roomId, date, '09:00', '10:00', 5);
    await createSlot(suite.admin, otherRoomId, date, '09:00', '10:00', 5);
    const body = { fromDate: date, untilDate: date, reason: 'Betriebsausflug' };
    const first = await close(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ closedSlots: 2, cancelledTickets: 0 });
    const before = await eventCount();
    const again = await close(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ closedSlots: 0, cancelledTickets: 0 });
    expect(await eventCount()).toBe(before);
    expect(await (await preview(`fromDate=${date}&untilDate=${date}`)).json()).toMatchObject({
      slots: 2,
      closed: 2,
    });
  });

  it('takes no staff booking in a closed slot either, and writes nothing', async () => {
    const date = day(11);
    const slot = await createSlot(suite.admin, roomId, date, '09:00', '10:00', 5);
    const closed = await close({
      fromDate: date,
      untilDate: date,
      reason: 'Wasserschaden',
      roomIds: [roomId],
    });
    expect(closed.status).toBe(200);
    const before = await eventCount();
    const r = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/timeslots/${slot}/booking`,
      { json: { ...owner(90), confirmOverbooking: true } },
    );
    expect(r.status).toBe(409);
    expect(await r.json()).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['timeslot_not_open'],
    });
    expect(await eventCount()).toBe(before);
  });
});

describe("staff's cancellation with a reason", () => {
  it('records the reason on the event and in the mail', async () => {
    const slot = await createSlot(suite.admin, otherRoomId, day(10), '09:00', '10:00', 5);
    await book(slot, 10);
    const tickets = await suite.db.pool.query<{ ticket_id: string }>(
      `SELECT ticket_id FROM ticket_state WHERE time_slot_id = $1 AND status = 'BOOKED'`,
      [slot],
    );
    const id = tickets.rows[0]!.ticket_id;
    const r = await suite.admin.request(
      'DELETE',
      `/api/admin/tickets?ids=${id}&reason=${encodeURIComponent('Heizungsausfall')}`,
    );
    expect(r.status).toBe(200);
    const event = await suite.db.pool.query<{ data: { reason?: string } }>(
      `SELECT data FROM events WHERE event_type = 'TicketCancelled' AND data->>'ticketId' = $1`,
      [id],
    );
    expect(event.rows[0]!.data.reason).toBe('Heizungsausfall');
    await waitFor(
      'the cancellation mail with its reason',
      async () =>
        (
          await suite.db.pool.query(
            `SELECT 1 FROM mail_outbox WHERE kind = 'cancellation' AND reason = 'Heizungsausfall'`,
          )
        ).rowCount === 1,
      budget(5000),
    );
    await sender.sendDue();
    const mail = sink.messages.find((m) => m.text?.includes('Heizungsausfall'));
    expect(mail?.text).toContain('Die Bibliothek hat Ihre Buchung storniert: Heizungsausfall');
  });
});

describe('the holiday import', () => {
  it('names the holidays it created from today on, for the closure dialog to ask about', async () => {
    const [past, future] = [day(-3), day(12)];
    const event = (date: string, name: string) => [
      'BEGIN:VEVENT',
      `UID:${date}@closures.test`,
      'DTSTAMP:20250101T000000Z',
      `DTSTART;VALUE=DATE:${date.replaceAll('-', '')}`,
      `SUMMARY:${name}`,
      'END:VEVENT',
    ];
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Closures//Test//DE',
      ...event(future, 'Landesfeiertag'),
      ...event(past, 'Vergangener Feiertag'),
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const form = new FormData();
    form.append('file', new Blob([ics], { type: 'text/calendar' }), 'holidays.ics');
    const r = await suite.admin.request('POST', '/api/admin/holidays/ical', { form });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      imported: 2,
      upcoming: [{ date: future, name: 'Landesfeiertag' }],
    });
  });
});

describe('bad input', () => {
  it('answers 400 with validation__error and stores nothing', async () => {
    const date = day(9);
    const slot = await createSlot(suite.admin, roomId, date, '09:00', '10:00', 5);
    await book(slot, 9);
    const before = await eventCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ fromDate: date, untilDate: day(8), reason: 'x' }, 'untilDate'],
      [{ fromDate: date, untilDate: addDays(date, 366), reason: 'x' }, 'untilDate'],
      [{ fromDate: date, untilDate: date, reason: '   ' }, 'reason'],
      [{ fromDate: date, untilDate: date, reason: 'x', roomIds: ['no-such-room'] }, 'roomIds'],
      [
        {
          fromDate: date,
          untilDate: date,
          reason: 'x',
          roomIds: [roomId, '00000000-0000-4000-8000-000000000000'],
          cancelBookings: true,
        },
        'roomIds',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await close(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const problem = (await r.json()) as { error: string; errors: { field: string }[] };
      expect(problem.error).toBe('validation__error');
      expect(problem.errors.map((e) => e.field)).toContain(field);
    }
    for (const query of [
      `fromDate=${date}&untilDate=${day(8)}`,
      `fromDate=${date}&untilDate=${addDays(date, 366)}`,
      `fromDate=${date}&untilDate=${date}&roomIds=${roomId},nope`,
      `fromDate=nodate&untilDate=${date}`,
    ]) {
      const r = await preview(query);
      expect(r.status, query).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe('validation__error');
    }
    expect(await eventCount()).toBe(before);
    expect(await offered(roomId, date)).toEqual([slot]);
  });
});
