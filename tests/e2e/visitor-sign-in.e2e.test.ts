import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import {
  startVisitorOidcProvider,
  VISITOR_OIDC_CLIENT,
  type TestOidcProvider,
} from '../support/oidc-servers.ts';
import { createRoom } from '../support/fixtures.ts';
import { freePort } from '../support/ports.ts';
import { LIBRARY_ZONE, weekdaysAhead } from './dates.ts';
import { eventually, expectAccessible, LANGS, type Lang, type RunningServer } from './harness.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { addSlot, DESKTOP, h1, main, openVisitorPage, PHONE } from './visitor-pages.ts';

/**
 * A visitor signs in with the campus account on the personal data step (oidc-provider on
 * loopback, its login and consent pages in the browser): the room says it is for members of the
 * university, the name and address come from the claims and cannot be changed, and signing out
 * gives the form back (docs/product.md#visitor-sign-in). On a phone and a desktop, in German and
 * in English.
 */
let server: RunningServer;
let browser: Browser;
let admin: Client;
let provider: TestOidcProvider;
let stop: (() => Promise<void>) | undefined;
/** A room without a rule of its own, in a site for members of the university. */
let siteRoom: string;
const [day] = weekdaysAhead(1) as [Date];
const RANGE = '09:00-12:00';

const TEXTS: Record<Lang, Record<string, string | RegExp>> = {
  de: {
    members: 'Für Angehörige der Universität –',
    signInShort: 'Anmelden',
    heading: 'Ihre Daten',
    signIn: 'Mit Hochschulkonto anmelden',
    signedIn: 'Angemeldet als Sam Student.',
    firstName: /^Vorname/,
    lastName: /^Nachname/,
    email: /^E-Mail-Adresse/,
    signOut: 'Abmelden',
  },
  en: {
    members: 'For members of the university –',
    signInShort: 'Sign in',
    heading: 'Your data',
    signIn: 'Sign in with campus account',
    signedIn: 'Signed in as Sam Student.',
    firstName: /^First name/,
    lastName: /^Last name/,
    email: /^E-mail address/,
    signOut: 'Sign out',
  },
};
const RUNS = [PHONE, DESKTOP].flatMap((viewport) => LANGS.map((lang) => ({ lang, viewport })));

beforeAll(async () => {
  // The app must know the issuer before the provider knows the app: a fixed port for it.
  const issuerPort = await freePort();
  const rooms = await startWithTestRooms({
    TIME_ZONE: LIBRARY_ZONE,
    VISITOR_OIDC_ISSUER: `http://127.0.0.1:${issuerPort}`,
    VISITOR_OIDC_CLIENT_ID: VISITOR_OIDC_CLIENT.id,
    VISITOR_OIDC_CLIENT_SECRET: VISITOR_OIDC_CLIENT.secret,
  });
  ({ server, browser, admin, stop } = rooms);
  provider = await startVisitorOidcProvider(
    server.baseUrl,
    {
      sam: {
        name: 'Sam Student',
        email: 'sam@uni-x.de',
        email_verified: true,
        eduperson_scoped_affiliation: ['student@uni-x.de'],
      },
    },
    issuerPort,
  );
  const room = rooms.idOf(FIRST_ROOM);
  await createSlot(admin, room, day, '09:00', '12:00', 60);
  const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
    json: { allowedAffiliations: ['student@uni-x.de'] },
  });
  expect(set.status, await set.clone().text()).toBe(200);
  const site = await admin.request('POST', '/api/admin/sites', {
    json: {
      name: 'Campus Nord',
      slug: 'campus-nord',
      contactEmail: 'nord@uni-x.de',
      signInRequired: true,
    },
  });
  expect(site.status, await site.clone().text()).toBe(201);
  const { id: siteId } = (await site.json()) as { id: string };
  siteRoom = await createRoom(admin, 'Campus-Lesesaal', { siteId });
  await waitForReadModels(admin);
});

afterAll(async () => {
  await stop?.();
  await provider?.stop();
});

