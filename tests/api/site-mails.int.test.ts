// The mails of a booking in a branch (docs/product.md#sites): the subject names the site, and the
// mail closes with the site's own closing, postal address, phone and contact address; a booking
// in the first site, which staff never described, keeps the library's closing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const BASE = new Date(Date.now() - (Date.now() % 3_600_000));
const clock = new ManualClock(BASE);
const DAY = addDays(BASE.toISOString().slice(0, 10), 3);

let suite: MailSuite;
let branchSlot: string;
let firstSiteSlot: string;

const sendAll = (kinds: number) => sendPendingMails(suite, kinds);

beforeAll(async () => {
  suite = await openMailSuite(clock);
  const site = await suite.admin.request('POST', '/api/admin/sites', {
    json: {
      name: 'Fachbibliothek Jura',
      nameEn: 'Law Library',
      slug: 'jura',
      contactEmail: 'jura@library.example',
      address: 'Universitätsstraße 7\n1010 Wien',
      phone: '+43 1 4277 123',
      mailSignature: 'Mit besten Grüßen\nIhr Team der Fachbibliothek Jura',
    },
  });
  expect(site.status).toBe(201);
  const siteId = ((await site.json()) as { id: string }).id;
  const branchRoom = await createRoom(suite.admin, 'Gesetzessaal', { ...OPEN_FROM_TODAY, siteId });
  const firstRoom = await createRoom(suite.admin, 'Lesesaal', OPEN_FROM_TODAY);
  branchSlot = await createSlot(suite.admin, branchRoom, DAY, '10:00', '12:00', 5);
  firstSiteSlot = await createSlot(suite.admin, firstRoom, DAY, '10:00', '12:00', 5);
});

afterAll(async () => {
  await suite?.close();
});

describe('a site’s mails', () => {
  it('name the site in the subject and close with its closing, address, phone and contact', async () => {
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [branchSlot], 'de');
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${booking.bookingNumber} – Fachbibliothek Jura`);
    const text = mail!.text ?? '';
    expect(text).toContain(
      [
        'Mit besten Grüßen',
        'Ihr Team der Fachbibliothek Jura',
        'Universitätsstraße 7',
        '1010 Wien',
        'Telefon: +4314277123',
        'Kontakt: jura@library.example',
      ].join('\n'),
    );
    expect(mail!.html).toContain('Ihr Team der Fachbibliothek Jura<br>Universitätsstraße 7');
  });

  it('in English name the site by its English name', async () => {
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [branchSlot], 'en');
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Your booking ${booking.bookingNumber} – Law Library`);
  });

  it('of the first site, never described by staff, keep the library’s subject and closing', async () => {
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [firstSiteSlot], 'de');
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${booking.bookingNumber}`);
    expect(mail!.text).toContain('Mit freundlichen Grüßen');
    expect(mail!.text).not.toContain('Jura');
  });
});
