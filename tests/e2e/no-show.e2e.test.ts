import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../support/fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import type { Client } from '../support/app.ts';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { bookAsVisitor, createWholeDaySlot, signInAdmin } from './test-rooms.ts';
import { middayZone } from './dates.ts';
import { budget } from '../support/time-budget.ts';

/**
 * No-show release as staff see it in Chromium: a room with check-in whose no-shows are
 * released one minute after the start; two readers book today's slot (00:00-23:59 in a library
 * zone where the test starts about noon, so the release minute has passed) and never check in.
 * The job releases both; the reservations list marks them and counts each reader's no-shows, and
 * the occupancy report has the no-show column and total (German, 1280×900, axe).
 */
const ROOM = 'No-Show-Lesesaal';
const ZONE = middayZone();
const readers = [
  { firstName: 'Dora', lastName: 'Dorner', email: 'dora@example.at' },
  { firstName: 'Emil', lastName: 'Egger', email: 'emil@example.at' },
];

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { NO_SHOW_JOB_INTERVAL_MS: '300', TIME_ZONE: ZONE });
  browser = await launchBrowser();
  admin = await signInAdmin(server.baseUrl);
  const roomId = await createRoom(admin, ROOM, { openStartValue: 0 });
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440, noShowReleaseMinutes: 1 },
  });
  expect(services.status).toBe(200);
  const slotId = await createWholeDaySlot(admin, roomId, ZONE, 10);
  for (const reader of readers) await bookAsVisitor(server.baseUrl, [slotId], reader);
  // The job releases both (actor system) within a few rounds.
  const released = async () => {
    const res = await admin.get('/api/admin/tickets?status=NO_SHOW&limit=10');
    return ((await res.json()) as { totalCount: number }).totalCount;
  };
  const deadline = Date.now() + budget(20_000);
  while ((await released()) < readers.length && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  expect(await released()).toBe(readers.length);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const main = (page: Page) => page.getByRole('main');

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await page.getByLabel('Benutzername').fill('admin');
  await page.getByLabel('Passwort').fill('e2e-admin-password');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).waitFor();
}

describe('no-show release (staff view)', () => {
  it('the reservations list marks released tickets and counts each reader’s no-shows', async () => {
    const page = await openPage(browser, { width: 1280, height: 900 });
    const log = watchPage(page);
    await signIn(page);
    // The booked tab shows a no-show tab with the count; it lists the released tickets.
    await page.goto(`${server.baseUrl}/admin/reservations`);
    const tabs = page.getByRole('navigation', { name: 'Reservierungen nach Status' });
    await tabs.getByRole('link', { name: 'No-Shows (2)' }).click();
    await main(page).getByText('2 als No-Show freigegebene Reservierungen').waitFor();
    for (const r of readers) {
      const row = main(page)
        .locator('tbody tr')
        .filter({ hasText: `${r.lastName}, ${r.firstName}` });
      await row.getByText('No-Show', { exact: true }).waitFor();
      await row.getByText('1 No-Show dieser Person').waitFor();
    }
    await expectAccessible(page, 'reservations list with no-shows');
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('the occupancy report has the no-show column and total for the room with check-in', async () => {
    const page = await openPage(browser, { width: 1280, height: 900 });
    await signIn(page);
    await page.goto(`${server.baseUrl}/admin/occupancy-report`);
    const table = main(page).getByRole('table');
    await table.getByRole('columnheader', { name: 'No-Shows' }).waitFor();
    // Both tickets of the slot were released: 2 of 2 (100 %).
    await expect
      .poll(() => table.locator('tbody tr').first().innerText(), { timeout: budget(10_000) })
      .toMatch(/2 \(100\s?%\)/);
    const totals = main(page).locator('.occupancy-totals');
    await expect
      .poll(() => totals.innerText(), { timeout: budget(10_000) })
      .toMatch(/No-Shows\s+2 \(100\s?%\)/);
    await expectAccessible(page, 'occupancy report with no-shows');
    await page.context().close();
  });
});
