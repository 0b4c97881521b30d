// The first site's mails (docs/product.md#sites): before staff change it, its mails keep the
// library's subject and closing; once staff changed it (renamed it, wrote its closing) it is a
// site staff described, and its mails come from it as any other site's do: the subject names it,
// the mail closes with its regards and name, or with its own closing once there is one. With one
// site the links stay as before sites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SITE_ID } from '@rr/contracts';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
  sendPendingMails,
} from '../support/fixtures.ts';

const BASE = new Date('2026-11-23T08:00:00Z');
const clock = new ManualClock(BASE);
const DAY = addDays(BASE.toISOString().slice(0, 10), 3);

let suite: MailSuite;
let slot: string;
let version = 0;

const sendAll = (count: number) => sendPendingMails(suite, count);

/** Staff change the first site's details (its slug stays). */
async function changeFirstSite(details: Record<string, string>) {
  const res = await suite.admin.request('PUT', `/api/admin/sites/${FIRST_SITE_ID}`, {
    json: {
      slug: 'bibliothek',
      contactEmail: 'haupt@library.example',
      ...details,
      version,
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  version = ((await res.json()) as { version: number }).version;
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
  // A room created without a site: the first site's.
  const room = await createRoom(suite.admin, 'Lesesaal', OPEN_FROM_TODAY);
  slot = await createSlot(suite.admin, room, DAY, '10:00', '12:00', 20);
});
afterAll(() => suite?.close());

describe('the first site’s mails', () => {
  it('once staff renamed it, name it in the subject and close with the regards and its name', async () => {
    // Before: the library's subject and closing.
    const before = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    const [beforeMail] = await sendAll(1);
    expect(beforeMail!.subject).toBe(`Ihre Buchung ${before.bookingNumber}`);
    expect(beforeMail!.text).toContain('Mit freundlichen Grüßen\nIhre Bibliothek\n');

    await changeFirstSite({ name: 'Hauptbibliothek', nameEn: 'Main Library' });
    const german = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${german.bookingNumber} – Hauptbibliothek`);
    expect(mail!.text).toContain(
      'Mit freundlichen Grüßen\nHauptbibliothek\nKontakt: haupt@library.example\n',
    );
    // With one site the links stay as before sites.
    expect(mail!.text).toContain(
      `https://library.example/reserve/reservation-confirmation/${german.ownerId}?lang=de`,
    );
    expect(mail!.text).not.toContain('/s/');

    const english = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'en');
    const [englishMail] = await sendAll(1);
    expect(englishMail!.subject).toBe(`Your booking ${english.bookingNumber} – Main Library`);
    expect(englishMail!.text).toContain(
      'Kind regards\nMain Library\nContact: haupt@library.example\n',
    );
  });

  it('once staff wrote its closing, close with it, its postal address and contact', async () => {
    await changeFirstSite({
      name: 'Hauptbibliothek',
      address: 'Universitätsring 1\n1010 Wien',
      mailSignature: 'Herzliche Grüße\nIhr Team der Hauptbibliothek',
    });
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    // A cancellation is a mail of the booking too.
    const cancel = await booking.client.request(
      'DELETE',
      `/api/owners/${booking.ownerId}/tickets?ids=${booking.ticketId}`,
    );
    expect(cancel.status).toBe(200);
    const mails = await sendAll(2);
    expect(mails.map((m) => m.subject)).toEqual([
      `Ihre Buchung ${booking.bookingNumber} – Hauptbibliothek`,
      `Stornierung in Ihrer Buchung ${booking.bookingNumber} – Hauptbibliothek`,
    ]);
    for (const mail of mails) {
      expect(mail.text).toContain(
        [
          'Herzliche Grüße',
          'Ihr Team der Hauptbibliothek',
          'Universitätsring 1',
          '1010 Wien',
          'Kontakt: haupt@library.example',
        ].join('\n'),
      );
      expect(mail.text).not.toContain('Mit freundlichen Grüßen');
    }
  });
});