describe('visitor sign-in with the campus account', () => {
  for (const { lang, viewport } of RUNS) {
    const size = `${lang} ${viewport.width}x${viewport.height}`;
    it(`fills the personal data from the claims, read-only, until the visitor signs out (${size})`, async () => {
      const texts = TEXTS[lang];
      const text = (key: string) => String(texts[key]);
      const label = (key: string) => texts[key] as RegExp;
      // The cart is filled through the German day dialog (addSlot); the rest is in the language.
      const page = await openVisitorPage(browser, viewport, 'de');
      // The library has a second site: the first site's own address lists its rooms.
      await page.goto(`${server.baseUrl}/s/bibliothek/`);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, day, RANGE);
      if (lang !== 'de') {
        // The visitor's choice of language, as the language menu remembers it: it holds through
        // the campus sign-in's round trip too.
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        await page.reload();
        await h1(page, FIRST_ROOM).waitFor();
      }
      await main(page).getByText(text('members')).waitFor();
      await expect(
        main(page)
          .getByRole('link', { name: text('signInShort'), exact: true })
          .isVisible(),
      ).resolves.toBe(true);
      await expectAccessible(page, `room for members of the university (${size})`);
      await page.goto(`${server.baseUrl}/your-personal-data`);
      await h1(page, text('heading')).waitFor();
      await main(page)
        .getByRole('link', { name: text('signIn') })
        .click();

      // The provider's development pages: any login, then the consent.
      await page.locator('input[name="login"]').fill('sam');
      await page.locator('input[name="password"]').fill('any password');
      await page.locator('button[type="submit"]').click();
      await page.locator('button[type="submit"]').click();

      await eventually(() => Promise.resolve(new URL(page.url()).pathname)).toBe(
        '/your-personal-data',
      );
      await main(page)
        .getByRole('status')
        .filter({ hasText: text('signedIn') })
        .waitFor();
      const first = page.getByLabel(label('firstName'));
      const email = page.getByLabel(label('email'));
      expect(await first.inputValue()).toBe('Sam');
      expect(await page.getByLabel(label('lastName')).inputValue()).toBe('Student');
      expect(await email.inputValue()).toBe('sam@uni-x.de');
      expect(await email.getAttribute('readonly')).not.toBeNull();
      expect(await first.getAttribute('readonly')).not.toBeNull();
      await expectAccessible(page, `personal data, signed in with the campus account (${size})`);

      await main(page)
        .getByRole('button', { name: text('signOut') })
        .click();
      await main(page)
        .getByRole('link', { name: text('signIn') })
        .waitFor();
      expect(await email.getAttribute('readonly')).toBeNull();
      await page.context().close();
    });
  }

  it('books the members\' room signed in and finds the booking on "my bookings" without a mail (de 375x740)', async () => {
    const page = await openVisitorPage(browser, PHONE, 'de');
    await page.goto(`${server.baseUrl}/s/bibliothek/`);
    await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
    await h1(page, FIRST_ROOM).waitFor();
    await addSlot(page, day, RANGE);
    await page.goto(`${server.baseUrl}/your-personal-data`);
    await h1(page, 'Ihre Daten').waitFor();
    await main(page).getByRole('link', { name: 'Mit Hochschulkonto anmelden' }).click();
    await page.locator('input[name="login"]').fill('sam');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await main(page)
      .getByRole('status')
      .filter({ hasText: 'Angemeldet als Sam Student.' })
      .waitFor();
    await page.getByLabel('Anrede').selectOption('MR');
    await page.getByLabel(/^Telefonnummer/).fill('+431234');
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    await h1(page, 'Zusammenfassung').waitFor();
    await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();
    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
    const bookingNumber = (await main(page).locator('strong').textContent()) ?? '';
    expect(bookingNumber).toMatch(/^R-[0-9A-Z]{6}$/);

    // No mail asked for: the signed-in visitor's bookings are there at once.
    await page.goto(`${server.baseUrl}/my-bookings`);
    await h1(page, 'Ihre Buchungen').waitFor();
    await main(page)
      .getByRole('heading', { name: new RegExp(bookingNumber) })
      .waitFor();
    expect(
      await main(page)
        .getByLabel(/Ihre E-Mail-Adresse/)
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'my bookings, signed in with the campus account');

    // Signed out (here behind the app's back): the next person at this browser does not get
    // the list from the app's memory when she opens "my bookings" again within the app.
    await page.evaluate(() =>
      fetch('/api/visitor-auth/logout', {
        method: 'POST',
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      }),
    );
    const withinTheApp = (path: string) =>
      page.evaluate((p) => {
        history.pushState(null, '', p);
        dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    const listed = main(page).getByRole('heading', { name: new RegExp(bookingNumber) });
    await withinTheApp('/your-reservations');
    await listed.waitFor({ state: 'detached' });
    await withinTheApp('/my-bookings');
    await main(page)
      .getByLabel(/Ihre E-Mail-Adresse/)
      .waitFor();
    expect(await listed.count()).toBe(0);
    await page.context().close();
  });

  for (const lang of LANGS) {
    it(`a room of a site for members of the university says so, by its site's rule (${lang})`, async () => {
      const page = await openVisitorPage(browser, PHONE, 'de');
      try {
        if (lang !== 'de') {
          await page.goto(`${server.baseUrl}/`);
          await page.evaluate((l) => localStorage.setItem('language', l), lang);
        }
        await page.goto(`${server.baseUrl}/room/${siteRoom}`);
        await h1(page, 'Campus-Lesesaal').waitFor();
        await main(page).getByText(String(TEXTS[lang].members)).waitFor();
        await expectAccessible(page, `room of a members' site (${lang})`);
      } finally {
        await page.context().close();
      }
    });
  }
});
