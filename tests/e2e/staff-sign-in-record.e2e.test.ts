// The staff accounts page in Chromium (German, the staff app's default): a refused sign-in of a
// name no account has shows no name; an admin who types the name finds its record.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, startBrowserTest, type RunningServer } from './harness.ts';
import { openStaffPage, signInAs, VIEWPORTS } from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, browser, stop } = await startBrowserTest());
});

afterAll(() => stop?.());

describe('the record of staff sign-ins on the staff accounts page', () => {
  it('shows a typed name only to an admin who types it', async () => {
    const typed = 'vera.visitor@example.at';
    const refused = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({ username: typed, password: 'my library password' }),
    });
    expect(refused.status).toBe(401);

    const page = await openStaffPage(browser, VIEWPORTS[1], 'de');
    await signInAs(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/admin/staff-accounts`);
    const record = page.getByRole('region', { name: /Letzte Anmeldungen/ });
    const unknown = record.getByRole('row', { name: /\(unbekannt\).*abgelehnt/ });
    await expect.poll(() => unknown.count()).toBe(1);
    await expect.poll(() => record.textContent()).not.toContain(typed);

    await page.getByLabel('Name oder eingegebener Benutzername').fill('Vera.Visitor@Example.at');
    await page.getByRole('button', { name: 'Finden', exact: true }).click();
    const found = record.getByRole('row', { name: /Vera\.Visitor@Example\.at.*abgelehnt/ });
    await expect.poll(() => found.count()).toBe(1);
    await expect.poll(() => record.getByRole('row').count()).toBe(2);
    await expectAccessible(page, 'staff sign-ins of a typed name');

    await page.getByLabel('Name oder eingegebener Benutzername').fill('someone.else@example.at');
    await page.getByRole('button', { name: 'Finden', exact: true }).click();
    await expect
      .poll(() => page.getByText('Keine Anmeldungen von „someone.else@example.at“.').count())
      .toBe(1);
    await page.getByRole('button', { name: 'Alle zeigen', exact: true }).click();
    await expect.poll(() => unknown.count()).toBe(1);
    await page.context().close();
  });
});
