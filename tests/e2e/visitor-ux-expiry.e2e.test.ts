import type { Browser, Page } from 'playwright-core';
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
import { LIBRARY_ZONE, libraryMinutes, weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  DESKTOP,
  h1,
  main,
  overlaps,
  PHONE,
  serveAs,
} from './visitor-pages.ts';
import { budget } from '../support/time-budget.ts';

/**
 * The cart's hold is counted down on every page, a minute before its end a
 * status warns, and when it runs out the data form stays with what was typed and says the cart
 * expired; elsewhere the visitor starts again at `/?reset=y` with the expiry message. A server
 * of its own holds carts for half a minute (so the warning shows at once). The library runs in
 * Europe/Vienna and the phone in UTC: the hold's end is shown in the library's time.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const [dayA] = weekdaysAhead(1) as [Date];
const EXPIRED = 'Ihr Warenkorb ist abgelaufen. Bitte wählen Sie Ihre Termine erneut.';
const EXPIRED_EN = 'Your cart has expired. Please choose your appointments again.';
const WARNING = 'In weniger als einer Minute werden Ihre Termine wieder freigegeben.';
const HOLD_MS = 30_000;
const TEXTS = {
  de: {
    until: (time: string) => `Die Termine sind bis ${time} Uhr für Sie vorgemerkt.`,
    fields: [/^Telefonnummer/, /^E-Mail-Adresse/],
  },
  en: {
    until: (time: string) => `The appointments are held for you until ${time}.`,
    fields: [/^Telephone number/, /^E-mail address/],
  },
} as const;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { CART_HOLD_MINUTES: '0.5', TIME_ZONE: LIBRARY_ZONE });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '09:00', '12:00', 10);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** When a page's slot was added to its cart (the machine clock, which the server shares). */
const addedAt = new WeakMap<Page, number>();
/**
 * What a page's cart may show as its hold's end now: the library's time a hold after the add, or
 * after a later touch of the cart (a reload may keep it), never the device's time (an hour off).
 */
const holdEnds = (page: Page) =>
  libraryMinutes(new Date(addedAt.get(page)! + HOLD_MS), new Date(Date.now() + HOLD_MS));

/**
 * A fresh visitor (the device in UTC) with the one slot in the cart, on the cart page; checks
 * the countdown and the hold's end in the library's time.
 */
async function withSlot(viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await newContext(browser, viewport, 'de', 'UTC')).newPage();
  await acceptPrivacy(page, server.baseUrl);
  await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
  await h1(page, FIRST_ROOM).waitFor();
  const adding = Date.now();
  await addSlot(page, dayA, '09:00-12:00');
  addedAt.set(page, adding);
  // The time left, counted down, and (a one-minute hold) the warning with a way to keep it.
  const left = main(page).getByText(/^Ihre Termine sind noch 0:\d\d Minuten für Sie vorgemerkt\.$/);
  const first = await left.textContent();
  await expect.poll(() => left.textContent(), { timeout: budget(5_000) }).not.toBe(first);
  await main(page).getByRole('status').getByText(WARNING).waitFor();
  await main(page).getByRole('button', { name: 'Vormerkung verlängern' }).waitFor();
  await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
  await h1(page, 'Ihr Warenkorb').waitFor();
  const until = await main(page).locator('.cart-expiry').textContent();
  expect(holdEnds(page).map(TEXTS.de.until)).toContain(until);
  return page;
}

/**
 * While the phone visitor types further down the data form, the countdown, the warning and its
 * button stay in view at the top (pinned), and cover no field being typed in.
 */
async function expectPinnedWhileTyping(page: Page, lang: 'de' | 'en'): Promise<void> {
  const hold = main(page).locator('.cart-hold');
  for (const label of TEXTS[lang].fields) {
    const field = page.getByLabel(label);
    await field.focus();
    await field.pressSequentially('1');
    const [bar, box] = [(await hold.boundingBox())!, (await field.boundingBox())!];
    expect(bar.y, `the bar is in view (${lang})`).toBeGreaterThanOrEqual(0);
    expect(bar.y + bar.height).toBeLessThanOrEqual(PHONE.height);
    expect(await overlaps(hold, field), `the bar covers the field (${lang})`).toBe(false);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await field.fill('');
  }
  await expect
    .poll(() => page.evaluate(() => window.scrollY), { timeout: budget(5_000) })
    .toBeGreaterThan(0);
}

