// In the browser at 375×740, German and English: the seat's page its QR code leads to
// (docs/product.md#at-the-seat). A visitor at a free seat of the slot under way books it with the
// booking form's data and is checked in at once; a visitor whose booking holds a seat checks in
// there with the booking number and address, and undoes it; a taken seat links to the nearest
// free seats. axe clean on each state. The slot is today 00:00-23:59 with check-in open from a
// day before, in a library zone where the test starts about noon: the machine's clock decides
// nothing.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../support/fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { budget } from '../support/time-budget.ts';
import {
  expectAccessible,
  launchBrowser,
  startServer,
  watchPage,
  type Lang,
  type RunningServer,
} from './harness.ts';
import { setRoomSeats, type SeatRow } from './seat-plans.ts';
import { bookAsVisitor, createWholeDaySlot, signInAdmin, waitForReadModels } from './test-rooms.ts';
import { middayZone } from './dates.ts';
import { h1, main, openVisitorPage, PHONE } from './visitor-pages.ts';

const ZONE = middayZone();
/** Plain seats first: the visitors' bookings (the best free seat) take A1, then A2. */
const SEATS: SeatRow[] = [
  ['A1', []],
  ['A2', []],
  ['A3', ['window']],
  ['A4', ['power']],
  ['B1', ['pc']],
  ['B2', ['quiet']],
];

const TEXTS = {
  de: {
    seat: (label: string) => `Platz ${label}`,
    firstName: /^Vorname/,
    lastName: /^Nachname/,
    email: /^E-Mail-Adresse/,
    phone: /^Telefonnummer/,
    bookSeat: 'Platz buchen',
    booked: (label: string) => new RegExp(`^Gebucht: Platz ${label} bis 23:59 Uhr`),
    checkedIn: 'Sie sind eingecheckt.',
    taken: 'Dieser Platz ist in diesem Zeitfenster vergeben.',
    nearest: 'Freie Plätze in der Nähe',
    bookingNumber: /^Buchungsnummer/,
    checkIn: 'Einchecken',
    checkInDone: 'Sie sind eingecheckt. Viel Erfolg beim Lernen!',
    otherSeat: /hält in diesem Zeitfenster den Platz A1, nicht diesen/,
    undo: 'Check-in rückgängig machen',
    undone: 'Der Check-in wurde rückgängig gemacht.',
  },
  en: {
    seat: (label: string) => `Seat ${label}`,
    firstName: /^First name/,
    lastName: /^Last name/,
    email: /^E-mail address/,
    phone: /^Telephone number/,
    bookSeat: 'Book seat',
    booked: (label: string) => new RegExp(`^Booked: seat ${label} until 23:59`),
    checkedIn: 'You are checked in.',
    taken: 'This seat is taken in this slot.',
    nearest: 'Free seats nearby',
    bookingNumber: /^Booking number/,
    checkIn: 'Check in',
    checkInDone: 'You are checked in. Enjoy your studies!',
    otherSeat: /holds seat A2 in this slot, not this one/,
    undo: 'Undo check-in',
    undone: 'The check-in was undone.',
  },
} as const;

/** Per language: the seat a walk-in books, and the booking that holds a seat (its label). */
const RUNS = {
  de: { walkIn: 'A3', booked: 'A1', other: 'A2' },
  en: { walkIn: 'A4', booked: 'A2', other: 'A1' },
} as const;

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let roomId = '';
let seatIds = new Map<string, string>();
const bookings = new Map<string, { bookingNumber: string; email: string }>();

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: ZONE });
  browser = await launchBrowser();
  const admin = await signInAdmin(server.baseUrl);
  roomId = await createRoom(admin, 'Sitzplatz-Saal', {
    openStartValue: 0,
    openStartType: 'DAY',
    openEndValue: 30,
    openEndType: 'DAY',
  });
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  seatIds = await setRoomSeats(admin, roomId, SEATS);
  const slotId = await createWholeDaySlot(admin, roomId, ZONE, SEATS.length);
  let last: string | null = null;
  for (const label of ['A1', 'A2']) {
    const email = `platz.${label.toLowerCase()}@example.at`;
    const b = await bookAsVisitor(server.baseUrl, [slotId], {
      firstName: 'Petra',
      lastName: `Platz ${label}`,
      email,
    });
    bookings.set(label, { bookingNumber: b.bookingNumber, email });
    last = b.position;
  }
  await waitForReadModels(admin, last);
}, budget(120_000));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const seatPage = (label: string) =>
  `${server.baseUrl}/seat/${roomId}/${seatIds.get(label) ?? 'unknown'}`;

