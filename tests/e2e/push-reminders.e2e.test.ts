// In the browser: on a server with web push (VAPID keys), the "my bookings" page offers each
// booking the switch "reminders as notifications" (its own chunk), German at 375 and English at
// 1280 wide, axe clean. Turning it on needs the page's service worker and a push service, which
// this browser has neither of: the switch says it could not be set up and stays off.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { budget } from '../support/time-budget.ts';
import { weekdaysAhead } from './dates.ts';
import { expectAccessible, watchPage, type RunningServer } from './harness.ts';
import { visitorBooks } from './staff-ux-support.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { DESKTOP, h1, mailedPath, main, openVisitorPage, PHONE } from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
const READER = 'paula.push@example.at';
const LINK = /http\S+\/my-bookings\/\S+/;
const vapid = webpush.generateVAPIDKeys();

beforeAll(async () => {
  const rooms = await startWithTestRooms({
    WEB_PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
    WEB_PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
    WEB_PUSH_SUBJECT: 'mailto:lesesaal@library.example',
  });
  ({ server, browser, stop } = rooms);
  const [day] = weekdaysAhead(1) as [Date];
  const slot = await createSlot(rooms.admin, rooms.idOf(FIRST_ROOM), day, '09:00', '12:00', 5);
  await visitorBooks(server.baseUrl, { firstName: 'Paula', lastName: 'Push', email: READER }, [
    slot,
  ]);
  await waitForReadModels(rooms.admin);
});

afterAll(() => stop?.());

/** The visitor's "my bookings" page by the mailed link, in a language and width. */
async function myBookings(viewport: { width: number; height: number }, lang: 'de' | 'en') {
  const page = await openVisitorPage(browser, viewport, lang);
  await page.goto(`${server.baseUrl}/my-bookings`);
  await main(page)
    .getByLabel(lang === 'de' ? /^Ihre E-Mail-Adresse/ : /^Your e-mail address/)
    .fill(READER);
  await main(page)
    .getByRole('button', { name: lang === 'de' ? 'Link senden' : 'Send link' })
    .click();
  await main(page).getByRole('status').waitFor();
  await page.goto(server.baseUrl + (await mailedPath(server.mailDir, READER, LINK)));
  await h1(page, lang === 'de' ? 'Ihre Buchungen' : 'Your bookings').waitFor();
  return page;
}

describe('reminders as notifications in the browser', () => {
  it('offers the switch per booking and says when it cannot be set up (de, 375 wide)', async () => {
    const page = await myBookings(PHONE, 'de');
    const watch = watchPage(page);
    await page.context().grantPermissions(['notifications']);
    const toggle = main(page).getByRole('switch', { name: /^Erinnerungen als Mitteilung R-/ });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await main(page).getByText('Zusätzlich zur E-Mail erinnert Sie dieses Gerät').waitFor();
    await expectAccessible(page, 'my bookings: push switch (de)');
    // No service worker on this page: after its wait the switch says so and stays off.
    await toggle.click();
    await main(page)
      .getByRole('alert')
      .getByText('Mitteilungen konnten nicht eingerichtet werden.', { exact: false })
      .waitFor({ timeout: budget(30_000) });
    expect(await toggle.isChecked()).toBe(false);
    await expectAccessible(page, 'my bookings: push switch failed (de)');
    expect(watch.errors).toEqual([]);
    await page.context().close();
  });

  it('names the switch in English (1280 wide)', async () => {
    const page = await myBookings(DESKTOP, 'en');
    await main(page)
      .getByRole('switch', { name: /^Reminders as notifications R-/ })
      .waitFor();
    await expectAccessible(page, 'my bookings: push switch (en)');
    await page.context().close();
  });
});
