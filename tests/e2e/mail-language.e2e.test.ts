import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import type { SmtpSink } from '../support/smtp-sink.ts';
import { budget } from '../support/time-budget.ts';
import { weekdaysAhead } from './dates.ts';
import { newContext, watchPage, type Lang, type RunningServer } from './harness.ts';
import {
  bookAsVisitor,
  createSlot,
  FIRST_ROOM,
  SECOND_ROOM,
  startWithWaitlistMail,
  waitForReadModels,
} from './test-rooms.ts';
import { DESKTOP, dialog, h1, main } from './visitor-pages.ts';

/**
 * A mail's links open their pages in the mail's language on a new device
 * (docs/product.md#configuration): an English booking's in English on a device that never saw the
 * app (German by default), a German one's in German on a device that remembers English, which
 * keeps remembering it. Every link: the confirmation link with its token (which still confirms),
 * the booking's page, "my bookings", leaving a waitlist, and a waitlist's offer, whose page goes on
 * to the personal data under the privacy notice, still in the link's language.
 */

let sink: SmtpSink;
let stop: (() => Promise<void>) | undefined;
let server: RunningServer;
let browser: Browser;
let admin: Client;
let confirmSlot: string;
let leaveSlot: string;
const offerSlots = {} as Record<Lang, { slot: string; ticket: string }>;

const [day] = weekdaysAhead(1) as [Date];

const TEXTS = {
  de: {
    name: 'Deutsch',
    booking: 'Ihre Buchung',
    confirm: 'Buchung bestätigen',
    confirmed: 'Vielen Dank, Ihre Buchung ist bestätigt.',
    myBookings: 'Ihre Buchungen',
    leave: 'Warteliste verlassen',
    left: /^Sie stehen nicht mehr auf der Warteliste für /,
    notice: 'Datenschutzhinweis',
    accept: /^Ich habe den Datenschutzhinweis gelesen/,
    proceed: 'Bestätigen und weiter',
    data: 'Ihre Daten',
  },
  en: {
    name: 'English',
    booking: 'Your booking',
    confirm: 'Confirm booking',
    confirmed: 'Thank you, your booking is confirmed.',
    myBookings: 'Your bookings',
    leave: 'Leave the waitlist',
    left: /^You are no longer on the waitlist for /,
    notice: 'Privacy notice',
    accept: /^I have read the privacy notice/,
    proceed: 'Confirm and continue',
    data: 'Your data',
  },
} as const;

beforeAll(async () => {
  const rooms = await startWithWaitlistMail();
  ({ server, browser, sink, stop } = rooms);
  admin = rooms.admin;
  const confirming = rooms.idOf(FIRST_ROOM);
  const waiting = rooms.idOf(SECOND_ROOM);
  for (const [room, services] of [
    [confirming, { confirmBookingMinutes: 1440 }],
    [waiting, { waitlistOfferMinutes: 30 }],
  ] as const) {
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: services,
    });
    expect(set.status, await set.clone().text()).toBe(200);
  }
  // In the afternoon: the reader also waits for the morning's slots.
  confirmSlot = await createSlot(admin, confirming, day, '13:00', '16:00', 10);
  // Full slots: one to leave the line of, one per language whose seat is freed and offered.
  leaveSlot = await createSlot(admin, waiting, day, '09:00', '10:00', 1);
  const full = [leaveSlot];
  for (const [lang, start, end] of [
    ['de', '10:00', '11:00'],
    ['en', '11:00', '12:00'],
  ] as const) {
    const slot = await createSlot(admin, waiting, day, start, end, 1);
    full.push(slot);
    offerSlots[lang] = { slot, ticket: '' };
  }
  let last: string | null = null;
  for (const [i, slot] of full.entries()) {
    const b = await bookAsVisitor(server.baseUrl, [slot], {
      firstName: 'Bea',
      lastName: `Belegt${i}`,
      email: `bea${i}@example.at`,
    });
    for (const offer of Object.values(offerSlots))
      if (offer.slot === slot) offer.ticket = b.ticketIds[0]!;
    last = b.position;
  }
  await waitForReadModels(admin, last);
});

afterAll(async () => {
  await stop?.();
});

/** The last link matching `pattern` in the mails to this address (the whole link, as mailed). */
async function mailedLink(email: string, pattern: RegExp): Promise<string> {
  const found = () =>
    sink.messages
      .filter((m) => JSON.stringify(m.to).includes(email))
      .map((m) => pattern.exec(m.text ?? '')?.[0])
      .filter((link) => link !== undefined)
      .at(-1);
  await expect.poll(found, { timeout: budget(20_000) }).toBeTruthy();
  return found()!;
}

/** The page is in `lang`: its `lang` attribute, its switch, and its address naming it. */
async function expectLanguage(page: Page, lang: Lang): Promise<void> {
  expect(await page.locator('html').getAttribute('lang')).toBe(lang);
  await page.getByRole('button', { name: TEXTS[lang].name, pressed: true }).waitFor();
  expect(new URL(page.url()).searchParams.get('lang')).toBe(lang);
}

