// In the browser: a visitor moves a booked ticket to another slot of the room with a free seat,
// from the confirmation page (German, 375 wide) and from my bookings (English, 1280 wide); the
// booking number stays, the dialog offers only slots with a free seat, axe clean.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { weekdaysAhead } from './dates.ts';
import {
  expectAccessible,
  launchBrowser,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import {
  bookAsVisitor,
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  waitForReadModels,
  type VisitorBooking,
} from './test-rooms.ts';
import { DESKTOP, dialog, h1, mailedPath, main, openVisitorPage, PHONE } from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;
let early: VisitorBooking;
let other: VisitorBooking;
const [day] = weekdaysAhead(1) as [Date];

const visitorPage = (viewport: { width: number; height: number }, lang: 'de' | 'en' = 'de') =>
  openVisitorPage(browser, viewport, lang);

/** The time ranges of the booked tickets the page lists (its first list; cancelled ones follow). */
const listedTimes = (page: Page) =>
  main(page).locator('.ticket-list').first().locator('> li .time-range').allTextContents();

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  const rooms = await createTestRooms(server.baseUrl);
  admin = rooms.admin;
  const roomId = rooms.idOf(FIRST_ROOM);
  const first = await createSlot(admin, roomId, day, '08:00', '09:00', 5);
  const second = await createSlot(admin, roomId, day, '10:00', '11:00', 5);
  const full = await createSlot(admin, roomId, day, '12:00', '13:00', 1);
  await createSlot(admin, roomId, day, '14:00', '15:00', 5);
  await bookAsVisitor(server.baseUrl, [full], {
    firstName: 'Fritz',
    lastName: 'Voll',
    email: 'fritz@example.at',
  });
  early = await bookAsVisitor(server.baseUrl, [first], {
    firstName: 'Ulla',
    lastName: 'Umbucher',
    email: 'ulla@example.at',
  });
  other = await bookAsVisitor(server.baseUrl, [second], {
    firstName: 'Emil',
    lastName: 'English',
    email: 'emil@example.at',
  });
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('rebooking in the browser', () => {
  it('moves a ticket from the confirmation page (de, 375 wide)', async () => {
    const page = await visitorPage(PHONE, 'de');
    const watch = watchPage(page);
    await page.goto(`${server.baseUrl}/reservation-confirmation/${early.ownerId}`);
    await main(page).getByText(early.bookingNumber).waitFor();
    expect(await listedTimes(page)).toEqual(['08:00-09:00']);
    await main(page)
      .getByRole('button', { name: /^Verschieben / })
      .click();
    const move = dialog(page);
    await move.getByRole('heading', { name: 'Termin verschieben' }).waitFor();
    // Only slots with a free seat, not the ticket's own: 10:00 and 14:00, not the full 12:00.
    const options = move.getByLabel('Neuer Termin im selben Raum').locator('option');
    await expect
      .poll(() => options.allTextContents())
      .toEqual([expect.stringContaining('10:00-11:00'), expect.stringContaining('14:00-15:00')]);
    await expectAccessible(page, 'move dialog (de)');
    await move.getByLabel('Neuer Termin im selben Raum').selectOption({ index: 1 });
    await move.getByRole('button', { name: 'Termin verschieben' }).click();
    await main(page).getByText('Ihr Termin wurde verschoben.', { exact: false }).waitFor();
    await expect.poll(() => listedTimes(page)).toEqual(['14:00-15:00']);
    // The booking number stays; the cancelled old ticket is listed as such.
    await main(page).getByText(early.bookingNumber).waitFor();
    await main(page).getByRole('heading', { name: 'Stornierte Termine' }).waitFor();
    await expectAccessible(page, 'confirmation page after the move (de)');
    expect(watch.errors).toEqual([]);
    await page.context().close();
  });

  it('moves a ticket from my bookings (en, 1280 wide)', async () => {
    const page = await visitorPage(DESKTOP, 'en');
    await page.goto(`${server.baseUrl}/my-bookings`);
    await h1(page, 'My bookings').waitFor();
    await main(page)
      .getByLabel(/^Your e-mail address/)
      .fill('emil@example.at');
    await main(page).getByRole('button', { name: 'Send link' }).click();
    await main(page).getByRole('status').waitFor();
    const link = await mailedPath(server.mailDir, 'emil@example.at', /http\S+\/my-bookings\/\S+/);
    await page.goto(server.baseUrl + link);
    await main(page)
      .getByRole('heading', { name: `Booking ${other.bookingNumber}` })
      .waitFor();
    await main(page)
      .getByRole('button', { name: /^Move / })
      .click();
    const move = dialog(page);
    await move.getByRole('heading', { name: 'Move the appointment' }).waitFor();
    await expect.poll(() => move.locator('option').count()).toBeGreaterThan(0);
    await move.getByLabel('New appointment in the same room').selectOption({ index: 0 });
    await move.getByRole('button', { name: 'Move the appointment' }).click();
    await main(page).getByText('Your appointment was moved.', { exact: false }).waitFor();
    // The first slot with a free seat: 08:00, which the other visitor's move freed.
    await expect.poll(() => listedTimes(page)).toEqual(['08:00-09:00']);
    await main(page)
      .getByRole('heading', { name: `Booking ${other.bookingNumber}` })
      .waitFor();
    await expectAccessible(page, 'my bookings after the move (en)');
    await page.context().close();
  });
});
