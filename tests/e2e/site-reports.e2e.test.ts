// The reports' and insights' site filter (docs/product.md#sites): with several sites the daily
// reports' links stand under each site's name, and the insights screen offers a site, which
// narrows the rooms and the figures to that site's (its CSVs too), at 1280 wide in German and
// English, axe clean; the occupancy report's site narrows its rooms; a user of one site sees no
// site select, her figures being her site's.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createRoom } from '../support/fixtures.ts';
import { iso, weekdaysAhead } from './dates.ts';
import {
  E2E_ADMIN,
  expectAccessible,
  launchBrowser,
  LANGS,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { DESKTOP, openStaffPage, SIGN_IN, signInAs, visitorBooks } from './staff-ux-support.ts';
import { createSlot, waitForReadModels } from './test-rooms.ts';
import { h1 } from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let mainRoom = '';
let lawRoom = '';
const [dayA] = weekdaysAhead(1) as [Date];

const TEXTS = {
  de: {
    site: 'Standort',
    allSites: 'Alle Standorte',
    allRooms: 'Alle Räume',
    weeks: 'Verlauf nach Wochen',
    booked: 'Gebuchte Plätze',
    daily: 'Tagesbericht',
  },
  en: {
    site: 'Site',
    allSites: 'All sites',
    allRooms: 'All rooms',
    weeks: 'Trend by week',
    booked: 'Seats booked',
    daily: 'Daily report',
  },
} as const;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { LIBRARY_NAME: 'Hauptbibliothek' });
  browser = await launchBrowser();
  const admin = new Client(server.baseUrl);
  expect((await admin.login(E2E_ADMIN.username, E2E_ADMIN.password)).status).toBe(200);
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status).toBe(201);
  const juraId = ((await site.json()) as { id: string }).id;
  mainRoom = await createRoom(admin, 'Lesesaal Haupthaus');
  lawRoom = await createRoom(admin, 'Lesesaal Jura', { siteId: juraId });
  const mainSlot = await createSlot(admin, mainRoom, dayA, '09:00', '11:00', 5);
  const lawSlot = await createSlot(admin, lawRoom, dayA, '09:00', '11:00', 5);
  // One booking in the main library, two in the law library.
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Ida', lastName: 'Imhof', email: 'ida@example.org' },
    [mainSlot],
  );
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Jan', lastName: 'Jurist', email: 'jan@example.org' },
    [lawSlot],
  );
  const last = await visitorBooks(
    server.baseUrl,
    { firstName: 'Jana', lastName: 'Jurist', email: 'jana@example.org' },
    [lawSlot],
  );
  await waitForReadModels(admin, last);
  await addUser(db, 'jura-berichte', 'jura-password-12', ['reports@jura']);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** The booked seats of the weeks' table (the one week of day A). */
async function bookedSeats(page: Page, lang: 'de' | 'en'): Promise<string> {
  const table = page.getByRole('main').getByRole('table', { name: TEXTS[lang].weeks });
  await table.waitFor();
  const header = await table.getByRole('columnheader').allInnerTexts();
  const column = header.indexOf(TEXTS[lang].booked);
  expect(column).toBeGreaterThan(0);
  const row = table.getByRole('row').nth(1);
  return (await row.getByRole('cell').allInnerTexts())[column]!;
}

describe('the reports’ site filter', () => {
  for (const lang of LANGS) {
    it(`narrows the insights to a site’s rooms and figures (${lang}, 1280)`, async () => {
      const page = await openStaffPage(browser, DESKTOP, lang);
      const log = watchPage(page);
      try {
        await signInAs(page, server.baseUrl, lang);
        // The daily reports' links under each site's name.
        await page.goto(`${server.baseUrl}/admin/reports`);
        const daily = page.locator('section[aria-labelledby="reports-daily"]');
        await daily.getByRole('heading', { level: 3, name: 'Fachbibliothek Jura' }).waitFor();
        expect(await daily.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
          'Hauptbibliothek',
          'Fachbibliothek Jura',
        ]);
        expect(
          await daily.locator('section[aria-labelledby="reports-daily-jura"] a').allTextContents(),
        ).toEqual([`${TEXTS[lang].daily}: Lesesaal Jura`]);
        await expectAccessible(page, `reports with several sites ${lang}`);
        await page.goto(`${server.baseUrl}/admin/insights`);
        const site = page.getByLabel(TEXTS[lang].site, { exact: true });
        await site.waitFor();
        expect(await site.locator('option').allTextContents()).toEqual([
          TEXTS[lang].allSites,
          'Hauptbibliothek',
          'Fachbibliothek Jura',
        ]);
        await page.locator('#insights-untilDate').fill(iso(dayA));
        await expect.poll(() => bookedSeats(page, lang)).toBe('3');

        await site.selectOption('jura');
        // The rooms offered are the site's; the figures and the heading are the site's.
        expect(await page.locator('#insights-roomId option').allTextContents()).toEqual([
          TEXTS[lang].allRooms,
          'Lesesaal Jura',
        ]);
        await expect.poll(() => bookedSeats(page, lang)).toBe('2');
        await page
          .getByRole('heading', { level: 2, name: /^Fachbibliothek Jura/ })
          .first()
          .waitFor();
        const csv = page.getByRole('main').getByRole('link').filter({ hasText: /CSV/ }).first();
        expect(await csv.getAttribute('href')).toContain('site=jura');

        // A room of another site is left when the site changes.
        await site.selectOption('');
        await page.locator('#insights-roomId').selectOption(mainRoom);
        await expect.poll(() => bookedSeats(page, lang)).toBe('1');
        await site.selectOption('jura');
        expect(await page.locator('#insights-roomId').inputValue()).toBe('');
        await expect.poll(() => bookedSeats(page, lang)).toBe('2');
        await expectAccessible(page, `insights with the site filter ${lang}`);

        // The occupancy report: the site narrows its rooms, the site's first one is chosen.
        await page.goto(`${server.baseUrl}/admin/occupancy-report`);
        const occupancySite = page.getByLabel(TEXTS[lang].site, { exact: true });
        await occupancySite.waitFor();
        await occupancySite.selectOption('jura');
        expect(await page.locator('#occupancy-roomId option').allTextContents()).toEqual([
          'Lesesaal Jura',
        ]);
        expect(await page.locator('#occupancy-roomId').inputValue()).toBe(lawRoom);
        await expectAccessible(page, `occupancy report with the site filter ${lang}`);
        expect(log.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }

  it('offers no site to a user of one site, whose figures are her site’s', async () => {
    const page = await openStaffPage(browser, DESKTOP, 'de');
    try {
      await page.goto(`${server.baseUrl}/admin/`);
      await h1(page, SIGN_IN.de.title).waitFor();
      await page.getByLabel(SIGN_IN.de.username).fill('jura-berichte');
      await page.getByLabel(SIGN_IN.de.password).fill('jura-password-12');
      await page.getByRole('button', { name: SIGN_IN.de.submit, exact: true }).click();
      await page.getByRole('navigation').first().waitFor();
      await page.goto(`${server.baseUrl}/admin/insights`);
      await page.locator('#insights-untilDate').fill(iso(dayA));
      await expect.poll(() => bookedSeats(page, 'de')).toBe('2');
      expect(await page.getByLabel(TEXTS.de.site, { exact: true }).count()).toBe(0);
      expect(await page.locator('#insights-roomId option').allTextContents()).toEqual([
        TEXTS.de.allRooms,
        'Lesesaal Jura',
      ]);
    } finally {
      await page.context().close();
    }
  });
});
