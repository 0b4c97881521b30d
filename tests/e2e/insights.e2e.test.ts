// The insights screen (docs/product.md#insights): at 1280 and 375 wide, in German and English,
// it shows each chart with its table beside it, replays the period with other seats and other
// tickets per person and day, is axe clean, and each part's CSV downloads with the figures the
// tables show.
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { expectAccessible, type RunningServer } from './harness.ts';
import { iso, weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { LANGS, VIEWPORTS, openStaffPage, signInAs, visitorBooks } from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let roomId = '';
const [dayA] = weekdaysAhead(1) as [Date];
const PARTS = ['heatmap', 'weeks', 'demand', 'lead-time'] as const;

const TEXTS = {
  de: {
    heatmap: 'Auslastung nach Wochentag und Stunde',
    refused: 'Abgewiesen (ausgebucht)',
    turnedAway: 'Abgewiesen',
    csv: 'als CSV herunterladen',
    seats: 'Plätze je Zeitfenster',
    perDay: 'Reservierungen je Person und Tag',
    replay: 'Nachspielen',
    served: 'Platz erhalten',
    withPerDay: 'Mit Reservierungen je Person und Tag: 1',
  },
  en: {
    heatmap: 'Occupancy by weekday and hour',
    refused: 'Turned away (full)',
    turnedAway: 'Turned away',
    csv: 'as CSV',
    seats: 'Seats per time slot',
    perDay: 'Reservations per person and day',
    replay: 'Replay',
    served: 'Got a seat',
    withPerDay: 'With reservations per person and day: 1',
  },
} as const;

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  roomId = idOf(FIRST_ROOM);
  // One seat, booked; two carts find it full afterwards.
  const slot = await createSlot(admin, roomId, dayA, '09:00', '11:00', 1);
  const last = await visitorBooks(
    server.baseUrl,
    { firstName: 'Ida', lastName: 'Imhof', email: 'ida@example.org' },
    [slot],
  );
  for (let i = 0; i < 2; i++) {
    const r = await new Client(server.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: slot },
    });
    expect(r.status).toBe(409);
  }
  await waitForReadModels(admin, last);
});

afterAll(() => stop?.());

/** The screen for the first room up to day A (the default period ends today). */
async function openInsights(page: Page, lang: 'de' | 'en'): Promise<void> {
  await signInAs(page, server.baseUrl, lang);
  await page.goto(`${server.baseUrl}/admin/insights`);
  await page.locator('#insights-roomId').selectOption(roomId);
  await page.locator('#insights-untilDate').fill(iso(dayA));
  await page.getByRole('img', { name: TEXTS[lang].heatmap }).waitFor();
  // The two refused carts (recorded beside their answers before the page opened).
  const refused = page.getByRole('main').getByRole('row', { name: TEXTS[lang].refused });
  expect(await refused.getByRole('cell').innerText()).toBe('2');
}

/** The texts of the cells of a table's row, by the row's name. */
const cellsOf = (table: Locator, row: string) =>
  table.getByRole('row', { name: row }).getByRole('cell').allInnerTexts();

describe('the insights screen', () => {
  describe('shows each chart with its table, axe clean, at both widths in both languages', () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        it(`${lang} ${viewport.width}`, async () => {
          const label = `${lang} ${viewport.width}`;
          const page = await openStaffPage(browser, viewport, lang);
          await openInsights(page, lang);
          const main = page.getByRole('main');
          // Four parts, each with a table (the replay's comes on asking).
          expect(await main.getByRole('table').count(), label).toBe(4);
          // The heatmap's table: the two booked hours of the slot, full.
          expect(await main.getByRole('cell', { name: /^100\s?%$/ }).count(), label).toBe(2);
          // Nothing wider than the screen but the scrolling tables.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow, label).toBeLessThanOrEqual(0);
          // What if the room had 3 seats: the two refused carts would have got one.
          await main.getByLabel(TEXTS[lang].seats).fill('3');
          await main.getByRole('button', { name: TEXTS[lang].replay }).click();
          const replayed = main.getByRole('table').last();
          await replayed.getByRole('row', { name: TEXTS[lang].served }).waitFor();
          expect(await cellsOf(replayed, TEXTS[lang].served), label).toEqual(['1', '3']);
          expect(await cellsOf(replayed, TEXTS[lang].turnedAway), label).toEqual(['2', '0']);
          // And with one ticket per person and day instead: Ida's one ticket stays served.
          await main.getByLabel(TEXTS[lang].seats).fill('');
          await main.getByLabel(TEXTS[lang].perDay).fill('1');
          await main.getByRole('button', { name: TEXTS[lang].replay }).click();
          await main.getByRole('columnheader', { name: TEXTS[lang].withPerDay }).waitFor();
          expect(await cellsOf(main.getByRole('table').last(), TEXTS[lang].served), label).toEqual([
            '1',
            '1',
          ]);
          expect(overflow, label).toBeLessThanOrEqual(0);
          await expectAccessible(page, `insights ${label}`);
          await page.context().close();
        });
      }
    }
  });

  it('downloads each part as CSV', async () => {
    for (const lang of LANGS) {
      const page = await openStaffPage(browser, VIEWPORTS[1], lang);
      await openInsights(page, lang);
      const links = page.getByRole('main').getByRole('link', { name: TEXTS[lang].csv });
      expect(await links.count()).toBe(PARTS.length);
      for (const [i, part] of PARTS.entries()) {
        const [download] = await Promise.all([page.waitForEvent('download'), links.nth(i).click()]);
        expect(download.suggestedFilename()).toMatch(new RegExp(`^insights-${part}-.*\\.csv$`));
        const csv = await readFile(await download.path(), 'utf8');
        const lines = csv
          .replace(/^\uFEFF/, '')
          .trim()
          .split('\r\n');
        // The slot of one seat, booked, from 9 to 11 on day A; two carts refused.
        const weekday = ((dayA.getDay() + 6) % 7) + 1;
        if (part === 'heatmap')
          expect(lines.slice(1)).toEqual([`${weekday};9;1;1`, `${weekday};10;1;1`]);
        if (part === 'demand') expect(lines.slice(1)).toEqual(['2;0;0;0']);
        if (part === 'weeks') expect(lines.slice(1)).toEqual([expect.stringMatching(/;1;1;0;0$/)]);
        if (part === 'lead-time')
          expect(lines.slice(1)).toEqual([expect.stringMatching(/^\d+;1$/)]);
      }
      await page.context().close();
    }
  });
});
