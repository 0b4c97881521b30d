import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { ManualClock } from '@rr/platform';
import type { MailSender } from '@rr/projections';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { freePort } from '../support/ports.ts';
import { createRoom, testMailSender } from '../support/fixtures.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let db: TestDatabase;
let app: TestApp;
let admin: Client;
let sink: SmtpSink;
let sender: MailSender;
let roomId: string;
const slots: string[] = [];

const owner = {
  salutation: 'MR',
  title: '',
  firstName: 'Max',
  lastName: 'Leser',
  organisation: '',
  email: 'max.leser@example.at',
  // Typed with spaces, as people write it: stored without them.
  phone: '+43 111 222',
  accessibility: false,
  language: 'de',
};

async function bookSlots(ids: string[], extra: Record<string, unknown> = {}) {
  const v = new Client(app.baseUrl);
  const first = (await (
    await v.request('POST', '/api/transactions', { json: { timeSlotId: ids[0] } })
  ).json()) as { transactionId: string };
  for (const id of ids.slice(1))
    await v.request('POST', `/api/transactions/${first.transactionId}/tickets`, {
      json: { timeSlotId: id },
    });
  const res = await v.request('PUT', `/api/transactions/${first.transactionId}/booking`, {
    json: { ...owner, ...extra },
  });
  expect(res.status).toBe(200);
  return {
    client: v,
    ...((await res.json()) as {
      ownerId: string;
      bookingNumber: string;
      tickets: { id: string }[];
    }),
  };
}

/** Waits until the outbox reactor has enqueued n mails in total. */
async function outboxHas(n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM mail_outbox');
    if (Number(r.rows[0]!.n) >= n) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`outbox never reached ${n}`);
}

const icsOf = (mail: { attachments: { filename?: string; content: Buffer }[] }) => {
  const att = mail.attachments.find((a) => a.filename?.endsWith('.ics'));
  expect(att).toBeDefined();
  return new ICAL.Component(ICAL.parse(att!.content.toString('utf8')) as unknown[]);
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, clock);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  await admin.login('boss', 'correct horse');
  sink = new SmtpSink(await freePort());
  await sink.start();
  sender = testMailSender(db, clock, { smtpUrl: sink.url });
  roomId = await createRoom(admin, 'Großer Lesesaal', { description: 'Mail tests' });
  for (const date of [
    '2026-12-01',
    '2026-12-02',
    '2026-12-03',
    '2026-12-04',
    '2026-12-07',
    '2026-12-08',
  ]) {
    await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        startTime: '09:00',
        endTime: '12:30',
        startDate: date,
        repeatUntil: date,
        daysOfWeek: [],
        includeHolidays: true,
        capacity: 10,
      },
    });
  }
  const list = (await (await admin.get(`/api/admin/rooms/${roomId}/timeslots`)).json()) as {
    content: { id: string }[];
  };
  slots.push(...list.content.map((s) => s.id));
});

afterAll(async () => {
  await sender.stop();
  await sink.stop();
  await app.close();
  await db.drop();
});

