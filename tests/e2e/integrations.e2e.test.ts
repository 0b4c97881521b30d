// The integrations screen in the browser (English): an API token made, its secret shown once and
// working, revoked; a webhook refused for an internal address, added with its secret, paused,
// its deliveries, deleted.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  eventually,
  launchBrowser,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { DESKTOP, openStaffPage, signInAs } from './staff-ux-support.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let page: Page;
let log: { errors: string[] };

// Only 127.0.0.1 is exempt from the address check; port 9 has no listener (nothing is sent:
// the webhook takes bookings and none is made).
const HOOK_URL = 'https://127.0.0.1:9/hooks';

const main = () => page.getByRole('main');
const h1 = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const api = (path: string, secret: string) =>
  fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${secret}` } });

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  browser = await launchBrowser();
  page = await openStaffPage(browser, DESKTOP, 'en');
  log = watchPage(page);
  await signInAs(page, server.baseUrl, 'en');
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('the integrations screen', () => {
  it('makes an API token whose secret is shown once and works, and revokes it', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Integrations' }).click();
    await h1('Integrations').waitFor();

    // Without a name and a role the form says so and keeps focus on the first field.
    await main().getByRole('button', { name: 'Create token' }).click();
    await main().locator('.field__error').first().waitFor();
    await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe('token-name');

    await page.locator('#token-name').fill('Door counter');
    await main().getByLabel('Reports').check();
    await main().getByRole('button', { name: 'Create token' }).click();
    const secret = await page.locator('#token-secret').inputValue();
    expect(secret).toMatch(/^rr_[A-Za-z0-9_-]{43}$/);
    await expect
      .poll(() => main().locator('table tbody tr').first().innerText())
      .toContain('Door counter');
    expect((await api('/api/admin/rooms', secret)).status).toBe(200);
    // The list never shows it again.
    await page.reload();
    await h1('Integrations').waitFor();
    await main().getByText('Door counter').first().waitFor();
    expect(await page.content()).not.toContain(secret);

    await main().getByRole('button', { name: 'Revoke Door counter' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, revoke the token' }).click();
    await main().getByText('There are no tokens.').waitFor();
    expect((await api('/api/admin/rooms', secret)).status).toBe(401);
  });

  it('refuses an internal URL, adds a webhook with its secret, pauses it, shows its deliveries and deletes it', async () => {
    await main().getByRole('link', { name: 'Add a webhook' }).click();
    await h1('Add a webhook').waitFor();
    await page.locator('#webhook-url').fill('https://127.0.0.2/hooks');
    await main().getByLabel('Booking made (booking.created)').check();
    await main().getByRole('button', { name: 'Add webhook' }).click();
    await main().getByText('This URL points into an internal network').waitFor();

    await page.locator('#webhook-url').fill(HOOK_URL);
    await main().getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.locator('#webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await main().getByRole('link', { name: 'Back to the integrations' }).click();
    await h1('Integrations').waitFor();
    const row = main().locator('table tbody tr', { hasText: HOOK_URL });
    await expect.poll(() => row.innerText()).toContain('Active');

    await row.getByRole('link', { name: `Edit ${HOOK_URL}` }).click();
    await h1('Edit webhook').waitFor();
    await main().getByLabel('Active').uncheck();
    await main().getByRole('button', { name: 'Save' }).click();
    await h1('Integrations').waitFor();
    await expect.poll(() => row.innerText()).toContain('Paused by staff');

    await row.getByRole('link', { name: `Deliveries ${HOOK_URL}` }).click();
    await h1('Webhook deliveries').waitFor();
    await main().getByText('Paused by staff').waitFor();
    await main().getByText('Nothing delivered yet.').waitFor();

    await main().getByRole('link', { name: 'Back to the integrations' }).click();
    await row.getByRole('link', { name: `Edit ${HOOK_URL}` }).click();
    await h1('Edit webhook').waitFor();
    await main().getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete the webhook' }).click();
    await h1('Integrations').waitFor();
    await main().getByText('There are no webhooks.').waitFor();
    // The refused URL's 400 is the only failure the console saw.
    expect(log.errors.filter((e) => !e.includes('400'))).toEqual([]);
  });
});
