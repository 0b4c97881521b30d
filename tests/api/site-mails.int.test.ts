// The mails of a booking in a branch (docs/product.md#sites): the subject names the site, and the
// mail closes with the site's own closing, postal address, opening hours, phone and contact
// address; a booking in the first site, which staff never described, and one over several
// sites keep the library's subject and closing. Their links lead below the site's own address
// once there are several sites (with one, as before): a booking's, its cancellation's, the
// "my bookings" link's and a waitlist's (leaving it, the offer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { matchWaitlists } from '@rr/command-service';
import { Client } from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  joinWaitlist,
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
let firstRoom: string;
let siteId: string;

const APP = 'https://library.example/reserve/';
/** The links of a mail into the visitor app, in order. */
const linksOf = (text: string | undefined) =>
  [...(text ?? '').matchAll(/https:\/\/library\.example\/reserve\/[^\s"<>]*/g)]
    .map((m) => m[0])
    .filter((link) => !link.includes('/api/'));

const sendAll = (kinds: number) => sendPendingMails(suite, kinds);

beforeAll(async () => {
  suite = await openMailSuite(clock);
  firstRoom = await createRoom(suite.admin, 'Lesesaal', OPEN_FROM_TODAY);
  firstSiteSlot = await createSlot(suite.admin, firstRoom, DAY, '10:00', '12:00', 5);
});

afterAll(async () => {
  await suite?.close();
});

describe('with one site', () => {
  it('the links lead to the app’s own pages, as before sites', async () => {
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [firstSiteSlot], 'de');
    const [mail] = await sendAll(1);
    expect(linksOf(mail!.text)).toEqual([
      `${APP}reservation-confirmation/${booking.ownerId}?lang=de`,
    ]);
  });
});

describe('a site’s mails', () => {
  beforeAll(async () => {
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
    siteId = ((await site.json()) as { id: string }).id;
    const day = [{ start: '08:00', end: '20:00' }];
    const hours = await suite.admin.request('PUT', `/api/admin/sites/${siteId}/hours`, {
      json: {
        weekly: {
          mon: day,
          tue: day,
          wed: day,
          thu: day,
          fri: day,
          sat: [{ start: '09:00', end: '13:00' }],
        },
        exceptions: [],
      },
    });
    expect(hours.status, await hours.clone().text()).toBe(200);
    const branchRoom = await createRoom(suite.admin, 'Gesetzessaal', {
      ...OPEN_FROM_TODAY,
      siteId,
    });
    branchSlot = await createSlot(suite.admin, branchRoom, DAY, '10:00', '12:00', 5);
  });

  it('name the site in the subject and close with its closing, address, hours, phone and contact', async () => {
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
        'Öffnungszeiten: Mo–Fr 08:00–20:00; Sa 09:00–13:00',
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

  it('of one site’s rooms link below the site’s own address, the cancellation’s too', async () => {
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [branchSlot], 'en');
    const [mail] = await sendAll(1);
    const page = `${APP}s/jura/reservation-confirmation/${booking.ownerId}?lang=en`;
    expect(linksOf(mail!.text)).toEqual([page]);
    expect(mail!.html).toContain(`href="${page}"`);
    // The calendar feed is the API's, never below a site.
    expect(mail!.text).toContain(`${APP}api/owners/${booking.ownerId}/tickets.ics`);

    const cancel = await booking.client.request(
      'DELETE',
      `/api/owners/${booking.ownerId}/tickets?ids=${booking.ticketId}`,
    );
    expect(cancel.status).toBe(200);
    const [cancellation] = await sendAll(1);
    expect(linksOf(cancellation!.text)).toEqual([page]);
  });

  it('of the first site’s rooms link below its address once there are several sites', async () => {
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [firstSiteSlot], 'de');
    const [mail] = await sendAll(1);
    expect(linksOf(mail!.text)).toEqual([
      `${APP}s/bibliothek/reservation-confirmation/${booking.ownerId}?lang=de`,
    ]);
  });

  it('the "my bookings" link leads below the site when the address’s bookings are all of it', async () => {
    const email = 'jura.leserin@example.at';
    await bookAsNewVisitor(suite.app.baseUrl, [branchSlot], 'de', { email });
    await sendAll(1);
    const ask = async () => {
      const res = await new Client(suite.app.baseUrl).request('POST', '/api/my-bookings/link', {
        json: { email, language: 'de' },
      });
      expect(res.status).toBe(202);
      const [mail] = await sendAll(1);
      return linksOf(mail!.text);
    };
    expect(await ask()).toEqual([
      expect.stringMatching(
        /^https:\/\/library\.example\/reserve\/s\/jura\/my-bookings\/[^/?]+\?lang=de$/,
      ),
    ]);
    // A booking of another site too: the app's own address.
    const later = await createSlot(suite.admin, firstRoom, DAY, '16:00', '18:00', 5);
    await bookAsNewVisitor(suite.app.baseUrl, [later], 'de', { email });
    await sendAll(1);
    expect(await ask()).toEqual([
      expect.stringMatching(/^https:\/\/library\.example\/reserve\/my-bookings\/[^/?]+\?lang=de$/),
    ]);
  });

  it('of a waitlist in one site’s room link below the site’s address: leaving and the offer', async () => {
    const room = await createRoom(suite.admin, 'Wartesaal Jura', { ...OPEN_FROM_TODAY, siteId });
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(services.status).toBe(200);
    const slot = await createSlot(suite.admin, room, DAY, '08:00', '09:00', 1);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    await sendAll(1);
    const joined = await joinWaitlist(new Client(suite.app.baseUrl), slot, {
      email: 'wanda.warte@example.at',
      language: 'en',
    });
    expect(joined.status).toBe(201);
    const [joinMail] = await sendAll(1);
    expect(linksOf(joinMail!.text)).toEqual([
      expect.stringMatching(
        /^https:\/\/library\.example\/reserve\/s\/jura\/waitlist-leave\/[^/?]+\?lang=en$/,
      ),
    ]);

    const cancel = await booking.client.request(
      'DELETE',
      `/api/owners/${booking.ownerId}/tickets?ids=${booking.ticketId}`,
    );
    expect(cancel.status).toBe(200);
    await sendAll(1);
    expect(await matchWaitlists(suite.app.deps)).toBe(1);
    const [offer] = await sendAll(1);
    expect(linksOf(offer!.text)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^https://library\\.example/reserve/s/jura/waitlist-offer/${slot}/[^/?]+\\?lang=en$`,
        ),
      ),
    ]);
  });

  it('of rooms of several sites keep the library’s subject and closing', async () => {
    const later = await createSlot(suite.admin, firstRoom, DAY, '12:00', '13:00', 5);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [branchSlot, later], 'de');
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${booking.bookingNumber}`);
    // Both rooms are named, but no site signs: the library's regards and name.
    expect(mail!.text).toContain('Gesetzessaal');
    expect(mail!.text).toContain('Lesesaal');
    expect(mail!.text).toContain('Mit freundlichen Grüßen\nIhre Bibliothek\n');
    for (const site of ['Jura', 'Universitätsstraße', 'Öffnungszeiten', 'Telefon'])
      expect(mail!.text).not.toContain(site);
  });

  it('of rooms of several sites link to the app’s own pages', async () => {
    const later = await createSlot(suite.admin, firstRoom, DAY, '13:00', '15:00', 5);
    const booking = await bookAsNewVisitor(suite.app.baseUrl, [branchSlot, later], 'de');
    const [mail] = await sendAll(1);
    expect(linksOf(mail!.text)).toEqual([
      `${APP}reservation-confirmation/${booking.ownerId}?lang=de`,
    ]);
  });
});
