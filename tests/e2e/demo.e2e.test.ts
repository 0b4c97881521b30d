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
import { longDate, monthTitle } from './dates.ts';
import {
  acceptPrivacy,
  cartPanel,
  dayButton,
  dialog,
  h1,
  main,
  roomNames,
  showMonthOf,
  ticketItems,
} from './visitor-pages.ts';

/**
 * The demo data a fresh `npm start` seeds (server/src/seed.ts), seen by a newcomer. The contract
 * this test relies on, and nothing more: the seed creates at least three rooms whose time slots
 * lie on weekdays from today for about six weeks, bookable by visitors from two days ahead, some
 * of them nearly or fully booked. So the test finds a free day instead of assuming a date, and
 * looks for it in the current and the next month.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { SEED_DEMO_DATA: 'true' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** The visitor's slot buttons of an open day dialog that add a slot to the cart. */
const bookButtons = (page: Page) => dialog(page).getByRole('button', { name: /^Reservieren / });
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A ticket's day and time as the cart and the ticket lists show it. */
const ticketText = (d: Date) =>
  new RegExp(`^${escaped(longDate(d))}, \\d\\d:\\d\\d-\\d\\d:\\d\\d$`);

/**
 * Adds the first bookable slot of the first day marked free to the cart, looking in the current
 * month and then in the next (a free day may still hold only slots this visitor cannot book:
 * then the next free day is tried). Answers the day.
 */
async function addFirstFreeSlot(page: Page): Promise<Date> {
  const now = new Date();
  const tried: string[] = [];
  for (const first of [0, 1].map((m) => new Date(now.getFullYear(), now.getMonth() + m, 1))) {
    await showMonthOf(page, first);
    // The grid shows once the month's slots have loaded.
    await main(page)
      .getByRole('grid', { name: `Zeitfenster im ${monthTitle(first)}` })
      .waitFor();
    const length = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
    for (let n = 1; n <= length; n += 1) {
      const d = new Date(first.getFullYear(), first.getMonth(), n);
      if ((await dayButton(page, d).count()) === 0) continue;
      tried.push(longDate(d));
      await dayButton(page, d).click();
      await dialog(page)
        .getByRole('heading', { name: longDate(d) })
        .waitFor();
      if ((await bookButtons(page).count()) === 0) {
        await page.keyboard.press('Escape');
        await dialog(page).waitFor({ state: 'hidden' });
        continue;
      }
      await bookButtons(page).first().click();
      await dialog(page).waitFor({ state: 'hidden' });
      return d;
    }
  }
  throw new Error(
    `no bookable slot in the current or the next month (days marked free: ${
      tried.join('; ') || 'none'
    })`,
  );
}

describe('the demo data, end to end in Chromium', () => {
  it('a newcomer finds the demo rooms and books a free slot straight away', async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    await acceptPrivacy(page, server.baseUrl);

    // The room chooser lists the demo rooms (their names and descriptions are the seed's).
    const firstHeading = main(page).getByRole('heading', { level: 2 }).first();
    await firstHeading.waitFor();
    const rooms = await roomNames(page);
    expect(rooms.length).toBeGreaterThanOrEqual(3);
    const room = rooms[0]!.trim();
    expect(room).not.toBe('');
    expect(await firstHeading.isVisible()).toBe(true);

    await page.getByRole('link', { name: `Auswählen ${room}`, exact: true }).click();
    await h1(page, room).waitFor();
    // The grid shows once the month's slots have loaded.
    await main(page)
      .getByRole('grid', { name: /^Zeitfenster im / })
      .waitFor();
    await expectAccessible(page, 'demo room calendar');

    const day = await addFirstFreeSlot(page);
    const cart = cartPanel(page);
    await cart.getByText(ticketText(day)).waitFor();
    expect(await cart.getByRole('listitem').count()).toBe(1);

    await cart.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
    await h1(page, 'Ihr Warenkorb').waitFor();
    await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
    await h1(page, 'Ihre Daten').waitFor();
    await page.getByLabel('Anrede').selectOption('MR');
    await page.getByLabel(/^Vorname/).fill('Niko');
    await page.getByLabel(/^Nachname/).fill('Neuling');
    // An address of its own: no booking of an earlier run counts against the per-visitor limits.
    await page.getByLabel(/^E-Mail-Adresse/).fill(`niko.neuling.${Date.now()}@example.at`);
    await page.getByLabel(/^Telefonnummer/).fill('+4315551234');
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    await h1(page, 'Zusammenfassung').waitFor();
    await main(page).getByText('Herr Niko Neuling').waitFor();
    await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();

    // The booked view: the booking number and the booked slot in the demo room.
    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
    expect(await main(page).getByText('Buchungsnummer:').locator('strong').textContent()).toMatch(
      /^R-[0-9A-Z]{6}$/,
    );
    const ticket = ticketItems(page);
    expect(await ticket.count()).toBe(1);
    await ticket.getByText(room, { exact: true }).waitFor();
    await ticket.getByText(ticketText(day)).waitFor();
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
