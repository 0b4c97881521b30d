// "Anmelden mit Uni-Konto" while the OpenID provider does not answer (nothing listens at its
// issuer): at 375, 768 and 1280 px, in German and English, the browser in UTC, the staff app's
// own page says so and what to do (try again; sign in with the form), axe clean, never an error
// of the API; the form still signs a local account in. Then the provider is started and the same
// button signs in.
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
import { LIBRARY_ZONE } from './dates.ts';
import { openStaffPage, SIGN_IN, type Lang } from './staff-ux-support.ts';

const VIEWPORTS = [
  { width: 375, height: 740 },
  { width: 768, height: 1024 },
  { width: 1280, height: 900 },
] as const;
const RUNS = VIEWPORTS.flatMap((viewport) =>
  (['de', 'en'] as const).map((lang) => ({ viewport, lang })),
);
const LABEL = 'Uni-Konto';

const TEXTS = {
  de: {
    button: `Anmelden mit ${LABEL}`,
    title: `Anmelden mit ${LABEL} gerade nicht möglich`,
    message: `Der Anmeldedienst für „${LABEL}“ antwortet gerade nicht, deshalb konnten Sie nicht angemeldet werden.`,
    later: 'Bitte versuchen Sie es in einigen Minuten erneut.',
    retry: 'Erneut versuchen',
    password:
      'Mit einem Konto der Bibliothek können Sie sich unten mit Benutzername und Passwort anmelden.',
    rooms: 'Räume',
  },
  en: {
    button: `Sign in with ${LABEL}`,
    title: `Signing in with ${LABEL} is not possible right now`,
    message: `The sign-in service for “${LABEL}” is not answering, so you could not be signed in.`,
    later: 'Please try again in a few minutes.',
    retry: 'Try again',
    password:
      'With an account of the library you can sign in below with your username and password.',
    rooms: 'Rooms',
  },
} as const;

let db: TestDatabase;
let server: RunningServer;
let issuerPort: number;
let provider: TestOidcProvider | null = null;
let browser: Browser;

beforeAll(async () => {
  db = await createTestDatabase();
  // Nothing listens at the issuer: the provider is down.
  issuerPort = await freePort();
  server = await startServer(db, {
    TIME_ZONE: LIBRARY_ZONE,
    OIDC_ISSUER: `http://127.0.0.1:${issuerPort}`,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_LABEL: LABEL,
    STAFF_ROLE_MAP: JSON.stringify({ 'reading-room-admins': ['admin'] }),
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await server?.stop();
  await db?.drop();
});

/**
 * Follows the app's redirect back from the sign-in's start. The harness serves the staff app in
 * English by rewriting the document it loads, which Playwright does not do for a redirect's
 * target: an English page is loaded again at the address the redirect led to.
 */
async function backFromProvider(page: Page, lang: Lang) {
  await page.waitForURL((url) => url.searchParams.get('signIn') === 'unavailable-oidc');
  if (lang !== 'de') await page.reload();
}

/** The sign-in page of the staff app, reached by the rooms page (where it returns to). */
async function openSignIn(page: Page, lang: Lang) {
  await page.goto(`${server.baseUrl}/admin/rooms`);
  await page.getByRole('heading', { level: 1, name: SIGN_IN[lang].title, exact: true }).waitFor();
}

describe('a campus sign-in while the provider is down', () => {
  for (const { viewport, lang } of RUNS) {
    it(`shows the staff app's page with what to do, and the form signs in (${lang}, ${viewport.width} px)`, async () => {
      const label = `${lang} ${viewport.width}`;
      const texts = TEXTS[lang];
      const page = await openStaffPage(browser, viewport, lang, 'UTC');
      const answers: number[] = [];
      page.on('response', (r) => {
        if (r.request().isNavigationRequest()) answers.push(r.status());
      });
      await openSignIn(page, lang);
      await page.getByRole('link', { name: texts.button }).click();
      await backFromProvider(page, lang);
      await page.getByRole('heading', { level: 1, name: texts.title }).waitFor();
      // The browser never showed an error of the API: only redirects and the staff app's page.
      expect(
        answers.filter((status) => status >= 400),
        label,
      ).toEqual([]);
      const url = new URL(page.url());
      expect(url.pathname, label).toBe('/admin/rooms');
      expect(url.searchParams.get('signIn'), label).toBe('unavailable-oidc');
      const alert = page.getByRole('alert');
      await alert.getByText(texts.message).waitFor();
      await alert.getByText(texts.later, { exact: false }).waitFor();
      await alert.getByText(texts.password).waitFor();
      const retry = alert.getByRole('link', { name: texts.retry });
      expect(await retry.getAttribute('href'), label).toContain('auth/oidc/start?returnTo=');
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
        label,
      ).toBeLessThanOrEqual(0);
      await expectAccessible(page, `provider down (${label})`);

      // Trying again while it is still down comes back to the same page.
      await page.evaluate(() => window.history.replaceState(null, '', '/admin/rooms'));
      await retry.click();
      await backFromProvider(page, lang);
      await page.getByRole('heading', { level: 1, name: texts.title }).waitFor();
      expect(
        answers.filter((status) => status >= 400),
        label,
      ).toEqual([]);

      // The form below signs a local account in, back to the page asked.
      await page.getByLabel(SIGN_IN[lang].username).fill(E2E_ADMIN.username);
      await page.getByLabel(SIGN_IN[lang].password).fill(E2E_ADMIN.password);
      await page.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: texts.rooms, exact: true }).waitFor();
      await page.context().close();
    });
  }

  it('signs in with the same button once the provider answers again', async () => {
    provider = await startOidcProvider(
      server.baseUrl,
      { alice: ['reading-room-admins'] },
      issuerPort,
    );
    const page = await openStaffPage(browser, VIEWPORTS[2], 'de', 'UTC');
    await openSignIn(page, 'de');
    await page.getByRole('link', { name: TEXTS.de.button }).click();
    await page.waitForURL((url) => url.origin === provider!.issuer);
    await page.locator('input[name="login"]').fill('alice');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.origin === server.baseUrl);
    await eventually(() => Promise.resolve(new URL(page.url()).pathname)).toBe('/admin/rooms');
    await page.getByRole('heading', { level: 1, name: 'Räume', exact: true }).waitFor();
    await page.context().close();
  });
});
