// Staff sign in with an OpenID provider in Chromium (the staff app in German, its default): the sign-in page's button, the provider's
// own login and consent pages (the npm package oidc-provider on loopback), back to the staff
// app signed in with the roles of the person's groups; a person in no mapped group sees the
// permission screen; the admin sees the account on the staff accounts page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { OIDC_CLIENT, startOidcProvider, type TestOidcProvider } from '../support/oidc-servers.ts';
import { freePort } from '../support/ports.ts';
import {
  E2E_ADMIN,
  eventually,
  expectAccessible,
  launchBrowser,
  startServer,
  type RunningServer,
} from './harness.ts';
import { openStaffPage, VIEWPORTS } from './staff-ux-support.ts';

let db: TestDatabase;
let server: RunningServer;
let provider: TestOidcProvider;
let browser: Browser;

beforeAll(async () => {
  db = await createTestDatabase();
  // The app is started knowing the issuer; the provider, started next, knows the app's URL.
  const issuerPort = await freePort();
  server = await startServer(db, {
    OIDC_ISSUER: `http://127.0.0.1:${issuerPort}`,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_LABEL: 'Campus account',
    STAFF_ROLE_MAP: JSON.stringify({ 'reading-room-admins': ['admin'], desk: ['checkin'] }),
  });
  provider = await startOidcProvider(
    server.baseUrl,
    { alice: ['reading-room-admins'], dave: ['students'] },
    issuerPort,
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await server?.stop();
  await db?.drop();
});

/** From the staff app's sign-in page through the provider's pages as `login`. */
async function signInWithProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/rooms`);
  await page.getByRole('link', { name: 'Anmelden mit Campus account' }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  // The consent page of the first sign-in.
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.origin === server.baseUrl);
}

describe('OpenID Connect sign-in in the browser', () => {
  it('shows the button above the form, signs a staff member in, back to the page asked', async () => {
    const page = await openStaffPage(browser, VIEWPORTS[1], 'de');
    await page.goto(`${server.baseUrl}/admin/`);
    await expect
      .poll(() => page.getByRole('link', { name: 'Anmelden mit Campus account' }).count())
      .toBe(1);
    await expectAccessible(page, 'sign-in with a provider button');
    await signInWithProvider(page, 'alice');
    await eventually(() => Promise.resolve(new URL(page.url()).pathname)).toBe('/admin/rooms');
    await expect.poll(() => page.getByRole('heading', { name: 'Räume' }).count()).toBe(1);

    await page.goto(`${server.baseUrl}/admin/staff-accounts`);
    const accounts = page.getByRole('region', { name: 'Personalkonten', exact: true });
    const row = accounts.getByRole('row', { name: /alice/ });
    await expect.poll(() => row.textContent()).toMatch(/OpenID Connect.*Administration/);
    await expect
      .poll(() => accounts.getByRole('row', { name: new RegExp(`^${E2E_ADMIN.username}`) }).count())
      .toBeGreaterThan(0);
    await expectAccessible(page, 'staff accounts');
    await page.context().close();
  });

  it('shows the permission screen to a person in no mapped group, with no session', async () => {
    const page = await openStaffPage(browser, VIEWPORTS[1], 'de');
    await signInWithProvider(page, 'dave');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Keine Berechtigung' }).count())
      .toBe(1);
    await expectAccessible(page, 'permission screen after a refused sign-in');
    const session = (await (await page.request.get(`${server.baseUrl}/api/session`)).json()) as {
      signedIn: boolean;
    };
    expect(session.signedIn).toBe(false);
    await page.getByRole('button', { name: 'Mit einem anderen Konto anmelden' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Anmelden', exact: true }).count())
      .toBe(1);
    await page.context().close();
  });
});