async function openSeat(lang: Lang, label: string): Promise<Page> {
  const page = await openVisitorPage(browser, PHONE, lang);
  await page.goto(seatPage(label));
  await h1(page, TEXTS[lang].seat(label)).waitFor();
  return page;
}

for (const lang of ['de', 'en'] as const) {
  const texts = TEXTS[lang];
  const run = RUNS[lang];
  describe(`the seat page (${lang}, 375×740)`, () => {
    it(
      'books a free seat of the slot under way as a walk-in, checked in at once',
      async () => {
        const page = await openSeat(lang, run.walkIn);
        const watched = watchPage(page);
        const form = main(page);
        await form.getByRole('button', { name: texts.bookSeat }).waitFor();
        await expectAccessible(page, `seat page walk-in form (${lang})`);
        // The booking form's validation: nothing is sent without the required data.
        await form.getByRole('button', { name: texts.bookSeat }).click();
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.id))
          .toBe('personal-firstName');
        await form.getByLabel(texts.firstName).fill('Walter');
        await form.getByLabel(texts.lastName).fill('Gast');
        await form.getByLabel(texts.email).fill(`gast.${lang}@example.at`);
        await form.getByLabel(texts.phone).fill('+431234');
        await form.getByRole('button', { name: texts.bookSeat }).click();
        const done = form.getByRole('status').filter({ hasText: texts.booked(run.walkIn) });
        await done.waitFor();
        await expect(done.textContent()).resolves.toContain(texts.checkedIn);
        await expectAccessible(page, `seat page walk-in booked (${lang})`);
        // The page of the seat now says it is taken, with the nearest free seats as links.
        await page.reload();
        await form.getByText(texts.taken).waitFor();
        const nearest = form.getByRole('region', { name: texts.nearest }).getByRole('link');
        expect((await nearest.allTextContents()).length).toBeGreaterThan(0);
        expect(await nearest.allTextContents()).not.toContain(texts.seat(run.walkIn));
        expect(watched.errors).toEqual([]);
        await page.context().close();
      },
      budget(120_000),
    );

    it(
      'checks a booking in at its seat by number and address, refuses another seat, and undoes it',
      async () => {
        const booking = bookings.get(run.booked)!;
        // At another booked seat the page names the seat the booking holds.
        const wrong = await openSeat(lang, run.other);
        const wrongForm = main(wrong);
        await wrongForm.getByText(texts.taken).waitFor();
        await wrongForm.getByLabel(texts.bookingNumber).fill(booking.bookingNumber);
        await wrongForm.getByLabel(texts.email).fill(booking.email);
        await wrongForm.getByRole('button', { name: texts.checkIn, exact: true }).click();
        await wrongForm.getByRole('alert').filter({ hasText: texts.otherSeat }).waitFor();
        await wrong.context().close();

        const page = await openSeat(lang, run.booked);
        const watched = watchPage(page);
        const form = main(page);
        await form.getByText(texts.taken).waitFor();
        await form.getByRole('region', { name: texts.nearest }).getByRole('link').first().waitFor();
        await expectAccessible(page, `seat page check-in form (${lang})`);
        await form.getByLabel(texts.bookingNumber).fill(booking.bookingNumber.toLowerCase());
        await form.getByLabel(texts.email).fill(booking.email.toUpperCase());
        await form.getByRole('button', { name: texts.checkIn, exact: true }).click();
        await form.getByRole('status').filter({ hasText: texts.checkInDone }).waitFor();
        await expectAccessible(page, `seat page checked in (${lang})`);
        await form.getByRole('button', { name: texts.undo }).click();
        await form.getByRole('status').filter({ hasText: texts.undone }).waitFor();
        expect(watched.errors).toEqual([]);
        await page.context().close();
      },
      budget(120_000),
    );
  });
}
