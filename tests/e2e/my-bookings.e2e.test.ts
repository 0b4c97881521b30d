// In the browser: a visitor asks for the "my bookings" link, follows the mailed link to every
// booking of the address across rooms and cancels a ticket and a whole booking; an altered link
// says so and leads to a new one; each ticket's wallet passes (Apple Wallet's download, Google
// Wallet's save page). German at 375, English at 1280 wide, axe clean.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWalletCertificates, type WalletCertificates } from '../support/wallet-certs.ts';
import { weekdaysAhead } from './dates.ts';
import { expectAccessible, watchPage, type RunningServer } from './harness.ts';
import { visitorBooks } from './staff-ux-support.ts';
import {
  createSlot,
  FIRST_ROOM,
  SECOND_ROOM,
  startWithTestRooms,
  waitForReadModels,
} from './test-rooms.ts';
import { DESKTOP, dialog, h1, mailedPath, main, openVisitorPage, PHONE } from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let certs: WalletCertificates | undefined;
const READER = 'rosa.reader@example.at';
const LINK = /http\S+\/my-bookings\/\S+/;

const visitorPage = (viewport: { width: number; height: number }, lang: 'de' | 'en' = 'de') =>
  openVisitorPage(browser, viewport, lang);

beforeAll(async () => {
  certs = makeWalletCertificates('pass.at.example.reading-rooms');
  const rooms = await startWithTestRooms(certs.env);
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  const [day, later] = weekdaysAhead(2) as [Date, Date];
  const first = await createSlot(admin, idOf(FIRST_ROOM), day, '09:00', '12:00', 5);
  const second = await createSlot(admin, idOf(SECOND_ROOM), later, '13:00', '15:00', 5);
  const third = await createSlot(admin, idOf(SECOND_ROOM), later, '16:00', '18:00', 5);
  // Two bookings of one address in two rooms, the second with two tickets; another address.
  const person = { firstName: 'Rosa', lastName: 'Reader' };
  await visitorBooks(server.baseUrl, { ...person, email: READER }, [first]);
  await visitorBooks(server.baseUrl, { ...person, email: 'Rosa.Reader@Example.at' }, [
    second,
    third,
  ]);
  await visitorBooks(server.baseUrl, { ...person, email: 'other@example.at' }, [first]);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await stop?.();
  certs?.remove();
});

describe('my bookings in the browser', () => {
  it('asks for the link, lists the bookings across rooms and cancels (de, 375 wide)', async () => {
    const page = await visitorPage(PHONE, 'de');
    const watch = watchPage(page);
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'Meine Buchungen' }).click();
    await h1(page, 'Meine Buchungen').waitFor();
    // An empty address is the contract's error, on the field.
    await main(page).getByRole('button', { name: 'Link senden' }).click();
    await main(page).getByText('Bitte füllen Sie dieses Feld aus.').waitFor();
    await main(page)
      .getByLabel(/^Ihre E-Mail-Adresse/)
      .fill(READER);
    await main(page).getByRole('button', { name: 'Link senden' }).click();
    await main(page).getByRole('status').getByText(`Wir haben einen Link an ${READER}`).waitFor();
    await expectAccessible(page, 'my bookings: link sent (de)');

    await page.goto(server.baseUrl + (await mailedPath(server.mailDir, READER, LINK)));
    await h1(page, 'Ihre Buchungen').waitFor();
    const bookings = main(page).getByRole('heading', { level: 2, name: /^Buchung R-/ });
    await expect.poll(() => bookings.count()).toBe(2);
    expect(await main(page).locator('.ticket-list > li').allTextContents()).toEqual([
      expect.stringContaining(FIRST_ROOM),
      expect.stringContaining(SECOND_ROOM),
      expect.stringContaining(SECOND_ROOM),
    ]);
    expect(
      await main(page)
        .getByRole('link', { name: /Kalender-Feed/ })
        .count(),
    ).toBe(2);
    await expectAccessible(page, 'my bookings: list (de)');

    // Each ticket's passes: Apple Wallet's to download, Google Wallet's save page to open.
    const apple = main(page).getByRole('link', { name: /^Zu Apple Wallet hinzufügen/ });
    await expect.poll(() => apple.count()).toBe(3);
    await expectAccessible(page, 'my bookings: wallet links (de)');
    const href = (await apple.first().getAttribute('href'))!;
    const pass = await page.request.get(new URL(href, page.url()).href);
    expect(pass.status()).toBe(200);
    expect(pass.headers()['content-type']).toBe('application/vnd.apple.pkpass');
    // Google's page is not reached from the test: the browser is answered in its place.
    await page.route('https://pay.google.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Google Wallet</title>' }),
    );
    await main(page)
      .getByRole('button', { name: /^In Google Wallet speichern/ })
      .first()
      .click();
    await page.waitForURL(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    await page.goBack();
    await expect.poll(() => bookings.count()).toBe(2);

    // One ticket, then the rest of the second booking at once.
    await main(page).locator('.ticket-list button').first().click();
    await dialog(page).getByRole('button', { name: 'Ja, Termin stornieren' }).click();
    await main(page).getByText('Ihr Termin wurde storniert.').waitFor();
    await expect.poll(() => bookings.count()).toBe(1);
    await main(page)
      .getByRole('button', { name: /^Ganze Buchung stornieren/ })
      .click();
    await dialog(page).getByRole('button', { name: 'Ja, 2 Termine stornieren' }).click();
    await main(page).getByText('Ihre 2 Termine wurden storniert.').waitFor();
    await main(page)
      .getByText('Zu dieser E-Mail-Adresse gibt es ab heute keine gebuchten Termine.')
      .waitFor();
    await expectAccessible(page, 'my bookings: all cancelled (de)');
    expect(watch.errors).toEqual([]);
    await page.context().close();
  });

  it('says an altered link is invalid and leads to a new one (en, 1280 wide)', async () => {
    const page = await visitorPage(DESKTOP, 'en');
    await page.goto(
      `${server.baseUrl}/my-bookings/00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAA`,
    );
    await main(page)
      .getByRole('alert')
      .getByText('This link has expired or is not valid.')
      .waitFor();
    await expectAccessible(page, 'my bookings: invalid link (en)');
    await main(page).getByRole('link', { name: 'Request a new link' }).click();
    await h1(page, 'My bookings').waitFor();
    await main(page)
      .getByLabel(/^Your e-mail address/)
      .fill('nobody@example.at');
    await main(page).getByRole('button', { name: 'Send link' }).click();
    await main(page)
      .getByRole('status')
      .getByText('We have sent a link to nobody@example.at')
      .waitFor();
    await page.goto(server.baseUrl + (await mailedPath(server.mailDir, 'nobody@example.at', LINK)));
    await main(page)
      .getByText('There are no booked appointments for this e-mail address from today on.')
      .waitFor();
    await expectAccessible(page, 'my bookings: no bookings (en)');
    await page.context().close();
  });
});
