import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { ParsedMail } from 'mailparser';
import { checkInCodes, createLogger, ManualClock } from '@rr/platform';
import { enqueueDueReminders, reminderOutboxId } from '@rr/projections';
import { erasePersonalData } from '@rr/command-service';
import { Client, TEST_KEY_SECRET } from '../support/app.ts';
import {
  createRoom,
  createSlot,
  openMailSuite,
  type MailSuite,
  REMINDED_READER,
} from '../support/fixtures.ts';

/**
 * Reminders, from the reminder job through the outbox and the mail sender to
 * a real SMTP server, driven by the injected clock.
 */
const START = new Date('2026-11-23T09:00:00Z'); // a Monday; rooms open from two days ahead
const clock = new ManualClock(START);
/** 09:00 in Vienna (CET all through these weeks) on a day. */
const nineOClock = (day: string) => new Date(`${day}T08:00:00Z`);
const hours = (n: number) => n * 3_600_000;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

let suite: MailSuite;
const codes = checkInCodes(TEST_KEY_SECRET);

const reader = REMINDED_READER;

const job = () =>
  enqueueDueReminders({
    pool: suite.db.pool,
    clock,
    logger: createLogger('silent'),
    timeZone: 'Europe/Vienna',
  });

async function roomWith(name: string, services: Record<string, number> | null): Promise<string> {
  const id = await createRoom(suite.admin, name);
  if (services) {
    const res = await suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, {
      json: services,
    });
    expect(res.status).toBe(200);
  }
  return id;
}

/** Books slots as a visitor; answers once the read model shows the tickets booked. */
async function book(slotIds: string[], extra: Record<string, unknown> = {}) {
  const v = new Client(suite.app.baseUrl);
  const cart = (await (
    await v.request('POST', '/api/transactions', { json: { timeSlotId: slotIds[0] } })
  ).json()) as { transactionId: string };
  for (const id of slotIds.slice(1)) {
    const add = await v.request('POST', `/api/transactions/${cart.transactionId}/tickets`, {
      json: { timeSlotId: id },
    });
    expect(add.status).toBe(201);
  }
  const res = await v.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
    json: { ...reader, ...extra },
  });
  expect(res.status).toBe(200);
  const booking = (await res.json()) as {
    ownerId: string;
    bookingNumber: string;
    tickets: { id: string; timeSlotId: string }[];
  };
  await ticketsAre(
    booking.tickets.map((t) => t.id),
    'BOOKED',
  );
  // The confirmation is queued (by another reactor than the read model's).
  await expect.poll(async () => (await outboxOf(booking.ownerId)).length).toBe(1);
  const of = (slotId: string) => booking.tickets.find((t) => t.timeSlotId === slotId)!.id;
  return { client: v, ...booking, of };
}

/** Waits until the tickets read model (what the job reads) shows these tickets in this status. */
async function ticketsAre(ids: string[], status: string): Promise<void> {
  await expect
    .poll(async () => {
      const r = await suite.db.pool.query<{ status: string }>(
        'SELECT status FROM rm_tickets WHERE id = ANY($1::uuid[])',
        [ids],
      );
      return r.rows.length === ids.length && r.rows.every((x) => x.status === status);
    })
    .toBe(true);
}

async function cancel(b: { client: Client; ownerId: string }, ticketId: string): Promise<void> {
  const res = await b.client.request('DELETE', `/api/owners/${b.ownerId}/tickets?ids=${ticketId}`);
  expect(res.status).toBe(200);
  await ticketsAre([ticketId], 'CANCELLED');
}

/** Sends what is due (the confirmation and cancellation mails too); answers the reminders that went out. */
async function sendReminders(): Promise<ParsedMail[]> {
  const before = suite.sink.messages.length;
  await expect.poll(() => suite.sender.sendDue().then(() => pendingMails())).toBe(0);
  return suite.sink.messages
    .slice(before)
    .filter((m) => /^(Erinnerung|Reminder)/.test(m.subject ?? ''));
}

async function pendingMails(): Promise<number> {
  const r = await suite.db.pool.query(
    `SELECT 1 FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= $1`,
    [clock.now()],
  );
  return r.rowCount ?? 0;
}

