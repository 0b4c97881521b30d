// In the browser: confirmed addresses (docs/product.md#confirmed-addresses). Staff see a booking
// awaiting confirmation in the reservations list; the visitor's owner page asks to confirm by the
// deadline: opened without the mail's secret (right after booking, or by the owner id alone) it
// says to check the mail and offers no button; opened by the confirmation mail's link (from a
// real SMTP sink) its button confirms. German and English, 375 and 1280 wide, axe clean; the API
// test (tests/api/confirmed-addresses.int.test.ts) covers the refusals and the release.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { budget } from '../support/time-budget.ts';
import { weekdaysAhead } from './dates.ts';
import { expectAccessible, launchBrowser, startServer, type RunningServer } from './harness.ts';
import { openStaffPage, signInAs, VIEWPORTS } from './staff-ux-support.ts';
import {
  bookAsVisitor,
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  waitForReadModels,
  type VisitorBooking,
} from './test-rooms.ts';
import {
  addSlot,
  cartPanel,
  fillPersonalData,
  h1,
  main,
  openVisitorPage,
} from './visitor-pages.ts';

let db: TestDatabase;
let sink: SmtpSink;
let server: RunningServer;
let browser: Browser;
let day: Date;
const RUNS = (['de', 'en'] as const).flatMap((lang) =>
  VIEWPORTS.map((viewport) => ({ lang, viewport })),
);
const TEXTS = {
  de: {
    confirmBy: /^Bitte bestätigen Sie Ihre Buchung bis \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr\./,
    button: 'Buchung bestätigen',
    checkMail:
      /^Den Link zur Bestätigung haben wir Ihnen per E-Mail an die Adresse der Buchung geschickt/,
    confirmed: 'Vielen Dank, Ihre Buchung ist bestätigt.',
    awaiting: 'Wartet auf Bestätigung',
  },
  en: {
    confirmBy: /^Please confirm your booking by \d\d\.\d\d\.\d{4}, \d\d:\d\d\./,
    button: 'Confirm booking',
    checkMail:
      /^We have sent the link to confirm to the booking's e-mail address: please check your mail/,
    confirmed: 'Thank you, your booking is confirmed.',
    awaiting: 'Awaiting confirmation',
  },
} as const;
/** One booking per run, each awaiting confirmation until its run confirms it. */
const bookings: VisitorBooking[] = [];

const visitorPage = (viewport: { width: number; height: number }, lang: 'de' | 'en' = 'de') =>
  openVisitorPage(browser, viewport, lang);

/**
 * The confirmation link of the mail to this address (the owner page with the mail's token, in
 * the mail's language).
 */
async function mailedConfirmLink(email: string): Promise<string> {
  const link = (text: string | undefined) =>
    /http:\/\/127\.0\.0\.1:\d+\/reservation-confirmation\/[0-9a-f]{32}\?lang=(de|en)#confirm=[A-Za-z0-9_-]{43}/.exec(
      text ?? '',
    )?.[0];
  const found = () =>
    link(sink.messages.find((m) => JSON.stringify(m.to).includes(email) && link(m.text))?.text);
  await expect.poll(found, { timeout: budget(10_000) }).toBeTruthy();
  return found()!;
}

beforeAll(async () => {
  db = await createTestDatabase();
  sink = new SmtpSink(await freePort());
  await sink.start();
  server = await startServer(db, { SMTP_URL: sink.url });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  const room = idOf(FIRST_ROOM);
  const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
    json: { confirmBookingMinutes: 1440 },
  });
  if (set.status !== 200) throw new Error(`services not set: ${set.status}`);
  [day] = weekdaysAhead(1) as [Date];
  const slot = await createSlot(admin, room, day, '09:00', '12:00', 10);
  // Each booking in its run's language: the mail's link opens the page in it.
  for (const [i, { lang }] of RUNS.entries())
    bookings.push(
      await bookAsVisitor(server.baseUrl, [slot], {
        firstName: 'Clara',
        lastName: `Confirm${i}`,
        email: `clara.confirm${i}@example.at`,
        language: lang,
      }),
    );
  await waitForReadModels(admin, bookings.at(-1)!.position);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.stop();
  await db?.drop();
});

