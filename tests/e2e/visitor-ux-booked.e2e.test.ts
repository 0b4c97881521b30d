import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { LIBRARY_ZONE, longDate, weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  DESKTOP,
  fillPersonalData,
  h1,
  main,
  PHONE,
  serveAs,
  ticketItems,
  wizardStates,
} from './visitor-pages.ts';

/**
 * After booking the visitor lands on an address that survives a reload and
 * can be bookmarked (the owner's confirmation page of the mail's link), and the summary and the
 * data form with an empty cart do not mark earlier steps done. In German and English, the phone
 * in UTC beside a library in Europe/Vienna.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const [dayA] = weekdaysAhead(1) as [Date];

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: LIBRARY_ZONE });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '09:00', '12:00', 10);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '13:00', '17:00', 10);
  await waitForReadModels(admin);
});

/** A visitor's page at `viewport`, the device in UTC. */
const openPage = async (viewport: { width: number; height: number }) =>
  (await newContext(browser, viewport, 'de', 'UTC')).newPage();

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('the booked view survives a reload', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`lands on the owner's confirmation page, which a reload keeps (${size})`, async () => {
      const page = await openPage(viewport);
      const log = watchPage(page);
      await acceptPrivacy(page, server.baseUrl);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, dayA, size === 'phone' ? '09:00-12:00' : '13:00-17:00');
      await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
      await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
      await h1(page, 'Ihre Daten').waitFor();
      await fillPersonalData(page, `booked.${size}@example.at`);
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      await h1(page, 'Zusammenfassung').waitFor();
      await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();

      await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/reservation-confirmation\/[0-9a-f]{32}$/);
      const number = main(page).getByText(/^R-[0-9A-Z]{6}$/);
      await number.waitFor();
      const bookingNumber = await number.textContent();
      await main(page)
        .getByText(new RegExp(`Bestätigung an booked\\.${size}@example\\.at geschickt`))
        .waitFor();
      await ticketItems(page).first().waitFor();
      expect(await ticketItems(page).count()).toBe(1);
      await main(page).getByText(longDate(dayA), { exact: false }).first().waitFor();
      expect(await wizardStates(page)).toEqual(['done', 'done', 'done', 'current']);
      await expectAccessible(page, `booked view (${size}, de)`);

      // A reload keeps the booked view and its number.
      await page.reload();
      await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
      await main(page)
        .getByText(bookingNumber ?? 'none', { exact: true })
        .waitFor();
      expect(await ticketItems(page).count()).toBe(1);

      // Back does not lead to an empty summary nor to an empty data form: the booked view.
      expect(await page.evaluate(() => history.length)).toBeGreaterThan(1);
      const confirmation = new URL(page.url()).pathname;
      // (The data form's entry: it shows the booking's page, without the thanks that only the
      // booking itself says.)
      await page.goBack();
      await h1(page, 'Ihre Buchung').waitFor();
      expect(new URL(page.url()).pathname).toBe(confirmation);
      await main(page)
        .getByText(bookingNumber ?? 'none', { exact: true })
        .waitFor();
      await page.goForward();
      await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();

      // The same in English, back included.
      await serveAs(page, 'en');
      await page.reload();
      await h1(page, 'Thank you for your booking').waitFor();
      await main(page)
        .getByText(bookingNumber ?? 'none', { exact: true })
        .waitFor();
      await expectAccessible(page, `booked view (${size}, en)`);
      await page.goBack();
      await h1(page, /^Your booking$/).waitFor();
      expect(new URL(page.url()).pathname).toBe(confirmation);
      await main(page)
        .getByText(bookingNumber ?? 'none', { exact: true })
        .waitFor();
      expect(log.errors).toEqual([]);
      await page.context().close();
    });

    it(`the summary and the data form with an empty cart mark no step done (${size})`, async () => {
      const page = await openPage(viewport);
      const log = watchPage(page);
      await acceptPrivacy(page, server.baseUrl);
      for (const lang of ['de', 'en'] as const) {
        await serveAs(page, lang);
        await page.goto(`${server.baseUrl}/summary`);
        await main(page).locator('.wizard').waitFor();
        await main(page).locator('.empty-state, .notice').first().waitFor();
        expect(await wizardStates(page)).toEqual(['todo', 'todo', 'current', 'todo']);
        await expectAccessible(page, `empty summary (${size}, ${lang})`);
        await page.goto(`${server.baseUrl}/your-personal-data`);
        await main(page).locator('form').waitFor();
        expect(await wizardStates(page)).toEqual(['todo', 'current', 'todo', 'todo']);
        await expectAccessible(page, `data form with an empty cart (${size}, ${lang})`);
      }
      expect(log.errors).toEqual([]);
      await page.context().close();
    });
  }
});
