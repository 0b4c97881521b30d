import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { LIBRARY_ZONE, weekdaysAhead } from './dates.ts';
import {
  eventually,
  expectAccessible,
  LANGS,
  PHONE_TABLET_DESKTOP,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { openStaffPage, signInAs, visitorBooks } from './staff-ux-support.ts';
import {
  createSlot,
  FIRST_ROOM,
  SECOND_ROOM,
  startWithTestRooms,
  waitForReadModels,
} from './test-rooms.ts';
import { addSlot, dialog, h1, main, openVisitorPage, serveAs } from './visitor-pages.ts';

/**
 * A server's refusal of a form comes into sight at every width (docs/product.md#screens): on a
 * phone, a tablet and a desktop, in German and English, the device in UTC beside the library in
 * Vienna, the message is inside the window and not covered, the focus is on it (or on the field),
 * and the field it concerns is marked `aria-invalid` and described by it. The personal data
 * (an address a members-only room does not admit), the waitlist's join (an address already in
 * line) and a staff form (an address already on the blacklist).
 */

let server: RunningServer;
let browser: Browser;
let admin: Client;
let stop: (() => Promise<void>) | undefined;
let waitlistRoom: string;

const [day] = weekdaysAhead(1) as [Date];
const RANGE = '09:00-12:00';
const IN_LINE = 'already.waiting@example.at';
const BLOCKED = 'blocked.reader@example.at';

const TEXTS = {
  de: {
    heading: 'Ihre Daten',
    firstName: /^Vorname/,
    lastName: /^Nachname/,
    email: /^E-Mail-Adresse/,
    phone: /^Telefonnummer/,
    next: 'Weiter zur Zusammenfassung',
    membersOnly:
      'Dieser Raum steht nur Mitgliedern offen: Bitte verwenden Sie eine E-Mail-Adresse von example.at.',
    full: 'ausgebucht',
    join: 'Auf die Warteliste',
    waitlistEmail: /^Ihre E-Mail-Adresse/,
    inLine: 'Diese E-Mail-Adresse ist bereits auf der Warteliste dieses Termins.',
    blacklistEmail: /^E-Mail-Adresse/,
    blacklistAdd: 'Eintrag hinzufügen',
    blacklisted: 'Diese E-Mail-Adresse ist bereits eingetragen.',
  },
  en: {
    heading: 'Your data',
    firstName: /^First name/,
    lastName: /^Last name/,
    email: /^E-mail address/,
    phone: /^Telephone number/,
    next: 'Continue to the summary',
    membersOnly: 'This room is for members only: please use an e-mail address at example.at.',
    full: 'fully booked',
    join: 'Join the waitlist',
    waitlistEmail: /^Your e-mail address/,
    inLine: 'This e-mail address is already on the waitlist of this slot.',
    blacklistEmail: /^E-mail address/,
    blacklistAdd: 'Add entry',
    blacklisted: 'This e-mail address already exists.',
  },
} as const;

beforeAll(async () => {
  const rooms = await startWithTestRooms({ TIME_ZONE: LIBRARY_ZONE });
  ({ server, browser, admin, stop } = rooms);
  const membersRoom = rooms.idOf(FIRST_ROOM);
  waitlistRoom = rooms.idOf(SECOND_ROOM);
  await createSlot(admin, membersRoom, day, '09:00', '12:00', 60);
  const members = await admin.request('PUT', `/api/admin/rooms/${membersRoom}/services`, {
    json: { allowedEmailDomains: ['example.at'] },
  });
  expect(members.status, await members.clone().text()).toBe(200);
  const waitlist = await admin.request('PUT', `/api/admin/rooms/${waitlistRoom}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(waitlist.status, await waitlist.clone().text()).toBe(200);
  // A full slot with someone in line already.
  const full = await createSlot(admin, waitlistRoom, day, '09:00', '12:00', 1);
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Bea', lastName: 'Belegt', email: 'bea@example.at' },
    [full],
  );
  const joined = await admin.request('POST', `/api/timeslots/${full}/waitlist`, {
    json: { email: IN_LINE, language: 'de' },
  });
  expect(joined.status, await joined.clone().text()).toBe(201);
  const blocked = await admin.request('POST', '/api/admin/blacklist', {
    json: { email: BLOCKED, expiredAt: '2099-12-31' },
  });
  expect(blocked.status, await blocked.clone().text()).toBe(201);
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

/**
 * The refusal `message` is in sight: inside the window, not covered (the point at its start is
 * the message's own, not a pinned bar's), the focus on it or on `field`, and `field` marked and
 * described by it.
 */
async function expectRefusalInSight(page: Page, message: Locator, field: Locator): Promise<void> {
  const messageId = await message.getAttribute('id');
  expect(messageId).toBeTruthy();
  await eventually(() =>
    message.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + 8, box.top + 8);
      return box.top >= 0 && box.bottom <= window.innerHeight && hit !== null && el.contains(hit);
    }),
  ).toBe(true);
  const focused = await page.evaluate(() => document.activeElement?.id ?? '');
  expect([messageId, await field.getAttribute('id')]).toContain(focused);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain(messageId);
}

describe('a refusal comes into sight and marks its field', () => {
  for (const viewport of PHONE_TABLET_DESKTOP) {
    for (const lang of LANGS) {
      const size = `${lang} ${viewport.width}x${viewport.height}`;
      const texts = TEXTS[lang];

      it(`personal data: an address a members-only room does not admit (${size})`, async () => {
        const page = await openVisitorPage(browser, viewport, 'de', 'UTC');
        const log = watchPage(page);
        await page.goto(`${server.baseUrl}/`);
        await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
        await h1(page, FIRST_ROOM).waitFor();
        await addSlot(page, day, RANGE);
        if (lang !== 'de') await serveAs(page, lang);
        await page.goto(`${server.baseUrl}/your-personal-data`);
        await h1(page, texts.heading).waitFor();
        await page.getByLabel(texts.firstName).fill('Erika');
        await page.getByLabel(texts.lastName).fill('Muster');
        const email = page.getByLabel(texts.email);
        await email.fill('erika.muster@gmx.at');
        await page.getByLabel(texts.phone).fill('+431234');
        await main(page).getByRole('button', { name: texts.next }).click();
        const refusal = main(page).getByRole('alert').filter({ hasText: texts.membersOnly });
        await refusal.waitFor();
        await expectRefusalInSight(page, refusal, email);
        await expectAccessible(page, `personal data with a refused address (${size})`);
        // A new address clears the mark; an admitted one goes on.
        await email.fill('erika.muster@example.at');
        expect(await email.getAttribute('aria-invalid')).toBeNull();
        await main(page).getByRole('button', { name: texts.next }).click();
        await eventually(() => Promise.resolve(new URL(page.url()).pathname)).toBe('/summary');
        expect(log.errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
        await page.context().close();
      });

      it(`waitlist: an address already in line (${size})`, async () => {
        const page = await openVisitorPage(browser, viewport, lang, 'UTC');
        await page.goto(
          `${server.baseUrl}/room/${waitlistRoom}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
        );
        await main(page)
          .getByRole('button', { name: new RegExp(`, ${texts.full}(,|$)`) })
          .click();
        const join = dialog(page).getByRole('button', { name: `${texts.join} ${RANGE}` });
        await join.click();
        const email = dialog(page).getByLabel(texts.waitlistEmail);
        await email.fill(IN_LINE);
        await join.click();
        const refusal = dialog(page).getByRole('alert').filter({ hasText: texts.inLine });
        await refusal.waitFor();
        await expectRefusalInSight(page, refusal, email);
        await expectAccessible(page, `waitlist join with a refused address (${size})`);
        await page.context().close();
      });

      it(`staff: an address already on the blacklist (${size})`, async () => {
        const page = await openStaffPage(browser, viewport, lang, 'UTC');
        await signInAs(page, server.baseUrl, lang);
        await page.goto(`${server.baseUrl}/admin/blacklist-add`);
        const email = page.getByLabel(texts.blacklistEmail);
        await email.fill(BLOCKED);
        await page.getByRole('button', { name: texts.blacklistAdd, exact: true }).click();
        const refusal = page.getByRole('alert').filter({ hasText: texts.blacklisted });
        await refusal.waitFor();
        await expectRefusalInSight(page, refusal, email);
        await expectAccessible(page, `blacklist entry with a listed address (${size})`);
        await page.context().close();
      });
    }
  }
});