async function outboxOf(ownerId: string) {
  const r = await suite.db.pool.query<{ id: string; kind: string; status: string }>(
    'SELECT id, kind, status FROM mail_outbox WHERE owner_id = $1 ORDER BY created_at, id',
    [ownerId],
  );
  return r.rows;
}

/** The QR codes of a mail's inline images, decoded, by content id. */
function qrCodesOf(mail: ParsedMail): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of mail.attachments) {
    if (a.contentType !== 'image/png') continue;
    const png = PNG.sync.read(a.content);
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    out.set(a.cid ?? '', read?.data ?? '');
  }
  return out;
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
});
afterAll(() => suite.close());
// Each test books a later day than the tests before it: their slots have started by then, so the
// job (which runs over all rooms) finds only the test's own bookings.
beforeEach(() => {
  clock.set(START);
});

describe('reminders', () => {
  it('go once, at their time by the clock, in German, with the details, the cancel link and a readable QR code per ticket', async () => {
    const DAY = '2026-11-25';
    const roomId = await roomWith('Rara-Lesesaal', {
      checkInMinutesBefore: 30,
      reminderHoursBefore: 24,
    });
    const morning = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 5);
    const afternoon = await createSlot(suite.admin, roomId, DAY, '13:00', '15:00', 5);
    const b = await book([morning, afternoon]);
    await sendReminders(); // the confirmation

    clock.set(at(nineOClock(DAY), -hours(24) - 60_000));
    expect(await job()).toBe(0);
    expect(await sendReminders()).toEqual([]);

    // At the reminder time of the day's first slot, concurrent rounds enqueue exactly one.
    clock.set(at(nineOClock(DAY), -hours(24)));
    const rounds = await Promise.all([job(), job(), job(), job()]);
    expect(rounds.reduce((x, y) => x + y, 0)).toBe(1);
    expect((await outboxOf(b.ownerId)).filter((m) => m.kind === 'reminder')).toEqual([
      { id: reminderOutboxId(b.ownerId, DAY), kind: 'reminder', status: 'pending' },
    ]);
    const [mail, ...more] = await sendReminders();
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Erinnerung an Ihre Buchung ${b.bookingNumber}`);
    expect((mail!.to as { text: string }).text).toBe('maria.leserin@example.at');
    expect(mail!.text).toContain('Guten Tag Frau Maria Leserin,');
    expect(mail!.text).toContain('Rara-Lesesaal, 25.11.2026, 09:00–11:00 Uhr');
    expect(mail!.text).toContain('Rara-Lesesaal, 25.11.2026, 13:00–15:00 Uhr');
    expect(mail!.text).toContain(`Buchungsnummer: ${b.bookingNumber}`);
    const link = `https://library.example/reserve/reservation-confirmation/${b.ownerId}?lang=de`;
    expect(mail!.text).toContain(link);
    expect(mail!.html).toContain(`href="${link}"`);
    // One QR code per ticket, each decoding to its ticket's check-in reference.
    const qr = qrCodesOf(mail!);
    expect(qr).toEqual(
      new Map(b.tickets.map((t) => [`check-in-${t.id}@reading-rooms`, codes.codeOf(t.id)])),
    );
    // Inline images the HTML shows (the parser puts them into the HTML as data: URLs).
    for (const a of mail!.attachments.filter((x) => x.contentType === 'image/png'))
      expect(a.contentDisposition).toBe('inline');
    expect(String(mail!.html).match(/<img src="data:image\/png;base64,/g)).toHaveLength(2);

    // Later rounds (and the afternoon slot's own reminder time) send nothing more.
    for (const later of [-hours(24) + 60_000, -hours(20), -hours(1)]) {
      clock.set(at(nineOClock(DAY), later));
      expect(await job()).toBe(0);
      expect(await sendReminders()).toEqual([]);
    }
  });

  it('go in English, without QR codes where the room does not use check-in', async () => {
    const DAY = '2026-11-26';
    const roomId = await roomWith('Reading room', { reminderHoursBefore: 24 });
    const slot = await createSlot(suite.admin, roomId, DAY, '09:00', '12:00', 5);
    const b = await book([slot], { language: 'en', email: 'reader@example.org' });
    clock.set(at(nineOClock(DAY), -hours(23)));
    expect(await job()).toBe(1);
    const [mail, ...more] = await sendReminders();
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Reminder of your booking ${b.bookingNumber}`);
    expect((mail!.to as { text: string }).text).toBe('reader@example.org');
    expect(mail!.text).toContain('Dear Ms Maria Leserin,');
    expect(mail!.text).toContain('Reading room, 26.11.2026, 09:00–12:00');
    expect(mail!.text).toContain(`Booking number: ${b.bookingNumber}`);
    expect(mail!.text).toContain(
      `Cannot come? Please cancel, so that others can use the seat:\nhttps://library.example/reserve/reservation-confirmation/${b.ownerId}?lang=en`,
    );
    expect(mail!.attachments.filter((a) => a.contentType === 'image/png')).toEqual([]);
    expect(mail!.html).not.toContain('cid:');
    // Not the substring "QR": a random booking number can hold it (R-KQRY6E).
    expect(mail!.text).not.toContain('QR code');
    expect(mail!.text).not.toContain('check in');
  });

  it('never remind of a cancelled ticket, cancelled before or after the reminder was enqueued', async () => {
    const DAY = '2026-11-27';
    const roomId = await roomWith('Cancel room', {
      checkInMinutesBefore: 15,
      reminderHoursBefore: 24,
    });
    const slots = await Promise.all(
      ['08:00', '10:00', '12:00'].map((s) =>
        createSlot(suite.admin, roomId, DAY, s, `${s.slice(0, 2)}:45`, 5),
      ),
    );
    const early = await book([slots[0]!], { email: 'early@example.at' });
    const late = await book([slots[1]!], { email: 'late@example.at' });
    const half = await book([slots[1]!, slots[2]!], { email: 'half@example.at' });
    await cancel(early, early.of(slots[0]!));
    await sendReminders();

    // 10:00 on the day before: the 10:00 slot's reminder time (and past the 08:00 slot's).
    clock.set(at(nineOClock(DAY), -hours(23)));
    expect(await job()).toBe(2); // late and half; the cancelled one has nothing left
    expect((await outboxOf(early.ownerId)).some((m) => m.kind === 'reminder')).toBe(false);
    await cancel(late, late.of(slots[1]!));
    await cancel(half, half.of(slots[1]!));

    const sent = await sendReminders();
    expect(sent.map((m) => (m.to as { text: string }).text)).toEqual(['half@example.at']);
    expect(sent[0]!.text).toContain('27.11.2026, 12:00–12:45 Uhr');
    expect(sent[0]!.text).not.toContain('10:00');
    expect([...qrCodesOf(sent[0]!).values()]).toEqual([codes.codeOf(half.of(slots[2]!))]);
    expect((await outboxOf(late.ownerId)).find((m) => m.kind === 'reminder')?.status).toBe(
      'skipped',
    );
  });

  it('are none for a room without the setting, which mails exactly as before', async () => {
    const DAY = '2026-11-30';
    const roomId = await roomWith('Plain room', null);
    const slot = await createSlot(suite.admin, roomId, DAY, '09:00', '12:00', 5);
    const b = await book([slot], { email: 'plain@example.at' });
    const other = await roomWith('Check-in only', { checkInMinutesBefore: 10 });
    const otherSlot = await createSlot(suite.admin, other, DAY, '13:00', '14:00', 5);
    const c = await book([otherSlot], { email: 'checkin@example.at' });
    for (const t of [-hours(24), -hours(2)]) {
      clock.set(at(nineOClock(DAY), t));
      expect(await job()).toBe(0);
      expect(await sendReminders()).toEqual([]);
    }
    expect((await outboxOf(b.ownerId)).map((m) => m.kind)).toEqual(['confirmation']);
    expect((await outboxOf(c.ownerId)).map((m) => m.kind)).toEqual(['confirmation']);
  });

  it('are none for a booking made after its reminder time: its confirmation says the same', async () => {
    const DAY = '2026-12-01';
    const roomId = await roomWith('Late room', { reminderHoursBefore: 72 });
    const slot = await createSlot(suite.admin, roomId, DAY, '09:00', '12:00', 5);
    // Booked 47 hours before the slot, 25 hours after its reminder time.
    clock.set(at(nineOClock(DAY), -hours(47)));
    const b = await book([slot], { email: 'late-booker@example.at' });
    for (const t of [-hours(47), -hours(24), -hours(1)]) {
      clock.set(at(nineOClock(DAY), t));
      expect(await job()).toBe(0);
    }
    expect(await sendReminders()).toEqual([]);
    expect((await outboxOf(b.ownerId)).map((m) => m.kind)).toEqual(['confirmation']);
  });

  it('do not outlive the erasure of the personal data', async () => {
    const DAY = '2026-12-02';
    const roomId = await roomWith('Erasure room', { reminderHoursBefore: 24 });
    const slot = await createSlot(suite.admin, roomId, DAY, '09:00', '12:00', 5);
    const b = await book([slot], { email: 'erased@example.at' });
    await sendReminders();
    clock.set(at(nineOClock(DAY), -hours(2)));
    expect(await job()).toBe(1);
    // Not sent in time (say SMTP was down); the erasure runs the day after the slot's day.
    clock.set(new Date('2026-12-03T00:30:00Z'));
    expect(await erasePersonalData(suite.app.deps)).toBeGreaterThanOrEqual(1);
    expect(await sendReminders()).toEqual([]);
    expect((await outboxOf(b.ownerId)).find((m) => m.kind === 'reminder')?.status).toBe('skipped');
    expect(await job()).toBe(0);
  });

  it('go once per slot day: a booking over two days is reminded of each day, naming only its tickets', async () => {
    // Consecutive days and 48 hours ahead: when the second day's reminder is due, the first
    // day's ticket has not started yet, so only the day sets the reminders apart.
    const [FIRST, SECOND] = ['2026-12-03', '2026-12-04'];
    const roomId = await roomWith('Two-day room', {
      checkInMinutesBefore: 15,
      reminderHoursBefore: 48,
    });
    const first = await createSlot(suite.admin, roomId, FIRST, '09:00', '11:00', 5);
    const secondMorning = await createSlot(suite.admin, roomId, SECOND, '09:00', '11:00', 5);
    const secondAfternoon = await createSlot(suite.admin, roomId, SECOND, '13:00', '15:00', 5);
    const b = await book([first, secondMorning, secondAfternoon], { email: 'two-days@example.at' });
    await sendReminders(); // the confirmation
    const reminders = async () =>
      (await outboxOf(b.ownerId)).filter((m) => m.kind === 'reminder').map((m) => m.id);

    // The first day's reminder time: its reminder names its ticket alone.
    clock.set(at(nineOClock(FIRST), -hours(48)));
    expect(await job()).toBe(1);
    expect(await reminders()).toEqual([reminderOutboxId(b.ownerId, FIRST)]);
    const [firstMail, ...moreFirst] = await sendReminders();
    expect(moreFirst).toEqual([]);
    expect(firstMail!.text).toContain('Two-day room, 03.12.2026, 09:00–11:00 Uhr');
    expect(firstMail!.text).not.toContain('04.12.2026');
    expect([...qrCodesOf(firstMail!).values()]).toEqual([codes.codeOf(b.of(first))]);

    // The second day's: a reminder of its own, naming both of its tickets and not the first day's.
    clock.set(at(nineOClock(SECOND), -hours(48)));
    expect(await job()).toBe(1);
    expect(await reminders()).toEqual([
      reminderOutboxId(b.ownerId, FIRST),
      reminderOutboxId(b.ownerId, SECOND),
    ]);
    const [secondMail, ...moreSecond] = await sendReminders();
    expect(moreSecond).toEqual([]);
    expect(secondMail!.subject).toBe(`Erinnerung an Ihre Buchung ${b.bookingNumber}`);
    expect(secondMail!.text).toContain('Two-day room, 04.12.2026, 09:00–11:00 Uhr');
    expect(secondMail!.text).toContain('Two-day room, 04.12.2026, 13:00–15:00 Uhr');
    expect(secondMail!.text).not.toContain('03.12.2026');
    expect(new Set(qrCodesOf(secondMail!).values())).toEqual(
      new Set([codes.codeOf(b.of(secondMorning)), codes.codeOf(b.of(secondAfternoon))]),
    );
  });
});
