import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@rr/identity';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { makePng } from '../support/images.ts';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
  reloadUntilVisible,
} from './harness.ts';
import { createTestRooms, SECOND_ROOM, TEST_ROOM_NAMES } from './test-rooms.ts';
import { acceptPrivacy, roomNames } from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let tmp: string;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  // The rooms staff created before the visitor comes (no demo seed).
  await createTestRooms(server.baseUrl);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rr-e2e-'));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
  await rm(tmp, { recursive: true, force: true });
});

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort').fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

describe('rooms, end to end in Chromium', () => {
  it('the visitor sees the rooms staff created; an admin adds a room; the visitor sees it without a server restart', async () => {
    const visitor = await openPage(browser);
    const visitorLog = watchPage(visitor);
    await visitor.goto(`${server.baseUrl}/`);
    await visitor
      .getByRole('dialog')
      .or(visitor.getByRole('heading', { name: 'Datenschutzhinweis' }))
      .first()
      .waitFor();
    await expectAccessible(visitor, 'privacy overlay');
    // Confirming without the tick refuses and focuses the checkbox.
    await visitor.getByRole('button', { name: 'Bestätigen und weiter' }).click();
    await visitor
      .getByText('Bitte bestätigen Sie, dass Sie den Datenschutzhinweis gelesen haben.')
      .waitFor();
    expect(
      await visitor.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type),
    ).toBe('checkbox');
    await acceptPrivacy(visitor);
    await visitor.getByRole('heading', { name: TEST_ROOM_NAMES[0] }).waitFor();
    expect(await roomNames(visitor)).toEqual(TEST_ROOM_NAMES);
    await expectAccessible(visitor, 'room chooser');
    // The acceptance lives in the browser session: a reload does not ask again.
    await visitor.goto(`${server.baseUrl}/?reset=y`);
    await visitor
      .getByText('Ihr Warenkorb wurde zurückgesetzt. Sie können neu beginnen.')
      .waitFor();
    await expectAccessible(visitor, 'room chooser with the reset notice');

    const admin = await openPage(browser);
    const adminLog = watchPage(admin);
    await signIn(admin, 'admin', 'wrong password');
    await admin.getByRole('alert').first().waitFor();
    await expectAccessible(admin, 'sign-in with an error');
    await admin.getByLabel('Passwort').fill('e2e-admin-password');
    await admin.getByRole('button', { name: 'Anmelden' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Verwaltung' }).waitFor();
    await expectAccessible(admin, 'dashboard');

    await admin.getByRole('link', { name: 'Räume' }).first().click();
    await admin.getByRole('heading', { level: 1, name: 'Räume' }).waitFor();
    await admin.getByRole('heading', { name: SECOND_ROOM }).waitFor();
    await expectAccessible(admin, 'room list');
    await admin.getByRole('button', { name: 'Reihenfolge ändern' }).click();
    await admin.getByRole('button', { name: 'Nach oben' }).first().waitFor();
    await expectAccessible(admin, 'room list in sort mode');
    await admin.getByRole('button', { name: 'Sortieren beenden' }).last().click();

    await admin.getByRole('link', { name: 'Raum hinzufügen' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Raum hinzufügen' }).waitFor();
    await expectAccessible(admin, 'room add');
    // Validation before submit moves focus to the first invalid control.
    await admin.getByRole('button', { name: 'Raum anlegen' }).click();
    expect(
      await admin.evaluate(
        () => document.activeElement?.getAttribute('name') ?? document.activeElement?.id,
      ),
    ).toMatch(/name/i);
    await expectAccessible(admin, 'room add with errors');
    await admin.getByLabel(/^Name/).fill('Kartensaal');
    await admin.getByLabel(/^Beschreibung/).fill('Historische Karten und Atlanten');
    await admin.getByLabel(/^Kapazität/).fill('8');
    await admin.getByRole('button', { name: 'Raum anlegen' }).click();
    await admin.getByText('Der Raum „Kartensaal“ wurde angelegt.').waitFor();

    await reloadUntilVisible(visitor, visitor.getByRole('heading', { name: 'Kartensaal' }));
    expect(await roomNames(visitor)).toContain('Kartensaal');

    // Room edit: the delete step asks for confirmation.
    await admin.goto(`${server.baseUrl}/admin/rooms`);
    const row = admin.getByRole('listitem').filter({ hasText: 'Kartensaal' });
    await row
      .getByRole('link', { name: /Bearbeiten/ })
      .first()
      .click();
    await admin.getByRole('heading', { level: 1, name: 'Raum bearbeiten' }).waitFor();
    await expectAccessible(admin, 'room edit');
    await admin.getByRole('button', { name: 'Raum löschen' }).click();
    await admin.getByRole('button', { name: 'Ja, Raum löschen' }).waitFor();
    await expectAccessible(admin, 'room delete confirmation');
    await admin.getByRole('button', { name: 'Abbrechen' }).click();

    // Room image: a real PNG with alt text, shown to the visitor.
    await admin.getByRole('link', { name: 'Bild bearbeiten' }).first().click();
    await admin.getByRole('heading', { level: 1, name: 'Raumbild bearbeiten' }).waitFor();
    await expectAccessible(admin, 'room image edit');
    const png = path.join(tmp, 'kartensaal.png');
    await writeFile(png, makePng(64, 48));
    await admin.getByLabel(/^Bilddatei/).setInputFiles(png);
    await admin.getByLabel(/^Alternativtext/).fill('Lange Tische mit ausgebreiteten Landkarten');
    await admin.getByRole('button', { name: 'Bild speichern' }).click();
    await admin.getByText('Das Bild von „Kartensaal“ wurde gespeichert.').waitFor();
    const img = visitor.getByRole('img', { name: 'Lange Tische mit ausgebreiteten Landkarten' });
    await reloadUntilVisible(visitor, img);
    // The room chooser loads its pictures lazily: the picture loads once it is scrolled to, and a
    // visible <img> may still be loading, so the test scrolls to it and waits for the decoded width.
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 15_000 })
      .toBe(64);

    expect(visitorLog.errors).toEqual([]);
    // The only console errors allowed on the admin page are the refused sign-in and the first /me check (401).
    expect(adminLog.errors.filter((e) => !/401/.test(e))).toEqual([]);
  });

  it('serves the built app under a strict CSP it satisfies: no inline script', async () => {
    for (const path of ['/', '/admin/']) {
      const res = await fetch(`${server.baseUrl}${path}`);
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
      const html = await res.text();
      expect(html).toMatch(/<script[^>]*\bsrc=/);
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\son[a-z]+=/i);
    }
  });

  it('a signed-in user without a role sees only the permission message', async () => {
    await createUser(db.pool, 'visitor-desk', 'no roles at all', []);
    const page = await openPage(browser);
    await signIn(page, 'visitor-desk', 'no roles at all');
    await page
      .getByText('Sie haben keine Berechtigung, das Reservierungssystem zu verwalten.')
      .waitFor();
    expect(await page.getByRole('link', { name: 'Räume' }).count()).toBe(0);
    await expectAccessible(page, 'permission error');
  });

  it('the room chooser fits a 375 px wide phone screen', async () => {
    const page = await openPage(browser, { width: 375, height: 740 });
    await acceptPrivacy(page, server.baseUrl);
    await page.getByRole('heading', { name: SECOND_ROOM }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await expectAccessible(page, 'room chooser at 375 px');
    await page.context().close();
  });
});
