// Screenshots of the visitor's phone flow (375×740) for docs/screens, into SCREENS_DIR
// (e.g. `SCREENS_DIR=docs/screens/after npm run test:e2e -- visitor-ux-screens`); without it into
// a temporary folder, as a smoke test of the phone flow (the test runner counts a skipped test as
// a failure, so it always runs).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';
import { longDate, weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import { acceptPrivacy, dayButton, dialog, h1, main, showMonthOf } from './visitor-pages.ts';

let dir = process.env.SCREENS_DIR ?? '';
const temporary = dir === '';
const [day] = weekdaysAhead(1) as [Date];

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(dir, `${name}.png`) });

describe('phone flow screenshots', () => {
  beforeAll(async () => {
    if (temporary) dir = await mkdtemp(path.join(os.tmpdir(), 'rr-screens-'));
    await mkdir(dir, { recursive: true });
    db = await createTestDatabase();
    server = await startServer(db);
    browser = await launchBrowser();
    const { admin, idOf } = await createTestRooms(server.baseUrl);
    await createSlot(admin, idOf(FIRST_ROOM), day, '09:00', '12:00', 4);
    await createSlot(admin, idOf(FIRST_ROOM), day, '13:00', '17:00', 4);
    await waitForReadModels(admin);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await db?.drop();
    if (temporary && dir) await rm(dir, { recursive: true, force: true });
  });

  it('takes the five screens', async () => {
    const page = await openPage(browser, { width: 375, height: 740 });
    await acceptPrivacy(page, server.baseUrl);
    await shot(page, '1-room-chooser');
    await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
    await h1(page, FIRST_ROOM).waitFor();
    await showMonthOf(page, day);
    await dayButton(page, day).click();
    await dialog(page).getByRole('button', { name: 'Reservieren 13:00-17:00' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    await page
      .getByText(`${longDate(day)}, 13:00-17:00`)
      .first()
      .waitFor();
    // The way on below the month, once the cart has the slot.
    await page.getByRole('link', { name: 'Weiter mit 1 gewähltem Termin' }).waitFor();
    if (!temporary) await page.waitForTimeout(11_000); // the info popups are gone
    await shot(page, '2-room-slot-added');
    await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
    await h1(page, 'Ihr Warenkorb').waitFor();
    await shot(page, '3-cart');
    await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
    await h1(page, 'Ihre Daten').waitFor();
    await page.getByLabel(/^Vorname/).fill('Erika');
    await page.getByLabel(/^Nachname/).fill('Muster');
    await page.getByLabel(/^E-Mail-Adresse/).fill('erika@example.at');
    await page.getByLabel(/^Telefonnummer/).fill('+431234');
    await shot(page, '4-personal-data');
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    await h1(page, 'Zusammenfassung').waitFor();
    await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();
    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
    if (!temporary) await page.waitForTimeout(11_000); // the info popups are gone
    await shot(page, '5-confirmation');
    await page.context().close();
  });
});
