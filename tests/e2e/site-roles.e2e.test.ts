import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createRoom } from '../support/fixtures.ts';
import { E2E_ADMIN, launchBrowser, startServer, watchPage, type RunningServer } from './harness.ts';
import { DESKTOP, openStaffPage, SIGN_IN } from './staff-ux-support.ts';
import { h1, main } from './visitor-pages.ts';

/**
 * The staff app of an admin of one site (`admin@jura`, docs/product.md#roles): the navigation
 * leaves out the library-wide screens, the rooms and sites lists show her site only, the sites
 * list offers neither add nor delete, and the room form offers her site only, chosen for a new
 * room, which joins it.
 */
let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let juraId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  const admin = new Client(server.baseUrl);
  expect((await admin.login(E2E_ADMIN.username, E2E_ADMIN.password)).status).toBe(200);
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status).toBe(201);
  juraId = ((await site.json()) as { id: string }).id;
  await createRoom(admin, 'Lesesaal Haupthaus');
  await createRoom(admin, 'Lesesaal Jura', { siteId: juraId });
  await addUser(db, 'jura-leitung', 'jura-password-12', ['admin@jura']);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('an admin of one site in the staff app', () => {
  it('sees her site’s screens and rooms only, and makes rooms in her site', async () => {
    const page = await openStaffPage(browser, DESKTOP, 'de');
    const log = watchPage(page);
    try {
      await page.goto(`${server.baseUrl}/admin/`);
      await h1(page, SIGN_IN.de.title).waitFor();
      await page.getByLabel(SIGN_IN.de.username).fill('jura-leitung');
      await page.getByLabel(SIGN_IN.de.password).fill('jura-password-12');
      await page.getByRole('button', { name: SIGN_IN.de.submit, exact: true }).click();
      const nav = page.getByRole('navigation').first();
      await nav.getByRole('link', { name: 'Räume', exact: true }).waitFor();
      for (const screen of ['Sperrliste', 'Personalkonten', 'Schnittstellen'])
        expect(await nav.getByRole('link', { name: screen, exact: true }).count(), screen).toBe(0);

      await page.goto(`${server.baseUrl}/admin/rooms`);
      await main(page).getByText('Lesesaal Jura').first().waitFor();
      expect(await main(page).getByText('Lesesaal Haupthaus').count()).toBe(0);

      await page.goto(`${server.baseUrl}/admin/sites`);
      await main(page).getByRole('cell', { name: 'jura', exact: true }).waitFor();
      expect(await main(page).getByRole('cell', { name: 'bibliothek', exact: true }).count()).toBe(
        0,
      );
      expect(await main(page).getByRole('link', { name: 'Standort anlegen' }).count()).toBe(0);
      expect(
        await main(page)
          .getByRole('button', { name: /^Löschen/ })
          .count(),
      ).toBe(0);

      // The room form offers her site only, chosen already: the room joins it.
      await page.goto(`${server.baseUrl}/admin/room-add`);
      await h1(page, 'Raum hinzufügen').waitFor();
      const siteSelect = page.getByLabel(/^Standort/);
      await siteSelect.waitFor();
      expect(await siteSelect.locator('option').allTextContents()).toEqual(['Fachbibliothek Jura']);
      await expect.poll(() => siteSelect.inputValue()).toBe(juraId);
      await page.getByLabel(/^Name/).fill('Gruppenraum Jura');
      await page.getByLabel(/^Beschreibung/).fill('Sechs Plätze an einem großen Tisch');
      await page.getByLabel(/^Kapazität/).fill('6');
      // Saved: a room without her site would have joined the first site, which is refused.
      await main(page).getByRole('button', { name: 'Raum anlegen' }).click();
      await h1(page, 'Räume').waitFor();
      await main(page).getByText('Gruppenraum Jura').first().waitFor();
      expect(log.errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
