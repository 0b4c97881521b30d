import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createRoom } from '../support/fixtures.ts';
import {
  E2E_ADMIN,
  expectAccessible,
  LANGS,
  launchBrowser,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { openStaffPage, SIGN_IN, VIEWPORTS } from './staff-ux-support.ts';
import { h1, main } from './visitor-pages.ts';

/**
 * The staff app of an admin of one site (`admin@jura`, docs/product.md#roles): the navigation
 * leaves out the library-wide screens, the rooms and sites lists show her site only, the sites
 * list offers neither add nor delete, and the room form offers her site only, chosen for a new
 * room, which joins it; at 375 and 1280 px, in German and English, axe clean.
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

const TEXTS = {
  de: {
    rooms: 'Räume',
    libraryWide: ['Sperrliste', 'Personalkonten', 'Schnittstellen'],
    addSite: 'Standort anlegen',
    delete: /^Löschen/,
    addRoom: 'Raum hinzufügen',
    site: /^Standort/,
    name: /^Name/,
    description: /^Beschreibung/,
    capacity: /^Kapazität/,
    createRoom: 'Raum anlegen',
  },
  en: {
    rooms: 'Rooms',
    libraryWide: ['Blacklist', 'Staff accounts', 'Integrations'],
    addSite: 'Add site',
    delete: /^Delete/,
    addRoom: 'Add a room',
    site: /^Site/,
    name: /^Name/,
    description: /^Description/,
    capacity: /^Capacity/,
    createRoom: 'Create room',
  },
} as const;

describe('an admin of one site in the staff app', () => {
  for (const lang of LANGS)
    for (const viewport of VIEWPORTS)
      it(`sees her site’s screens and rooms only, and makes rooms in her site (${lang}, ${viewport.width} px)`, async () => {
        const t = TEXTS[lang];
        const page = await openStaffPage(browser, viewport, lang);
        const log = watchPage(page);
        try {
          await page.goto(`${server.baseUrl}/admin/`);
          await h1(page, SIGN_IN[lang].title).waitFor();
          await page.getByLabel(SIGN_IN[lang].username).fill('jura-leitung');
          await page.getByLabel(SIGN_IN[lang].password).fill('jura-password-12');
          await page.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }).click();
          const nav = page.getByRole('navigation').first();
          await nav.getByRole('link', { name: t.rooms, exact: true }).waitFor();
          for (const screen of t.libraryWide)
            expect(await nav.getByRole('link', { name: screen, exact: true }).count(), screen).toBe(
              0,
            );
          await expectAccessible(page, `branch admin's start (${lang}, ${viewport.width} px)`);

          await page.goto(`${server.baseUrl}/admin/rooms`);
          await main(page).getByText('Lesesaal Jura').first().waitFor();
          expect(await main(page).getByText('Lesesaal Haupthaus').count()).toBe(0);
          await expectAccessible(page, `branch admin's rooms (${lang}, ${viewport.width} px)`);

          await page.goto(`${server.baseUrl}/admin/sites`);
          await main(page).getByRole('cell', { name: 'jura', exact: true }).waitFor();
          expect(
            await main(page).getByRole('cell', { name: 'bibliothek', exact: true }).count(),
          ).toBe(0);
          expect(await main(page).getByRole('link', { name: t.addSite }).count()).toBe(0);
          expect(await main(page).getByRole('button', { name: t.delete }).count()).toBe(0);
          await expectAccessible(page, `branch admin's sites (${lang}, ${viewport.width} px)`);

          // The room form offers her site only, chosen already: the room joins it.
          await page.goto(`${server.baseUrl}/admin/room-add`);
          await h1(page, t.addRoom).waitFor();
          const siteSelect = page.getByLabel(t.site);
          await siteSelect.waitFor();
          expect(await siteSelect.locator('option').allTextContents()).toEqual([
            'Fachbibliothek Jura',
          ]);
          await expect.poll(() => siteSelect.inputValue()).toBe(juraId);
          await expectAccessible(page, `branch admin's room form (${lang}, ${viewport.width} px)`);
          const name = `Gruppenraum Jura ${lang} ${viewport.width}`;
          await page.getByLabel(t.name).fill(name);
          await page.getByLabel(t.description).fill('Sechs Plätze an einem großen Tisch');
          await page.getByLabel(t.capacity).fill('6');
          // Saved: a room without her site would have joined the first site, which is refused.
          await main(page).getByRole('button', { name: t.createRoom }).click();
          await h1(page, t.rooms).waitFor();
          await main(page).getByText(name).first().waitFor();
          expect(log.errors).toEqual([]);
        } finally {
          await page.context().close();
        }
      });
});
