// The live occupancy display (`/display/`, data-interface="display") in the
// browser: rooms with their free seats, a booking shown within 10 seconds, one room by
// data-room-id, German and English, accessible on a foyer screen's sizes.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createRoom } from '../support/fixtures.ts';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { visitorBooks } from './staff-ux-support.ts';
import { createSlot, signInAdmin, waitForReadModels } from './test-rooms.ts';
import { serveAs } from './visitor-pages.ts';
import { budget } from '../support/time-budget.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;
let foyerRoom = '';
let firstSlot = '';

const FOYER_ROOM = 'Lesesaal im Foyer';
const QUIET_ROOM = 'Stiller Raum';
const SCREENS = [
  { width: 1280, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const TEXTS = {
  de: { title: 'Freie Plätze jetzt', free: (n: number) => `${n} Plätze frei` },
  en: { title: 'Seats free now', free: (n: number) => `${n} seats free` },
} as const;

const h2 = (hh: number) => `${String(hh).padStart(2, '0')}:00`;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  admin = await signInAdmin(server.baseUrl);
  // Open for visitors from today, so the slot running now can be booked.
  foyerRoom = await createRoom(admin, FOYER_ROOM, { capacity: 5, openStartValue: 0 });
  await createRoom(admin, QUIET_ROOM, { capacity: 3 });
  // The machine's clock is the server's and the browser's: a slot from this hour for two hours
  // (running now) and one after it; late in the evening, the first slot of tomorrow instead.
  const now = new Date();
  const hour = now.getHours();
  if (hour <= 20) {
    firstSlot = await createSlot(admin, foyerRoom, now, h2(hour), h2(hour + 2), 5);
    await createSlot(admin, foyerRoom, now, h2(hour + 2), h2(hour + 3), 4);
  } else {
    const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    firstSlot = await createSlot(admin, foyerRoom, tomorrow, '09:00', '11:00', 5);
  }
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** The panel of a room on the display, by its name. */
const panel = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('the occupancy display', () => {
  it('shows every room with its free seats, without navigation, and a booking within 10 seconds', async () => {
    const page = await openPage(browser, SCREENS[1]);
    const watched = watchPage(page);
    await page.goto(`${server.baseUrl}/display/`);
    await page.getByRole('heading', { level: 1, name: TEXTS.de.title }).waitFor();
    await panel(page, QUIET_ROOM).waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      FOYER_ROOM,
      QUIET_ROOM,
    ]);
    const foyer = panel(page, FOYER_ROOM);
    await foyer.getByText(TEXTS.de.free(5)).first().waitFor();
    // A long room name breaks at a syllable with a hyphen, by the rules of the page's language.
    expect(
      await foyer.getByRole('heading', { level: 2 }).evaluate((el) => ({
        hyphens: getComputedStyle(el).hyphens,
        lang: el.closest('[lang]')?.getAttribute('lang'),
      })),
    ).toEqual({ hyphens: 'auto', lang: 'de' });
    // A room without slots says so in words.
    await panel(page, QUIET_ROOM).getByText('Heute keine weiteren Termine').waitFor();
    // A kiosk: nothing to click.
    expect(await page.getByRole('link').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    // Readable from three metres: the number of free seats now in large type on a full-HD screen.
    if (new Date().getHours() <= 20) {
      const size = await foyer
        .locator('.display-seats--large .display-seats__count')
        .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(64);
    }

    await visitorBooks(
      server.baseUrl,
      { firstName: 'Dora', lastName: 'Displaytest', email: 'dora.display@example.org' },
      [firstSlot],
    );
    const booked = Date.now();
    await expect
      .poll(() => foyer.getByText(TEXTS.de.free(4)).count(), {
        timeout: budget(10_000),
        interval: 200,
      })
      .toBeGreaterThan(0);
    expect(Date.now() - booked).toBeLessThan(10_000);
    // No personal data on the screen.
    expect(await page.locator('body').innerText()).not.toContain('Displaytest');
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it.each(['de', 'en'] as const)(
    'shows one room by data-room-id (%s), accessible on 1280×900 and 1920×1080',
    async (lang) => {
      for (const screen of SCREENS) {
        const label = `display ${lang} ${screen.width}×${screen.height}`;
        const page = await openPage(browser, screen);
        await serveAs(page, lang, { 'data-room-id': foyerRoom });
        await page.goto(`${server.baseUrl}/display/`);
        await page.getByRole('heading', { level: 1, name: TEXTS[lang].title }).waitFor();
        await panel(page, FOYER_ROOM).waitFor();
        expect(await page.getByRole('heading', { level: 2 }).allTextContents(), label).toEqual([
          FOYER_ROOM,
        ]);
        await panel(page, FOYER_ROOM).getByText(TEXTS[lang].free(4)).first().waitFor();
        expect(await page.title(), label).toContain(TEXTS[lang].title);
        await expectAccessible(page, label);
        await page.context().close();
      }
    },
  );

  it('says so when the room of data-room-id is not known', async () => {
    const page = await openPage(browser, SCREENS[0]);
    await serveAs(page, 'de', { 'data-room-id': '00000000-0000-4000-8000-000000000000' });
    await page.goto(`${server.baseUrl}/display/`);
    await page.getByRole('alert').getByText('Dieser Lesesaal ist nicht bekannt.').waitFor();
    await expectAccessible(page, 'display, unknown room');
    await page.context().close();
  });
});
