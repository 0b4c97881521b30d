// The mails the jobs send about a booking in a branch (docs/product.md#sites): the reminder, the
// no-show release and the release of a booking not confirmed in time come from the site of the
// booking's rooms as the booking's own mails do (the subject names the site, the mail closes with
// the site's closing), and their links lead below the site's own address (`/s/jura/…`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseNoShows, releaseUnconfirmed } from '@rr/command-service';
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

const BASE = new Date('2026-11-23T08:00:00Z'); // a Monday, 09:00 in Vienna
const clock = new ManualClock(BASE);
const DAY = addDays(BASE.toISOString().slice(0, 10), 3);
/** A local time in Vienna. */
const local = (date: string, time: string) => instantOf(date, time, 'Europe/Vienna');
const HOUR = 3_600_000;

const APP = 'https://library.example/reserve/';
/** The links of a mail into the visitor app, in order (the calendar feed is the API's). */
const linksOf = (text: string | undefined) =>
  [...(text ?? '').matchAll(/https:\/\/library\.example\/reserve\/[^\s"<>]*/g)]
    .map((m) => m[0])
    .filter((link) => !link.includes('/api/'));

/** How a mail of the site closes (its own closing, then its postal address and contact). */
const JURA_CLOSING = [
  'Mit besten Grüßen',
  'Ihr Team der Fachbibliothek Jura',
  'Universitätsstraße 7',
  '1010 Wien',
].join('\n');

let suite: MailSuite;
let siteId: string;

const sendAll = (count: number) => sendPendingMails(suite, count);

/** A room of the site with these services. */
async function juraRoom(name: string, services: Record<string, number>): Promise<string> {
  const room = await createRoom(suite.admin, name, { ...OPEN_FROM_TODAY, siteId });
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
    json: services,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return room;
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
  // A second site besides the first: the links of one site's mails lead below its address.
  const site = await suite.admin.request('POST', '/api/admin/sites', {
    json: {
      name: 'Fachbibliothek Jura',
      nameEn: 'Law Library',
      slug: 'jura',
      contactEmail: 'jura@library.example',
      address: 'Universitätsstraße 7\n1010 Wien',
      mailSignature: 'Mit besten Grüßen\nIhr Team der Fachbibliothek Jura',
    },
  });
  expect(site.status).toBe(201);
  siteId = ((await site.json()) as { id: string }).id;
});
afterAll(() => suite?.close());

describe('the mails the jobs send about a booking in one site’s rooms', () => {
  it('the release of a booking not confirmed in time comes from the site and links below it', async () => {
    clock.set(BASE);
    const room = await juraRoom('Prüfungssaal', { confirmBookingMinutes: 30 });
    const slot = await createSlot(suite.admin, room, DAY, '10:00', '12:00', 5);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    await sendAll(1); // the confirmation, which asks to confirm
    clock.set(new Date(BASE.getTime() + HOUR / 2));
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(1);
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(
      `Ihre Buchung ${booking.bookingNumber} wurde nicht bestätigt – Fachbibliothek Jura`,
    );
    expect(mail!.text).toContain('Sie haben Ihre Buchung nicht rechtzeitig bestätigt');
    expect(mail!.text).toContain(`${JURA_CLOSING}\nKontakt: jura@library.example`);
    expect(linksOf(mail!.text)).toEqual([
      `${APP}s/jura/reservation-confirmation/${booking.ownerId}?lang=de`,
    ]);
  });

  it('the reminder comes from the site and its cancel link leads below the site’s address', async () => {
    clock.set(BASE);
    const room = await juraRoom('Gesetzessaal', { reminderHoursBefore: 24 });
    const slot = await createSlot(suite.admin, room, DAY, '10:00', '12:00', 5);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    await sendAll(1);
    clock.set(new Date(local(DAY, '10:00').getTime() - 24 * HOUR));
    const reminders = await enqueueDueReminders({
      pool: suite.db.pool,
      clock,
      logger: createLogger('silent'),
      timeZone: 'Europe/Vienna',
    });
    expect(reminders).toBe(1);
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(
      `Erinnerung an Ihre Buchung ${booking.bookingNumber} – Fachbibliothek Jura`,
    );
    expect(mail!.text).toContain('wir erinnern Sie an Ihre reservierten Termine');
    expect(mail!.text).toContain(`${JURA_CLOSING}\nKontakt: jura@library.example`);
    const page = `${APP}s/jura/reservation-confirmation/${booking.ownerId}?lang=de`;
    expect(linksOf(mail!.text)).toEqual([page]);
    expect(mail!.html).toContain(`href="${page}"`);
  });

  it('the no-show release comes from the site (in English by its English name) and links below it', async () => {
    clock.set(BASE);
    const room = await juraRoom('Lesesaal Jura', {
      checkInMinutesBefore: 15,
      noShowReleaseMinutes: 20,
    });
    const slot = await createSlot(suite.admin, room, DAY, '14:00', '16:00', 5);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'en');
    await sendAll(1);
    // Not checked in by 14:20: released.
    clock.set(local(DAY, '14:20'));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(
      `Your seat was released (booking ${booking.bookingNumber}) – Law Library`,
    );
    expect(mail!.text).toContain('You were not checked in by the release time');
    expect(mail!.text).toContain(`${JURA_CLOSING}\nContact: jura@library.example`);
    expect(linksOf(mail!.text)).toEqual([
      `${APP}s/jura/reservation-confirmation/${booking.ownerId}?lang=en`,
    ]);
  });
});