/**
 * A new device: nothing accepted; German by default. `remembers`: its user switched to that
 * language before (on the privacy notice), which the device remembers.
 */
async function newDevice(remembers: Lang | null): Promise<Page> {
  const page = await (await newContext(browser, DESKTOP, 'de', 'UTC')).newPage();
  if (remembers) {
    await page.goto(`${server.baseUrl}/`);
    await dialog(page).getByRole('button', { name: TEXTS[remembers].name }).click();
    await page.getByRole('dialog', { name: TEXTS[remembers].notice }).waitFor();
  }
  return page;
}

const remembered = (page: Page) => page.evaluate(() => window.localStorage.getItem('language'));

describe("a mail's links open their pages in the mail's language", () => {
  for (const lang of ['en', 'de'] as const) {
    const other: Lang = lang === 'en' ? 'de' : 'en';
    const texts = TEXTS[lang];
    const device = lang === 'en' ? 'a new device' : `a device that remembers ${other}`;

    it(`a booking and a waitlist in ${lang}, opened on ${device}`, async () => {
      const email = `reader.${lang}@example.at`;
      const booked = await bookAsVisitor(server.baseUrl, [confirmSlot], {
        firstName: 'Lena',
        lastName: 'Link',
        email,
        language: lang,
      });
      await waitForReadModels(admin, booked.position);
      const page = await newDevice(lang === 'en' ? null : other);
      const log = watchPage(page);
      const owner = `reservation-confirmation/${booked.ownerId}`;

      // The confirmation link: the language before the token, which still confirms.
      const confirm = await mailedLink(
        email,
        new RegExp(`http\\S+/${owner}\\?lang=${lang}#confirm=[A-Za-z0-9_-]+`),
      );
      await page.goto(confirm);
      await h1(page, texts.booking).waitFor();
      await expectLanguage(page, lang);
      await main(page).getByRole('button', { name: texts.confirm, exact: true }).click();
      await main(page).getByRole('status').getByText(texts.confirmed).waitFor();

      // The booking's page (where it is cancelled; the reminder's cancel link too).
      const booking = await mailedLink(
        email,
        new RegExp(`http\\S+/${owner}\\?lang=${lang}(?!\\S)`),
      );
      await page.goto(booking);
      await h1(page, texts.booking).waitFor();
      await expectLanguage(page, lang);

      // My bookings.
      const asked = await admin.request('POST', '/api/my-bookings/link', {
        json: { email, language: lang },
      });
      expect(asked.status, await asked.clone().text()).toBe(202);
      await page.goto(
        await mailedLink(email, new RegExp(`http\\S+/my-bookings/\\S+\\?lang=${lang}(?!\\S)`)),
      );
      await h1(page, texts.myBookings).waitFor();
      await expectLanguage(page, lang);

      // Leaving a waitlist: the slot left is named in the language.
      const joined = await admin.request('POST', `/api/timeslots/${leaveSlot}/waitlist`, {
        json: { email, language: lang },
      });
      expect(joined.status, await joined.clone().text()).toBe(201);
      await page.goto(
        await mailedLink(email, new RegExp(`http\\S+/waitlist-leave/\\S+\\?lang=${lang}(?!\\S)`)),
      );
      await h1(page, texts.leave).waitFor();
      await main(page).getByRole('status').getByText(texts.left).waitFor();
      await expectLanguage(page, lang);

      // A waitlist's offer: its page goes on to the personal data, under the privacy notice (not
      // yet accepted on this device), both in the link's language.
      const { slot, ticket } = offerSlots[lang];
      const waits = await admin.request('POST', `/api/timeslots/${slot}/waitlist`, {
        json: { email, language: lang },
      });
      expect(waits.status, await waits.clone().text()).toBe(201);
      const freed = await admin.request('DELETE', `/api/admin/tickets?ids=${ticket}`);
      expect(freed.status, await freed.clone().text()).toBe(200);
      await page.goto(
        await mailedLink(
          email,
          new RegExp(`http\\S+/waitlist-offer/[0-9a-f-]{36}/[0-9a-f]{32}\\?lang=${lang}(?!\\S)`),
        ),
      );
      const notice = page.getByRole('dialog', { name: texts.notice });
      await notice.waitFor();
      expect(new URL(page.url()).pathname).toBe('/your-personal-data');
      await expectLanguage(page, lang);
      await notice.getByRole('checkbox', { name: texts.accept }).check();
      await notice.getByRole('button', { name: texts.proceed }).click();
      await h1(page, texts.data).waitFor();
      await expectLanguage(page, lang);

      // The link chose the page's language, not the device's: what it remembers stays.
      expect(await remembered(page)).toBe(lang === 'en' ? null : other);
      expect(log.errors).toEqual([]);
      await page.context().close();
    });
  }
});
