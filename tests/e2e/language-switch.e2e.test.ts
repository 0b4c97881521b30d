import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../support/fixtures.ts';
import { LIBRARY_ZONE, libraryTime } from './dates.ts';
import {
  eventually,
  expectAccessible,
  LANG_SIZE_RUNS,
  startBrowserTest,
  watchPage,
  type Lang,
  type RunningServer,
} from './harness.ts';
import { openStaffPage, signInAs } from './staff-ux-support.ts';
import { signInAdmin, waitForReadModels } from './test-rooms.ts';
import { h1, main, openVisitorPage } from './visitor-pages.ts';

/**
 * The language switch and the translations of what staff write (docs/product.md#configuration,
 * docs/product.md#translations), at a phone's, a tablet's and a desktop's width, starting in
 * German and in English, the browser in UTC beside a library in Vienna: the header switches the
 * language, the choice is named in the address and the page's `lang`, and is remembered on a
 * reload and a new visit without `?lang`; a room's texts and a holiday's name show in the chosen
 * language, the German ones where no English one was given; staff switch their app and edit a
 * room's English description, which the English room list then shows. Axe on every screen.
 */

const other = (lang: Lang): Lang => (lang === 'de' ? 'en' : 'de');
const SWITCH = { de: 'Deutsch', en: 'English' } as const;
const CHOOSER = { de: 'Platz reservieren', en: 'Book a seat' } as const;
const CHOOSE = { de: 'Auswählen', en: 'Choose' } as const;
const STAFF_ROOMS = { de: 'Räume', en: 'Rooms' } as const;
const EN_DESCRIPTION = { de: 'Englische Beschreibung', en: 'English description' } as const;
const SAVE = { de: 'Speichern', en: 'Save' } as const;

const EAST = {
  name: { de: 'Lesesaal Ost', en: 'East reading room' },
  description: { de: 'Ruhige Tische am Fenster', en: 'Quiet desks by the window' },
};
/** A room without English texts: its German ones show in both languages. */
const PERIODICALS = { name: 'Zeitschriftenraum', description: 'Zeitungen und Magazine' };
const HOLIDAY = { de: 'Mariä Empfängnis', en: 'Immaculate Conception' } as const;

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let eastId: string;