describe('the cart expiry is shown and loses nothing', () => {
  it('counts down, warns, and on expiry keeps the typed data or names the expiry', async () => {
    const [phone, desktop] = await Promise.all([withSlot(PHONE), withSlot(DESKTOP)]);
    const logs = [watchPage(phone), watchPage(desktop)];
    await expectAccessible(phone, 'cart with the hold warning (phone, de)');
    await expectAccessible(desktop, 'cart with the hold warning (desktop, de)');

    // The phone visitor is typing the personal data when the hold runs out.
    await main(phone).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
    await h1(phone, 'Ihre Daten').waitFor();
    await main(phone)
      .getByText(/^Ihre Termine sind noch 0:\d\d Minuten/)
      .waitFor();
    await phone.getByLabel(/^Vorname/).fill('Erika');
    await phone.getByLabel(/^Nachname/).fill('Muster');
    await expectPinnedWhileTyping(phone, 'de');
    await main(phone).getByRole('button', { name: 'Vormerkung verlängern' }).waitFor();
    const keep = (await main(phone)
      .getByRole('button', { name: 'Vormerkung verlängern' })
      .boundingBox())!;
    expect(keep.y).toBeGreaterThanOrEqual(0);

    const alert = main(phone).getByRole('alert').getByText(EXPIRED);
    await Promise.all([
      alert.waitFor({ timeout: budget(110_000) }),
      desktop.waitForURL(/\?reset=y$/, { timeout: budget(110_000) }),
    ]);
    // The form stays, with what was typed; no countdown is left.
    expect(new URL(phone.url()).pathname).toBe('/your-personal-data');
    expect(await phone.getByLabel(/^Vorname/).inputValue()).toBe('Erika');
    expect(await phone.getByLabel(/^Nachname/).inputValue()).toBe('Muster');
    // Honest about the cart: no way on to a summary without tickets, only back to the rooms.
    expect(
      await main(phone).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).count(),
    ).toBe(0);
    await main(phone)
      .locator('form')
      .getByRole('link', { name: 'Raum und Termin wählen' })
      .waitFor();
    expect(
      await main(phone)
        .getByText(/Minuten für Sie vorgemerkt/)
        .count(),
    ).toBe(0);
    await expectAccessible(phone, 'data form after the expiry (phone, de)');
    // Kept in the session too: a reload (here in English) shows the typed data.
    await serveAs(phone, 'en');
    await phone.reload();
    await h1(phone, 'Your data').waitFor();
    expect(await phone.getByLabel(/^First name/).inputValue()).toBe('Erika');
    await expectAccessible(phone, 'data form after the expiry (phone, en)');

    // The other visitor starts again, told that the hold ran out (not the panic's reset text),
    // with the cart gone from the browser's session and nothing left to delete.
    await main(desktop).getByText(EXPIRED).waitFor();
    expect(await desktop.getByText(/wurde zurückgesetzt/).count()).toBe(0);
    expect(await desktop.evaluate(() => sessionStorage.getItem('transactionId'))).toBeNull();
    expect(
      await desktop.getByRole('banner').getByRole('button', { name: 'Alles löschen' }).count(),
    ).toBe(0);
    await expectAccessible(desktop, 'room chooser after the expiry (desktop, de)');
    await serveAs(desktop, 'en');
    await desktop.reload();
    await main(desktop).getByText(EXPIRED_EN).waitFor();
    await expectAccessible(desktop, 'room chooser after the expiry (desktop, en)');

    for (const log of logs) expect(log.errors).toEqual([]);
    await phone.context().close();
    await desktop.context().close();
  });

  it('the countdown and the warning pass axe in English at both sizes, pinned while typing', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await withSlot(viewport);
      await serveAs(page, 'en');
      await page.reload();
      await main(page)
        .getByText(/^Your appointments are held for you for another 0:\d\d/)
        .waitFor();
      await main(page).getByRole('button', { name: 'Keep holding them' }).waitFor();
      const until = await main(page).locator('.cart-expiry').textContent();
      expect(holdEnds(page).map(TEXTS.en.until)).toContain(until);
      await expectAccessible(page, `cart with the hold warning (${viewport.width} px, en)`);
      if (viewport === PHONE) {
        // Held anew, so the hold lasts while the visitor types.
        await main(page).getByRole('button', { name: 'Keep holding them' }).click();
        await main(page).getByRole('link', { name: 'Continue to your data' }).click();
        await h1(page, 'Your data').waitFor();
        await expectPinnedWhileTyping(page, 'en');
      }
      await page.context().close();
    }
  });
});
