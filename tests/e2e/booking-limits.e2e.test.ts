import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, openPage, type RunningServer, watchPage } from './harness.ts';
import { longDate, weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { acceptPrivacy, cartPanel, dayButton, dialog, h1, showMonthOf } from './visitor-pages.ts';

/**
 * One home for every rule: a server started with MAX_CART_TICKETS=3 and
 * MAX_TICKETS_PER_DAY=1 gives the visitor app these limits (GET /api/settings), and the app
 * names them on the slots and in the cart before anything is refused.
 */

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;

const [dayA, dayB, dayC, dayD] = weekdaysAhead(4) as [Date, Date, Date, Date];

const DAY_FULL = 'Sie haben die höchste Anzahl an Terminen für diesen Tag erreicht.';
const CART_FULL = 'Ihr Warenkorb enthält bereits 3 Termine. Mehr sind nicht möglich.';

/** Opens the day dialog of `d` in the room calendar. */
async function openDay(page: Page, d: Date): Promise<void> {
  await showMonthOf(page, d);
  await dayButton(page, d).click();
  await dialog(page)
    .getByRole('heading', { name: longDate(d) })
    .waitFor();
}

/** Adds the slot `range` of day `d` to the cart through the day dialog. */
async function addSlot(page: Page, d: Date, range: string): Promise<void> {
  await openDay(page, d);
  await dialog(page)
    .getByRole('button', { name: `Reservieren ${range}` })
    .click();
  await dialog(page).waitFor({ state: 'hidden' });
}

async function closeDay(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await dialog(page).waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  const rooms = await startWithTestRooms({ MAX_CART_TICKETS: '3', MAX_TICKETS_PER_DAY: '1' });
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  const room = idOf(FIRST_ROOM);
  await createSlot(admin, room, dayA, '09:00', '10:00', 4);
  await createSlot(admin, room, dayA, '11:00', '12:00', 4);
  for (const d of [dayB, dayC, dayD]) await createSlot(admin, room, d, '09:00', '10:00', 4);
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

describe('booking limits of the configuration, in Chromium', () => {
  it('the server serves them from its environment', async () => {
    const res = await fetch(`${server.baseUrl}/api/settings`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ maxCartTickets: 3, maxTicketsPerDay: 1 });
  });

  it('marks a day at its maximum and a full cart on the slots, and warns in the cart', async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    await acceptPrivacy(page, server.baseUrl);
    await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
    await h1(page, FIRST_ROOM).waitFor();
    const cart = cartPanel(page);

    await addSlot(page, dayA, '09:00-10:00');
    await cart.getByText(`${longDate(dayA)}, 09:00-10:00`, { exact: true }).waitFor();
    // The cart names the day and its limit, and the per-person maxima.
    await cart.getByText(`Höchstens 1 Termin pro Tag – erreicht am ${longDate(dayA)}.`).waitFor();
    await cart.getByText(/Termine pro Person: höchstens 1 am Tag und 10 insgesamt/).waitFor();

    // The day's other slot says why it cannot be added, and offers no button.
    await openDay(page, dayA);
    await dialog(page).getByText(DAY_FULL).waitFor();
    expect(
      await dialog(page)
        .getByRole('button', { name: /^Reservieren/ })
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'day dialog at the per-day maximum');
    await closeDay(page);

    // Three tickets fill the cart (MAX_CART_TICKETS=3): every other slot says so.
    await addSlot(page, dayB, '09:00-10:00');
    await cart
      .getByText(
        `Höchstens 1 Termin pro Tag – erreicht am ${longDate(dayA)} und ${longDate(dayB)}.`,
      )
      .waitFor();
    await addSlot(page, dayC, '09:00-10:00');
    await cart.getByText(`${longDate(dayC)}, 09:00-10:00`, { exact: true }).waitFor();
    // A full cart says so alone: every day is closed to it.
    await cart.getByText(CART_FULL).waitFor();
    expect(await cart.getByText(/Termin pro Tag/).count()).toBe(0);
    await openDay(page, dayD);
    await dialog(page).getByText(CART_FULL).waitFor();
    expect(
      await dialog(page)
        .getByRole('button', { name: /^Reservieren/ })
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'day dialog with a full cart');
    await closeDay(page);
    expect(await cart.getByRole('listitem').count()).toBe(3);

    // Nothing was refused on the way: the marks came first.
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
