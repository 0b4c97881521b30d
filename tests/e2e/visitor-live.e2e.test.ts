import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { watchPage, type RunningServer } from './harness.ts';
import { longDate, weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import {
  dayButton,
  DESKTOP,
  dialog,
  h1,
  main,
  openVisitorPage,
  showMonthOf,
} from './visitor-pages.ts';

/**
 * Live availability (docs/product.md#live-availability): a visitor looking at a room's month sees
 * the seats another visitor takes there, without reloading the page.
 */

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let slotId: string;
let roomId: string;

const [day] = weekdaysAhead(1) as [Date];

/** Another visitor puts a seat of the slot into a cart of their own (through the API). */
async function anotherVisitorTakesASeat(): Promise<void> {
  const other = new Client(server.baseUrl);
  const cart = await other.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(cart.status, await cart.clone().text()).toBe(201);
}

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  roomId = idOf(FIRST_ROOM);
  slotId = await createSlot(admin, roomId, day, '09:00', '12:00', 2);
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

describe('live availability in the room calendar', () => {
  it('shows the seats another visitor takes while the month is open, without a reload', async () => {
    const page = await openVisitorPage(browser, DESKTOP);
    const log = watchPage(page);
    await page.goto(`${server.baseUrl}/room/${roomId}`);
    await h1(page, FIRST_ROOM).waitFor();
    await showMonthOf(page, day);
    await dayButton(page, day).click();
    await dialog(page)
      .getByRole('heading', { name: longDate(day) })
      .waitFor();
    await dialog(page).getByText('0 von 2 belegt').waitFor();

    await anotherVisitorTakesASeat();
    // The open day shows the seat taken (the page is never reloaded).
    await dialog(page)
      .getByText('1 von 2 belegt')
      .waitFor({ timeout: budget(10_000) });

    await anotherVisitorTakesASeat();
    await dialog(page)
      .getByText('2 von 2 belegt')
      .waitFor({ timeout: budget(10_000) });
    await page.keyboard.press('Escape');
    // The day has no free seat left: the calendar no longer offers it as free.
    await main(page)
      .getByRole('button', { name: new RegExp(`^${longDate(day)}`) })
      .first()
      .waitFor();
    await expect.poll(() => dayButton(page, day).count(), { timeout: budget(10_000) }).toBe(0);
    expect(log.errors).toEqual([]);
  });
});
