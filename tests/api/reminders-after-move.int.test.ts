import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { createLogger, instantOf, ManualClock } from '@rr/platform';
import { enqueueDueReminders } from '@rr/projections';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
  sendPendingMails,
} from '../support/fixtures.ts';
import { calendarOfMail as calendarOf } from '../support/calendar.ts';

/**
 * A reminder of a moved booking (docs/product.md#rebooking): the move mail's calendar file
 * updates the entry the booking's mails published (the first ticket's UID, one revision more), and
 * the reminder of the new ticket publishes that same entry again, so a calendar keeps one
 * appointment at the new time instead of adding a second one.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // a Monday, 09:00 in Vienna
const clock = new ManualClock(BASE);
const DAY = addDays(BASE.toISOString().slice(0, 10), 3);
/** A local time in Vienna. */
const local = (date: string, time: string) => instantOf(date, time, 'Europe/Vienna');
const HOUR = 3_600_000;

let suite: MailSuite;
let roomId: string;

const reminderRound = () =>
  enqueueDueReminders({
    pool: suite.db.pool,
    clock,
    logger: createLogger('silent'),
    timeZone: 'Europe/Vienna',
  });

beforeAll(async () => {
  suite = await openMailSuite(clock);
  roomId = await createRoom(suite.admin, 'Erinnerungssaal', OPEN_FROM_TODAY);
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { reminderHoursBefore: 24 },
  });
  expect(res.status).toBe(200);
});
afterAll(() => suite?.close());

describe('the reminder of a moved booking', () => {
  it('names the new slot under the calendar UID the move mail gave', async () => {
    const from = await createSlot(suite.admin, roomId, DAY, '09:00', '10:00', 5);
    const to = await createSlot(suite.admin, roomId, DAY, '14:00', '16:00', 5);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [from], 'de');
    const [confirmation] = await sendPendingMails(suite, 1);
    const moved = await booking.client.request(
      'POST',
      `/api/owners/${booking.ownerId}/tickets/${booking.ticketId}/move`,
      { json: { timeSlotId: to } },
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newTicket = ((await moved.json()) as { id: string }).id;
    const [moveMail] = await sendPendingMails(suite, 1);
    expect(moveMail!.subject).toBe(`Änderung Ihrer Buchung ${booking.bookingNumber}`);
    const published = calendarOf(moveMail).events;
    // The move updates the confirmation's entry: its UID, one revision more.
    expect(published).toMatchObject([
      { uid: calendarOf(confirmation).events[0]!.uid, sequence: 1 },
    ]);

    // 24 hours before the new slot: the reminder names it, under the same entry.
    clock.set(new Date(local(DAY, '14:00').getTime() - 24 * HOUR));
    expect(await reminderRound()).toBe(1);
    const [reminder] = await sendPendingMails(suite, 1);
    expect(reminder!.subject).toBe(`Erinnerung an Ihre Buchung ${booking.bookingNumber}`);
    expect(reminder!.text).toContain(
      `Erinnerungssaal, ${DAY.split('-').reverse().join('.')}, 14:00–16:00 Uhr`,
    );
    const reminded = calendarOf(reminder);
    expect(reminded.method).toBe('PUBLISH');
    expect(reminded.events).toMatchObject([
      { uid: published[0]!.uid, sequence: 1, start: published[0]!.start },
    ]);
    expect(reminded.events[0]!.start).toContain(`${DAY}T14:00`);
    expect(reminded.events[0]!.uid).not.toBe(`${newTicket}@reading-rooms`);
  });
});