describe('confirmation and cancellation mails through a real SMTP server', () => {
  it('sends the confirmation in German with the link and an .ics with one stable UID per ticket', async () => {
    const booking = await bookSlots([slots[0]!, slots[1]!]);
    await outboxHas(1);
    expect(await sender.sendDue()).toBe(1);
    expect(sink.messages).toHaveLength(1);
    const mail = sink.messages[0]!;
    expect(mail.subject).toBe(`Ihre Buchung ${booking.bookingNumber}`);
    expect((mail.to as { text: string }).text).toBe('max.leser@example.at');
    expect(mail.text).toContain('Guten Tag Herr Max Leser,');
    expect(mail.text).toContain(`Buchungsnummer: ${booking.bookingNumber}`);
    const phone = await db.pool.query<{ phone: string }>(
      'SELECT phone FROM personal_data WHERE owner_id = $1',
      [booking.ownerId],
    );
    expect(phone.rows[0]!.phone).toBe('+43111222');
    expect(mail.text).toContain('Großer Lesesaal, 01.12.2026, 09:00–12:30 Uhr');
    expect(mail.text).toContain('Großer Lesesaal, 02.12.2026, 09:00–12:30 Uhr');
    expect(mail.text).toContain(
      `https://library.example/reserve/reservation-confirmation/${booking.ownerId}?lang=de`,
    );
    expect(mail.html).toContain(
      `href="https://library.example/reserve/reservation-confirmation/${booking.ownerId}?lang=de"`,
    );
    const cal = icsOf(mail);
    expect(cal.getFirstPropertyValue('method')).toBe('PUBLISH');
    const events = cal.getAllSubcomponents('vevent');
    expect(events.map((e) => e.getFirstPropertyValue('uid'))).toEqual(
      booking.tickets.map((t) => `${t.id}@reading-rooms`),
    );
    const start = events[0]!.getFirstProperty('dtstart')!;
    expect(start.getParameter('tzid')).toBe('Europe/Vienna');
    expect(String(start.getFirstValue())).toBe('2026-12-01T09:00:00');
    // The zone's rules travel with the file (VTIMEZONE), for apps that do not know the name.
    expect(cal.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe(
      'Europe/Vienna',
    );
    expect(await sender.sendDue()).toBe(0);

    // Cancelling one ticket sends a cancellation for that UID.
    const cancel = await booking.client.request(
      'DELETE',
      `/api/owners/${booking.ownerId}/tickets?ids=${booking.tickets[0]!.id}`,
    );
    expect(cancel.status).toBe(200);
    await outboxHas(2);
    expect(await sender.sendDue()).toBe(1);
    const cancellation = sink.messages[1]!;
    expect(cancellation.subject).toBe(`Stornierung in Ihrer Buchung ${booking.bookingNumber}`);
    expect(cancellation.text).toContain('01.12.2026');
    expect(cancellation.text).not.toContain('02.12.2026');
    const ccal = icsOf(cancellation);
    expect(ccal.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(ccal.getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid'))).toEqual([
      `${booking.tickets[0]!.id}@reading-rooms`,
    ]);
  });

  it('writes in English when the booking was made in English', async () => {
    const before = sink.messages.length;
    const n = Number(
      (await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM mail_outbox')).rows[0]!.n,
    );
    const booking = await bookSlots([slots[2]!], { language: 'en', email: 'reader@example.org' });
    await outboxHas(n + 1);
    expect(await sender.sendDue()).toBe(1);
    const mail = sink.messages[before]!;
    expect(mail.subject).toBe(`Your booking ${booking.bookingNumber}`);
    expect(mail.text).toContain('Dear Mr Max Leser,');
    expect(mail.text).toContain('03.12.2026, 09:00–12:30');
  });

  it('SMTP down, then up: every mail is delivered exactly once and no booking is lost', async () => {
    await sink.stop();
    const before = sink.messages.length;
    const n = Number(
      (await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM mail_outbox')).rows[0]!.n,
    );
    const bookings = [];
    for (const [i, s] of [slots[3]!, slots[4]!, slots[5]!].entries())
      bookings.push(await bookSlots([s], { email: `outage${i}@example.at` }));
    await outboxHas(n + 3);
    expect(await sender.sendDue()).toBe(0);
    const pending = await db.pool.query<{ attempts: number }>(
      `SELECT attempts FROM mail_outbox WHERE status = 'pending'`,
    );
    expect(pending.rows.length).toBe(3);
    expect(pending.rows.every((r) => r.attempts >= 1)).toBe(true);
    // The bookings themselves are all there.
    for (const b of bookings)
      expect((await new Client(app.baseUrl).get(`/api/owners/${b.ownerId}/tickets`)).status).toBe(
        200,
      );

    await sink.start();
    clock.advance(10 * 60_000);
    try {
      expect(await sender.sendDue()).toBe(3);
      expect(await sender.sendDue()).toBe(0);
      clock.advance(60 * 60_000);
      expect(await sender.sendDue()).toBe(0);
    } finally {
      clock.set(new Date('2026-11-23T09:00:00Z'));
    }
    const received = sink.messages
      .slice(before)
      .map((m) => (m.to as { text: string }).text)
      .sort();
    expect(received).toEqual(['outage0@example.at', 'outage1@example.at', 'outage2@example.at']);
  });
});
