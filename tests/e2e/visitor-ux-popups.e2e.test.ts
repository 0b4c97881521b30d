import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  E2E_ADMIN,
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { iso, weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  DESKTOP,
  h1,
  main,
  PHONE,
  popupCollisions,
  serveAs,
} from './visitor-pages.ts';

/**
 * The info popups (shown 10 s) never cover a control: not the header's
 * panic or sign-out button, not the calendar's month and day buttons, not the cart's remove
 * buttons, not the form's labels, at 375 px and 1280 px.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const days = weekdaysAhead(3) as [Date, Date, Date];

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  for (const d of days) await createSlot(admin, idOf(FIRST_ROOM), d, '09:00', '12:00', 10);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('info popups cover no control', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`in the visitor's flow (${size})`, async () => {
      const page = await openPage(browser, viewport);
      const log = watchPage(page);
      // The page's clock stands still (its timers still run), so no popup ends while a slow
      // machine adds the three slots: the test is about where three popups stand, not how long.
      await page.clock.setFixedTime(new Date());
      await acceptPrivacy(page, server.baseUrl);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();

      await addSlot(page, days[0], '09:00-12:00');
      // The popup is in the polite live region; the panic button, the month and day buttons
      // stay uncovered.
      await page
        .getByRole('status', { name: 'Mitteilungen' })
        .getByText(/ist jetzt in Ihrem Warenkorb/)
        .waitFor();
      expect(await popupCollisions(page)).toEqual([]);
      await expectAccessible(page, `room view with a popup (${size}, de)`);

      await addSlot(page, days[1], '09:00-12:00');
      await addSlot(page, days[2], '09:00-12:00');
      expect(await page.locator('.info-popup').count()).toBe(3);
      expect(await popupCollisions(page)).toEqual([]);

      // Three popups still show on the cart: its remove buttons stay uncovered.
      await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
      await h1(page, 'Ihr Warenkorb').waitFor();
      expect(await popupCollisions(page)).toEqual([]);
      await main(page)
        .getByRole('button', { name: /^Entfernen/ })
        .first()
        .click();
      await page.getByText(/aus Ihrem Warenkorb entfernt/).waitFor();
      expect(await popupCollisions(page)).toEqual([]);
      await expectAccessible(page, `cart with popups (${size}, de)`);

      // And on the data form, its labels.
      await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
      await h1(page, 'Ihre Daten').waitFor();
      expect(await popupCollisions(page)).toEqual([]);

      // In English.
      await serveAs(page, 'en');
      await page.goto(`${server.baseUrl}/your-reservations`);
      await h1(page, 'Your cart').waitFor();
      await main(page)
        .getByRole('button', { name: /^Remove/ })
        .first()
        .click();
      await page.getByRole('status', { name: 'Notifications' }).locator('.info-popup').waitFor();
      expect(await popupCollisions(page)).toEqual([]);
      await expectAccessible(page, `cart with a popup (${size}, en)`);
      expect(log.errors).toEqual([]);
      await page.context().close();
    });

    it(`in the staff app: the sign-out button (${size})`, async () => {
      const page = await openPage(browser, viewport);
      const log = watchPage(page);
      await page.goto(`${server.baseUrl}/admin/`);
      await h1(page, 'Anmelden').waitFor();
      await page.getByLabel('Benutzername').fill(E2E_ADMIN.username);
      await page.getByLabel('Passwort').fill(E2E_ADMIN.password);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByRole('button', { name: 'Abmelden' }).waitFor();
      await page.goto(`${server.baseUrl}/admin/blacklist-add`);
      await h1(page, 'Eintrag zur Sperrliste hinzufügen').waitFor();
      const next = new Date();
      next.setMonth(next.getMonth() + 2);
      await page.getByLabel(/^E-Mail-Adresse/).fill(`popup.${size}@example.at`);
      await page.getByLabel(/^Gesperrt bis/).fill(iso(next));
      await page.getByRole('button', { name: 'Eintrag hinzufügen' }).click();
      await page.getByText(`popup.${size}@example.at wurde zur Sperrliste hinzugefügt.`).waitFor();
      expect(await popupCollisions(page)).toEqual([]);
      await expectAccessible(page, `blacklist with a popup (${size}, de)`);
      // Only the sign-in page's deliberate 401 (nobody signed in yet) is logged.
      expect(log.errors.filter((e) => !/401/.test(e))).toEqual([]);
      await page.context().close();
    });
  }
});
