import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { addUser, Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import {
  E2E_ADMIN,
  expectAccessible,
  launchBrowser,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { DESKTOP, openStaffPage, SIGN_IN } from './staff-ux-support.ts';
import { h1, main } from './visitor-pages.ts';

/**
 * A holiday of one site (docs/product.md#sites) added by the admin of that site (`admin@jura`):
 * the form offers her site only, the closure dialog after it counts her site's rooms only, and
 * closing closes them but not the other site's; the holiday list names the site. At 1280×900,
 * German and English, axe clean.
 */
let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;
let juraId: string;
let mainRoom: string;
let juraRoom: string;

const TEXTS = {
  de: {
    add: 'Feiertag hinzufügen',
    submit: 'Feiertag anlegen',
    site: /^Standort/,
    title: 'Zeitfenster schließen?',
    counts: /1 Zeitfenster/,
    confirm: 'Zeitfenster schließen',
    list: 'Feiertage',
    closures: 'Raum schließen',
  },
  en: {
    add: 'Add a holiday',
    submit: 'Create holiday',
    site: /^Site/,
    title: 'Close the time slots?',
    counts: /1 time slot\b/,
    confirm: 'Close the time slots',
    list: 'Holidays',
    closures: 'Close a room',
  },
} as const;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  admin = new Client(server.baseUrl);
  expect((await admin.login(E2E_ADMIN.username, E2E_ADMIN.password)).status).toBe(200);
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status).toBe(201);
  juraId = ((await site.json()) as { id: string }).id;
  mainRoom = await createRoom(admin, 'Lesesaal Haupthaus', OPEN_FROM_TODAY);
  juraRoom = await createRoom(admin, 'Lesesaal Jura', { ...OPEN_FROM_TODAY, siteId: juraId });
  await addUser(db, 'jura-leitung', 'jura-password-12', ['admin@jura']);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** Whether the slot is closed, read by the all-sites admin. */
async function closedReason(roomId: string, day: string, slotId: string) {
  const res = await admin.get(
    `/api/admin/rooms/${roomId}/timeslots?fromDate=${day}&untilDate=${day}`,
  );
  const page = (await res.json()) as { content: { id: string; closedReason: string | null }[] };
  return page.content.find((s) => s.id === slotId)?.closedReason ?? null;
}

describe('the admin of a branch adds a holiday of her site', () => {
  for (const [n, lang] of (['de', 'en'] as const).entries()) {
    it(`offers her site, closes her site's rooms only and lists the site (${lang})`, async () => {
      const t = TEXTS[lang];
      const day = addDays(new Date().toISOString().slice(0, 10), 40 + n * 7);
      const name = `Fakultätstag ${n + 1}`;
      const mainSlot = await createSlot(admin, mainRoom, day, '10:00', '12:00', 5);
      const juraSlot = await createSlot(admin, juraRoom, day, '10:00', '12:00', 5);

      const page = await openStaffPage(browser, DESKTOP, lang);
      const log = watchPage(page);
      try {
        await page.goto(`${server.baseUrl}/admin/`);
        await h1(page, SIGN_IN[lang].title).waitFor();
        await page.getByLabel(SIGN_IN[lang].username).fill('jura-leitung');
        await page.getByLabel(SIGN_IN[lang].password).fill('jura-password-12');
        await page.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }).click();
        // The closures screen is hers too now.
        const nav = page.getByRole('navigation').first();
        await nav.getByRole('link', { name: t.closures, exact: true }).waitFor();

        // Her sites are held back a while: until they come there is nothing to choose.
        let releaseSites = () => {};
        const sitesHeld = new Promise<void>((resolve) => (releaseSites = resolve));
        await page.route('**/api/admin/sites', async (route) => {
          await sitesHeld;
          await route.continue();
        });
        await page.goto(`${server.baseUrl}/admin/holiday-add`);
        await h1(page, t.add).waitFor();
        const siteSelect = main(page).getByLabel(t.site);
        await siteSelect.waitFor();
        expect(await siteSelect.isDisabled()).toBe(true);
        releaseSites();
        // Her site only: no "all sites", no other site.
        await expect
          .poll(() => siteSelect.locator('option').allTextContents())
          .toEqual(['Fachbibliothek Jura']);
        expect(await siteSelect.isEnabled()).toBe(true);
        await expect.poll(() => siteSelect.inputValue()).toBe(juraId);
        await expectAccessible(page, `holiday form of a branch admin (${lang})`);
        await page.locator('#holiday-name').fill(name);
        await page.locator('#holiday-date').fill(day);
        await main(page).getByRole('button', { name: t.submit, exact: true }).click();

        // The closure dialog counts her site's slot only (the other site's is not offered).
        const ask = page.getByRole('dialog');
        await ask.getByRole('heading', { name: t.title }).waitFor();
        await ask.getByText(t.counts).waitFor();
        await expectAccessible(page, `closure dialog of a site holiday (${lang})`);
        await ask.getByRole('button', { name: t.confirm, exact: true }).click();
        await h1(page, t.list).waitFor();
        await main(page).getByRole('cell', { name, exact: true }).waitFor();
        expect(
          await main(page)
            .getByRole('row')
            .filter({ hasText: name })
            .getByRole('cell', { name: 'Fachbibliothek Jura', exact: true })
            .count(),
        ).toBe(1);
        await expectAccessible(page, `holiday list with sites (${lang})`);

        await expect.poll(() => closedReason(juraRoom, day, juraSlot)).toBe(name);
        expect(await closedReason(mainRoom, day, mainSlot)).toBeNull();
        expect(log.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});