beforeAll(async () => {
  ({ server, browser, stop } = await startBrowserTest({ TIME_ZONE: LIBRARY_ZONE }));
  const admin = await signInAdmin(server.baseUrl);
  eastId = await createRoom(admin, EAST.name.de, {
    nameEn: EAST.name.en,
    description: EAST.description.de,
    descriptionEn: EAST.description.en,
  });
  await createRoom(admin, PERIODICALS.name, { description: PERIODICALS.description });
  // Today's holiday: the room calendar names it on its day of the current month.
  const holiday = await admin.request('POST', '/api/admin/holidays', {
    json: { name: HOLIDAY.de, nameEn: HOLIDAY.en, date: libraryTime(new Date()).date },
  });
  expect(holiday.status).toBe(201);
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

const pageLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const addressLang = (page: Page) => new URL(page.url()).searchParams.get('lang');
/** The address's language as the page has it now (the app names it after a navigation). */
const addressLangNow = (page: Page) =>
  page.evaluate(() => new URL(window.location.href).searchParams.get('lang'));
const switchButton = (page: Page, lang: Lang) =>
  page.getByRole('banner').getByRole('button', { name: SWITCH[lang], exact: true });

/** The language switch of the header shows `lang` as the page's and the page speaks it. */
async function expectSwitchedTo(page: Page, lang: Lang): Promise<void> {
  await eventually(() => pageLang(page)).toBe(lang);
  expect(await switchButton(page, lang).getAttribute('aria-pressed')).toBe('true');
  expect(await switchButton(page, other(lang)).getAttribute('aria-pressed')).toBe('false');
}

describe('a visitor switches the language in the header', () => {
  for (const { lang, viewport } of LANG_SIZE_RUNS) {
    const to = other(lang);
    it(`starts in ${lang}, switches to ${to}, keeps it on a reload and a new visit (${viewport.width} px)`, async () => {
      const page = await openVisitorPage(browser, viewport, lang, 'UTC');
      const watched = watchPage(page);
      try {
        await page.goto(`${server.baseUrl}/`);
        await h1(page, CHOOSER[lang]).waitFor();
        // Not chosen yet: the page's own language, and the address says nothing.
        await expectSwitchedTo(page, lang);
        expect(addressLang(page)).toBeNull();
        const cards = main(page).getByRole('heading', { level: 2 });
        await expect
          .poll(() => cards.allTextContents())
          .toEqual([EAST.name[lang], PERIODICALS.name]);
        await expectAccessible(page, `room chooser (${lang}, ${viewport.width} px)`);

        await switchButton(page, to).click();
        await h1(page, CHOOSER[to]).waitFor();
        await expectSwitchedTo(page, to);
        expect(addressLang(page)).toBe(to);
        await expect.poll(() => cards.allTextContents()).toEqual([EAST.name[to], PERIODICALS.name]);
        // A room without English texts shows its German ones, marked as German on an English page.
        const fallback = main(page).getByText(PERIODICALS.description, { exact: true });
        expect(await fallback.getAttribute('lang')).toBe(to === 'en' ? 'de' : null);
        await main(page).getByText(EAST.description[to], { exact: true }).waitFor();
        await expectAccessible(page, `room chooser switched (${to}, ${viewport.width} px)`);

        // On to the room: the address keeps naming the language.
        await main(page)
          .getByRole('link', { name: `${CHOOSE[to]} ${EAST.name[to]}`, exact: true })
          .click();
        await h1(page, EAST.name[to]).waitFor();
        await eventually(() => addressLangNow(page)).toBe(to);
        expect(new URL(page.url()).pathname).toBe(`/room/${eastId}`);
        await main(page).getByText(EAST.description[to], { exact: true }).waitFor();
        // Today's holiday is named on its day, in the chosen language.
        await main(page).locator('.calendar__note', { hasText: HOLIDAY[to] }).first().waitFor();
        await expectAccessible(page, `room page (${to}, ${viewport.width} px)`);

        // A reload keeps the language (the address names it) ...
        await page.reload();
        await h1(page, EAST.name[to]).waitFor();
        await expectSwitchedTo(page, to);
        // ... and so does a new visit without it (the browser remembers the choice).
        await page.goto(`${server.baseUrl}/`);
        await h1(page, CHOOSER[to]).waitFor();
        await expectSwitchedTo(page, to);
        await eventually(() => addressLangNow(page)).toBe(to);

        // The foyer display follows the chosen language.
        await page.goto(`${server.baseUrl}/display/`);
        await page.getByRole('heading', { level: 2, name: EAST.name[to], exact: true }).waitFor();
        expect(await pageLang(page)).toBe(to);
        await expectAccessible(page, `display (${to}, ${viewport.width} px)`);
        expect(watched.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});

describe('staff switch their app and write a room in two languages', () => {
  for (const [i, { lang, viewport }] of LANG_SIZE_RUNS.entries()) {
    const to = other(lang);
    it(`starts in ${lang}, switches to ${to}, edits the English description (${viewport.width} px)`, async () => {
      const page = await openStaffPage(browser, viewport, lang, 'UTC');
      try {
        await signInAs(page, server.baseUrl, lang);
        await expectSwitchedTo(page, lang);
        await switchButton(page, to).click();
        await expectSwitchedTo(page, to);
        await page
          .getByRole('navigation')
          .first()
          .getByRole('link', { name: STAFF_ROOMS[to], exact: true })
          .waitFor();
        expect(addressLang(page)).toBe(to);

        await page.goto(`${server.baseUrl}/admin/room-edit/${eastId}`);
        const english = main(page).getByLabel(EN_DESCRIPTION[to]);
        await eventually(() => english.inputValue()).not.toBe('');
        await expectAccessible(page, `room edit (${to}, ${viewport.width} px)`);
        const description = `Quiet desks by the window, run ${i + 1}`;
        await english.fill(description);
        await main(page).getByRole('button', { name: SAVE[to], exact: true }).click();
        await h1(page, STAFF_ROOMS[to]).waitFor();
        await eventually(() => addressLangNow(page)).toBe(to);

        // The list shows the page language's text; switched to English, the new one.
        if (to === 'de') await switchButton(page, 'en').click();
        await expectSwitchedTo(page, 'en');
        await main(page).getByText(description, { exact: true }).waitFor();
        await expectAccessible(page, `room list (en, ${viewport.width} px)`);
        await switchButton(page, 'de').click();
        await expectSwitchedTo(page, 'de');
        await main(page).getByText(EAST.description.de, { exact: true }).waitFor();
        expect(await main(page).getByText(description).count()).toBe(0);
      } finally {
        await page.context().close();
      }
    });
  }
});
