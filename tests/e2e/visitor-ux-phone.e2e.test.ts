import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { makePng } from '../support/images.ts';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { LIBRARY_ZONE, weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  cartPanel,
  DESKTOP,
  h1,
  main,
  PHONE,
  serveAs,
} from './visitor-pages.ts';

/**
 * The phone flow (375×740, and the same at 1280×900): the room's image on
 * its page, the month buttons in one row, today marked, after an add the way on in sight and
 * the cart's count in the header, time ranges unbroken, and "choose more" back to the room. The
 * phone runs in UTC, the library in Europe/Vienna.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const [dayA] = weekdaysAhead(1) as [Date];
const ALT = 'Lange Tische unter hohen Fenstern';

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: LIBRARY_ZONE });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(makePng(64, 48))], { type: 'image/png' }), 'r.png');
  form.append('alt', ALT);
  const put = await admin.request('PUT', `/api/admin/rooms/${idOf(FIRST_ROOM)}/image`, { form });
  expect(put.status).toBe(200);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '09:00', '12:00', 24);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '13:00', '17:00', 24);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** Whether the element lies wholly inside the viewport as it is scrolled now. */
async function inSight(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const { height } = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

const noHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );

describe('a phone-first flow', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`room, calendar, cart and the way on (${size})`, async () => {
      const page = await (await newContext(browser, viewport, 'de', 'UTC')).newPage();
      const log = watchPage(page);
      await acceptPrivacy(page, server.baseUrl);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();

      // The room's image shows on its page too.
      await main(page).getByRole('img', { name: ALT }).waitFor();
      // The three month buttons share one row.
      const tops = await Promise.all(
        ['Vorheriger Monat', 'Aktueller Monat', 'Nächster Monat'].map(async (name) => {
          const box = await main(page).getByRole('button', { name }).boundingBox();
          return box?.y;
        }),
      );
      expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);
      // Today is marked (the calendar opens at the current month).
      const today = main(page).locator('[aria-current="date"]');
      // The month's days come with the calendar's answer, after the month buttons.
      await today.first().waitFor();
      expect(await today.count()).toBe(1);
      expect(await today.textContent()).toContain('heute');
      await noHorizontalScroll(page);

      await addSlot(page, dayA, '13:00-17:00');
      // The way on is in sight right after the add, and the header counts the cart.
      const onward = main(page).getByRole('link', { name: 'Weiter mit 1 gewähltem Termin' });
      await onward.waitFor();
      // (Below the grid, or the cart's own link beside the calendar on a wide screen.)
      const cartLink = cartPanel(page).getByRole('link', { name: 'Weiter zum Warenkorb' });
      // The page brings it into view once the day's dialog has given the focus back.
      await expect
        .poll(async () => (await inSight(page, onward)) || (await inSight(page, cartLink)), {
          message: 'the way on is in sight',
        })
        .toBe(true);
      await page.getByRole('banner').getByRole('link', { name: 'Warenkorb (1 Termin)' }).waitFor();
      // The day of the slot is marked in the calendar.
      await main(page)
        .getByRole('button', { name: /, Termin in Ihrem Warenkorb$/ })
        .waitFor();
      // Time ranges never break across lines.
      const ranges = main(page).locator('.time-range');
      expect(await ranges.count()).toBeGreaterThan(0);
      for (const lines of await ranges.evaluateAll((els: Element[]) =>
        els.map((el) => el.getClientRects().length),
      )) {
        expect(lines).toBe(1);
      }
      await noHorizontalScroll(page);
      await expectAccessible(page, `room view with a slot in the cart (${size}, de)`);

      await onward.click();
      await h1(page, 'Ihr Warenkorb').waitFor();
      await expectAccessible(page, `cart (${size}, de)`);
      // "Choose more" goes back to the room.
      await main(page).getByRole('link', { name: 'Weitere Termine wählen' }).click();
      await h1(page, FIRST_ROOM).waitFor();

      await serveAs(page, 'en');
      await page.reload();
      await main(page).getByRole('link', { name: 'Continue with 1 chosen appointment' }).waitFor();
      await page.getByRole('banner').getByRole('link', { name: 'Cart (1 appointment)' }).waitFor();
      await expectAccessible(page, `room view with a slot in the cart (${size}, en)`);
      expect(log.errors).toEqual([]);
      await page.context().close();
    });
  }
});