describe('confirmed addresses in the browser', () => {
  for (const [i, { lang, viewport }] of RUNS.entries()) {
    it(`staff see the booking awaiting confirmation; the owner page asks to check the mail, whose link confirms (${lang}, ${viewport.width} px)`, async () => {
      const texts = TEXTS[lang];
      const staff = await openStaffPage(browser, viewport, lang);
      try {
        await signInAs(staff, server.baseUrl, lang);
        await staff.goto(`${server.baseUrl}/admin/reservations`);
        // The runs before confirmed theirs: the others still await confirmation.
        const marks = main(staff).getByText(texts.awaiting, { exact: true });
        await marks.first().waitFor();
        await expect.poll(() => marks.count()).toBe(RUNS.length - i);
        await expectAccessible(
          staff,
          `reservations awaiting confirmation (${lang}, ${viewport.width} px)`,
        );
      } finally {
        await staff.context().close();
      }

      const page = await visitorPage(viewport, lang);
      try {
        // The owner id alone (what the booker has): check the mail, no button.
        await page.goto(`${server.baseUrl}/reservation-confirmation/${bookings[i]!.ownerId}`);
        await main(page).getByText(texts.confirmBy).waitFor();
        await main(page).getByText(texts.checkMail).waitFor();
        expect(await main(page).getByRole('button', { name: texts.button }).count()).toBe(0);
        await expectAccessible(
          page,
          `owner page awaiting confirmation, no link (${lang}, ${viewport.width} px)`,
        );
        // The mail's link: the button.
        await page.goto(await mailedConfirmLink(`clara.confirm${i}@example.at`));
        await main(page).getByText(texts.confirmBy).waitFor();
        await expectAccessible(
          page,
          `owner page awaiting confirmation, the mail's link (${lang}, ${viewport.width} px)`,
        );
        expect(await main(page).getByText(texts.checkMail).count()).toBe(0);
        await main(page).getByRole('button', { name: texts.button, exact: true }).click();
        await main(page).getByRole('status').getByText(texts.confirmed).waitFor();
        await main(page).getByRole('button', { name: texts.button }).waitFor({ state: 'detached' });
        await expectAccessible(page, `owner page confirmed (${lang}, ${viewport.width} px)`);
      } finally {
        await page.context().close();
      }
    });
  }

  it("right after booking in the browser, the booked page asks to check the mail and offers no confirm button; the mail's link confirms", async () => {
    const page = await visitorPage(VIEWPORTS[VIEWPORTS.length - 1]!, 'de');
    try {
      await page.goto(`${server.baseUrl}/`);
      await h1(page, 'Platz reservieren').waitFor();
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, day, '09:00-12:00');
      await cartPanel(page).getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
      await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
      await h1(page, 'Ihre Daten').waitFor();
      // Anyone can type an address that is not theirs.
      await fillPersonalData(page, 'prof.mueller@uni.example');
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      await h1(page, 'Zusammenfassung').waitFor();
      await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();

      await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
      await main(page).getByText(TEXTS.de.confirmBy).waitFor();
      await main(page).getByText(TEXTS.de.checkMail).waitFor();
      expect(await main(page).getByRole('button', { name: TEXTS.de.button }).count()).toBe(0);
      await expectAccessible(page, 'booked page awaiting confirmation');

      // Only the mailbox's reader confirms: the link of the mail.
      await page.goto(await mailedConfirmLink('prof.mueller@uni.example'));
      await main(page).getByRole('button', { name: TEXTS.de.button, exact: true }).click();
      await main(page).getByRole('status').getByText(TEXTS.de.confirmed).waitFor();
    } finally {
      await page.context().close();
    }
  });
});
