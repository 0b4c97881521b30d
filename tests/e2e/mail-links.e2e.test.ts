import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { LIBRARY_ZONE, longDate, weekdaysAhead } from './dates.ts';
import {
  eventually,
  expectAccessible,
  LANGS,
  newContext,
  PHONE_TABLET_DESKTOP,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { visitorBooks } from './staff-ux-support.ts';
import {
  bookAsVisitor,
  createSlot,
  FIRST_ROOM,
  SECOND_ROOM,
  startWithTestRooms,
  waitForReadModels,
} from './test-rooms.ts';
import { dialog, h1, mailedPath, main, openVisitorPage, serveAs } from './visitor-pages.ts';

/**
 * The pages the mails link to show their content on a new device, without the privacy overlay
 * (docs/product.md#visitor-screens): the booking's page (the confirmation mail), my bookings (its
 * mail), and leaving a waitlist (the joining mail), which names the slot left. The notice stands
 * beside them and blocks nothing; booking from there asks for consent first. And the visitor who
 * sees their place in line leaves it from there (docs/product.md#waitlist). At 375, 768 and 1280
 * px, in German and English, the device in UTC beside the library in Vienna, axe clean.
 */

let server: RunningServer;
let browser: Browser;
let admin: Client;
let stop: (() => Promise<void>) | undefined;
let waitlistRoom: string;
let fullSlot: string;
let openSlot: string;

const [day] = weekdaysAhead(1) as [Date];
const RANGE = '09:00-12:00';
const dayIn = (lang: 'de' | 'en') =>
  lang === 'de'
    ? longDate(day)
    : new Intl.DateTimeFormat('en-GB', { dateStyle: 'full' }).format(day);

const TEXTS = {
  de: {
    notice: 'Datenschutzhinweis',
    booking: 'Ihre Buchung',
    myBookings: 'Ihre Buchungen',
    leave: 'Warteliste verlassen',
    left: `Sie stehen nicht mehr auf der Warteliste für ${SECOND_ROOM} am ${dayIn('de')}, ${RANGE}.`,
    full: 'ausgebucht',
    join: 'Auf die Warteliste',
    email: /^Ihre E-Mail-Adresse/,
    place: /^Sie sind auf Platz \d+ der Warteliste\./,
  },
  en: {
    notice: 'Privacy notice',
    booking: 'Your booking',
    myBookings: 'Your bookings',
    leave: 'Leave the waitlist',
    left: `You are no longer on the waitlist for ${SECOND_ROOM} on ${dayIn('en')}, ${RANGE}.`,
    full: 'fully booked',
    join: 'Join the waitlist',
    email: /^Your e-mail address/,
    place: /^You are number \d+ on the waitlist\./,
  },
} as const;

beforeAll(async () => {
  // Mails as files (server.mailDir): the tests follow their links.
  const rooms = await startWithTestRooms({ TIME_ZONE: LIBRARY_ZONE });
  ({ server, browser, admin, stop } = rooms);
  waitlistRoom = rooms.idOf(SECOND_ROOM);
  openSlot = await createSlot(admin, rooms.idOf(FIRST_ROOM), day, '13:00', '16:00', 60);
  const services = await admin.request('PUT', `/api/admin/rooms/${waitlistRoom}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  fullSlot = await createSlot(admin, waitlistRoom, day, '09:00', '12:00', 1);
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Bea', lastName: 'Belegt', email: 'bea@example.at' },
    [fullSlot],
  );
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

/** A page on a new device: nothing accepted, the device in UTC, the app in `lang`. */
async function newDevice(viewport: { width: number; height: number }, lang: 'de' | 'en') {
  const page = await (await newContext(browser, viewport, lang, 'UTC')).newPage();
  if (lang !== 'de') await serveAs(page, lang);
  return page;
}

/** The page shows its content with the notice beside it, and no overlay. */
async function expectNoOverlay(page: Page, lang: 'de' | 'en'): Promise<void> {
  await page.getByRole('complementary', { name: TEXTS[lang].notice }).waitFor();
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(await page.getByRole('checkbox').count()).toBe(0);
  // The page's own navigation is there: the notice does not stand in for the app.
  await page.getByRole('banner').waitFor();
}

describe("a mail's link shows its page on a new device, the notice beside it", () => {
  for (const viewport of PHONE_TABLET_DESKTOP) {
    for (const lang of LANGS) {
      const size = `${lang} ${viewport.width}x${viewport.height}`;
      const texts = TEXTS[lang];

      it(`the confirmation, my bookings and the waitlist's leave link (${size})`, async () => {
        const email = `mail.${lang}.${viewport.width}@example.at`;
        await bookAsVisitor(server.baseUrl, [openSlot], {
          firstName: 'Mara',
          lastName: 'Mail',
          email,
        });
        const page = await newDevice(viewport, lang);
        const log = watchPage(page);

        // The confirmation mail's link: the booking's tickets.
        const booking = await mailedPath(
          server.mailDir,
          email,
          /http\S+\/reservation-confirmation\/[^\s#]+/,
        );
        await page.goto(`${server.baseUrl}${booking}`);
        await h1(page, texts.booking).waitFor();
        await main(page).getByText(FIRST_ROOM).first().waitFor();
        await expectNoOverlay(page, lang);
        await expectAccessible(page, `booking from the mail's link (${size})`);

        // The my-bookings mail's link: every booking of the address.
        const asked = await admin.request('POST', '/api/my-bookings/link', {
          json: { email, language: lang },
        });
        expect(asked.status, await asked.clone().text()).toBe(202);
        const mine = await mailedPath(server.mailDir, email, /http\S+\/my-bookings\/\S+/);
        await page.goto(`${server.baseUrl}${mine}`);
        await h1(page, texts.myBookings).waitFor();
        await main(page).getByText(FIRST_ROOM).first().waitFor();
        await expectNoOverlay(page, lang);
        await expectAccessible(page, `my bookings from the mail's link (${size})`);

        // The joining mail's link leaves the line without any consent, naming the slot left.
        const joined = await admin.request('POST', `/api/timeslots/${fullSlot}/waitlist`, {
          json: { email, language: lang },
        });
        expect(joined.status, await joined.clone().text()).toBe(201);
        const leave = await mailedPath(server.mailDir, email, /http\S+\/waitlist-leave\/\S+/);
        await page.goto(`${server.baseUrl}${leave}`);
        await h1(page, texts.leave).waitFor();
        await main(page).getByRole('status').getByText(texts.left).waitFor();
        await expectNoOverlay(page, lang);
        await expectAccessible(page, `leaving the waitlist from the mail's link (${size})`);

        // Booking from there asks for consent first.
        await page.getByRole('banner').getByRole('navigation').locator('a[href="/"]').click();
        await page.getByRole('dialog', { name: texts.notice }).waitFor();
        expect(log.errors).toEqual([]);
        await page.context().close();
      });

      it(`leaving the waitlist beside the place in line (${size})`, async () => {
        const page = await openVisitorPage(browser, viewport, lang, 'UTC');
        const log = watchPage(page);
        const openDay = async () => {
          await page.goto(
            `${server.baseUrl}/room/${waitlistRoom}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
          );
          await main(page)
            .getByRole('button', { name: new RegExp(`, ${texts.full}(,|$)`) })
            .click();
        };
        await openDay();
        const join = dialog(page).getByRole('button', { name: `${texts.join} ${RANGE}` });
        await join.click();
        await dialog(page)
          .getByLabel(texts.email)
          .fill(`line.${lang}.${viewport.width}@example.at`);
        await join.click();
        await dialog(page).getByRole('status').getByText(texts.place).waitFor();
        const leave = dialog(page).getByRole('button', { name: `${texts.leave} ${RANGE}` });
        await expectAccessible(page, `the place in line with its way out (${size})`);
        await leave.click();
        await eventually(() => Promise.resolve(new URL(page.url()).pathname)).toMatch(
          /^\/waitlist-leave\//,
        );
        await h1(page, texts.leave).waitFor();
        await main(page).getByRole('status').getByText(texts.left).waitFor();
        await expectAccessible(page, `the leave page (${size})`);
        // The slot's page forgets the place: joining is offered again.
        await openDay();
        await join.waitFor();
        expect(await dialog(page).getByText(texts.place).count()).toBe(0);
        expect(log.errors).toEqual([]);
        await page.context().close();
      });
    }
  }
});
