// The browser smoke test of `npm test`: each of the three apps once, in Chromium against the real
// server process, with axe on every screen it passes. The visitor books a slot on a phone, staff
// sign in at a desk and find that booking in the reservations list, and the foyer display shows
// the room's free seats. The full matrix (every screen, both languages, every width, the axe
// sweeps) is `npm run test:e2e`.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createSlot as createSlotOn } from '../support/fixtures.ts';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { iso, libraryTime, LIBRARY_ZONE, longDate, nextDay, weekdaysAhead } from './dates.ts';
import { DESKTOP, openStaffPage, signInAs } from './staff-ux-support.ts';
import { bookAsVisitor, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  cartPanel,
  fillPersonalData,
  h1,
  main,
  PHONE,
  ticketItems,
} from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
const [day] = weekdaysAhead(1) as [Date];
const EMAIL = 'erika.smoke@example.org';
/** Booked through the API before the tests: the staff's list shows it whichever test runs. */
const LISTED_EMAIL = 'lea.liste@example.org';
/** The room the display shows, with a slot from this hour of the library on. */
const DISPLAY_ROOM = 'Lesesaal im Foyer';

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: LIBRARY_ZONE });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl, [
    { name: DISPLAY_ROOM, description: 'Testraum am Eingang', capacity: 5 },
  ]);
  const slot = await createSlotOn(admin, idOf(FIRST_ROOM), iso(day), '09:00', '12:00', 20);
  // A slot running now (or, late in the library's evening, the first of tomorrow): the display
  // shows a room's current and next slots.
  const now = libraryTime(new Date());
  const start = now.hour <= 21 ? now.date : nextDay(now.date);
  const hour = now.hour <= 21 ? now.hour : 9;
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  await createSlotOn(admin, idOf(DISPLAY_ROOM), start, hh(hour), hh(hour + 2), 5);
  // The last write: once the read models have it, they have everything written before it.
  const listed = await bookAsVisitor(server.baseUrl, [slot], {
    firstName: 'Lea',
    lastName: 'Liste',
    email: LISTED_EMAIL,
  });
  await waitForReadModels(admin, listed.position);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('the three apps, once each in Chromium', () => {
  it('a visitor books a slot on a phone (375 px)', async () => {
    const page: Page = await (await newContext(browser, PHONE)).newPage();
    const log = watchPage(page);
    await acceptPrivacy(page, server.baseUrl);
    await expectAccessible(page, 'room chooser');

    await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}`, exact: true }).click();
    await h1(page, FIRST_ROOM).waitFor();
    await main(page)
      .getByRole('grid', { name: /^Zeitfenster im / })
      .waitFor();
    await expectAccessible(page, 'room calendar');

    await addSlot(page, day, '09:00-12:00');
    const cart = cartPanel(page);
    await cart.getByText(new RegExp(`^${longDate(day)}, 09:00-12:00$`)).waitFor();
    await cart.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
    await h1(page, 'Ihr Warenkorb').waitFor();
    await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
    await h1(page, 'Ihre Daten').waitFor();
    await page.getByLabel('Anrede').selectOption('MS');
    await fillPersonalData(page, EMAIL);
    await expectAccessible(page, 'personal data');
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    await h1(page, 'Zusammenfassung').waitFor();
    await main(page).getByText('Frau Erika Muster').waitFor();
    await expectAccessible(page, 'summary');
    await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();

    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
    expect(await main(page).getByText('Buchungsnummer:').locator('strong').textContent()).toMatch(
      /^R-[0-9A-Z]{6}$/,
    );
    await ticketItems(page).getByText(FIRST_ROOM, { exact: true }).waitFor();
    await expectAccessible(page, 'booked');
    // Nothing reaches past the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('staff sign in at a desk (1280 px) and find the booking in the reservations list', async () => {
    const page = await openStaffPage(browser, DESKTOP);
    const log = watchPage(page);
    await page.goto(`${server.baseUrl}/admin/`);
    await page.getByRole('heading', { level: 1, name: 'Anmelden', exact: true }).waitFor();
    await expectAccessible(page, 'staff sign-in');
    await signInAs(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/admin/reservations`);
    await page.getByRole('heading', { level: 1, name: 'Reservierungen', exact: true }).waitFor();
    await page.getByRole('main').getByText(LISTED_EMAIL).first().waitFor();
    await expectAccessible(page, 'reservations list');
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('the foyer display shows the room with its free seats', async () => {
    const page = await (await newContext(browser, DESKTOP)).newPage();
    const log = watchPage(page);
    await page.goto(`${server.baseUrl}/display/`);
    await page.getByRole('heading', { level: 1, name: 'Freie Plätze jetzt' }).waitFor();
    const panel = page.getByRole('region', { name: DISPLAY_ROOM, exact: true });
    await panel.getByText('5 Plätze frei').first().waitFor();
    await expectAccessible(page, 'display');
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
