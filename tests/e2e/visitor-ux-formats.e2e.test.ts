import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import { acceptPrivacy, addSlot, DESKTOP, h1, main, PHONE, serveAs } from './visitor-pages.ts';

/**
 * One date and time style per language, 24-hour as the slots are: the
 * popups' dates and the cart's hold time show no "PM" and no "Nov 24, 2026" in English.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const [dayA, dayB] = weekdaysAhead(2) as [Date, Date];
const DATE_TIME = /^\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d$/;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  for (const d of [dayA, dayB]) await createSlot(admin, idOf(FIRST_ROOM), d, '13:00', '17:00', 10);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const popupDates = (page: Page) => page.locator('.info-popup time').allTextContents();
const noTwelveHourClock = async (page: Page) =>
  expect(await page.locator('body').innerText()).not.toMatch(/\d\s?(AM|PM)\b/i);

describe('one 24-hour date and time style per language', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`popups and the cart's hold time, de and en (${size})`, async () => {
      const page = await openPage(browser, viewport);
      const log = watchPage(page);
      await acceptPrivacy(page, server.baseUrl);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, dayA, '13:00-17:00');
      await addSlot(page, dayB, '13:00-17:00');
      const dates = await popupDates(page);
      expect(dates.length).toBeGreaterThan(0);
      for (const date of dates) expect(date).toMatch(DATE_TIME);
      await main(page)
        .getByText(/^Die Termine sind bis \d\d:\d\d Uhr für Sie vorgemerkt\.$/)
        .waitFor();

      await serveAs(page, 'en');
      await page.goto(`${server.baseUrl}/your-reservations`);
      await h1(page, 'Your cart').waitFor();
      await main(page)
        .getByText(/^The appointments are held for you until \d\d:\d\d\.$/)
        .waitFor();
      await main(page)
        .getByRole('button', { name: /^Remove/ })
        .first()
        .click();
      await page.locator('.info-popup time').first().waitFor();
      for (const date of await popupDates(page)) expect(date).toMatch(DATE_TIME);
      await noTwelveHourClock(page);
      await expectAccessible(page, `cart with a popup (${size}, en)`);
      expect(log.errors).toEqual([]);
      await page.context().close();
    });
  }
});
