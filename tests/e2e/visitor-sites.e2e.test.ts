import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { budget } from '../support/time-budget.ts';
import { expectAccessible, newContext, watchPage, type Lang } from './harness.ts';
import {
  createSlot,
  startWithTestRooms,
  TEST_ROOM_NAMES,
  waitForReadModels,
  type TestRooms,
} from './test-rooms.ts';
import {
  DESKTOP,
  dialog,
  h1,
  main,
  openVisitorPage,
  PHONE,
  roomNames,
  serveAs,
} from './visitor-pages.ts';
import type { BrowserTest } from './harness.ts';
import { createRoom } from '../support/fixtures.ts';

/**
 * The visitors' side of sites (docs/product.md#sites): with one site the app is as before (no
 * chooser, no site details); with two the start page is the site chooser, the choice is kept on
 * the device, a site's own address `/s/{slug}/` shows its rooms with its details, a visitor books
 * there and the confirmation mail names the site, an unknown slug says so, the privacy notice
 * accepted leaves the focus on the chooser's heading, and the foyer display shows one site. Each width and language books with its own address.
 */

const SITE = {
  name: 'Fachbibliothek Jura',
  nameEn: 'Law Library',
  slug: 'jura',
  contactEmail: 'jura@bibliothek.example',
  address: 'Juridicum\nSchottenbastei 10\n1010 Wien',
  phone: '+43 1 4277 0',
};
const SITE_ROOM = 'Lesesaal Jura';
/** How long a poll waits for what the page shows next (stretched on a slow machine). */
const POLL = { timeout: budget(20_000) };

/** The visitor texts of both languages (frontend/src/i18n). */
const TEXT = {
  de: {
    rooms: 'Platz reservieren',
    chooser: 'Standort wählen',
    choose: 'Diesen Standort wählen',
    site: 'Standort',
    change: 'Standort wechseln',
    missing: 'Standort nicht gefunden',
    allSites: 'Alle Standorte',
    pick: 'Auswählen',
    nextMonth: 'Nächster Monat',
    free: 'frei',
    book: 'Reservieren',
    toCart: 'Weiter zum Warenkorb',
    toData: 'Weiter zu Ihren Daten',
    firstName: /^Vorname/,
    lastName: /^Nachname/,
    email: /^E-Mail-Adresse/,
    phone: /^Telefonnummer/,
    toSummary: 'Weiter zur Zusammenfassung',
    bookNow: 'Verbindlich reservieren',
    booked: 'Vielen Dank für Ihre Buchung',
    privacyRead: /Datenschutzhinweis gelesen/,
    privacyConfirm: 'Bestätigen und weiter',
    siteName: SITE.name,
  },
  en: {
    rooms: 'Book a seat',
    chooser: 'Choose a site',
    choose: 'Choose this site',
    site: 'Site',
    change: 'Change site',
    missing: 'Site not found',
    allSites: 'All sites',
    pick: 'Choose',
    nextMonth: 'Next month',
    free: 'free',
    book: 'Reserve',
    toCart: 'Continue to your cart',
    toData: 'Continue to your data',
    firstName: /^First name/,
    lastName: /^Last name/,
    email: /^E-mail address/,
    phone: /^Telephone number/,
    toSummary: 'Continue to the summary',
    bookNow: 'Book now',
    booked: 'Thank you for your booking',
    privacyRead: /read the privacy notice/,
    privacyConfirm: 'Confirm and continue',
    siteName: SITE.nameEn,
  },
} as const;

const RUNS = (['de', 'en'] as const).flatMap((lang) =>
  [PHONE, DESKTOP].map((viewport) => ({ lang, viewport })),
);

let test: BrowserTest & TestRooms;
let sink: SmtpSink;
/** The bookable day of the site's room (a weekday from three days ahead). */
let day: Date;
let siteRoomId = '';

beforeAll(async () => {
  sink = new SmtpSink(await freePort());
  await sink.start();
  test = await startWithTestRooms({ SMTP_URL: sink.url, MAIL_INTERVAL_MS: '200' });
});

afterAll(async () => {
  await test?.stop();
  await sink?.stop();
});

const siteBar = (page: Page, lang: Lang) =>
  main(page).getByRole('region', { name: TEXT[lang].site, exact: true });

/** Nothing of the page is wider than the window. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

describe('one site', () => {
  for (const { lang, viewport } of RUNS) {
    it(`opens on the rooms as before, without a chooser (${lang}, ${viewport.width} px)`, async () => {
      const page = await openVisitorPage(test.browser, viewport, lang);
      const log = watchPage(page);
      try {
        const sites = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sites');
        await page.goto(`${test.server.baseUrl}/`);
        await h1(page, TEXT[lang].rooms).waitFor();
        await expect.poll(() => roomNames(page), POLL).toEqual(TEST_ROOM_NAMES);
        // The sites were asked (the answer decides), and there is only the first one.
        expect(((await (await sites).json()) as { content: unknown[] }).content).toHaveLength(1);
        expect(await h1(page, TEXT[lang].chooser).count()).toBe(0);
        expect(await siteBar(page, lang).count()).toBe(0);
        expect(page.url()).toBe(`${test.server.baseUrl}/`);
        // The first site's own address shows the same rooms, still without site details.
        await page.goto(`${test.server.baseUrl}/s/bibliothek/`);
        await expect.poll(() => roomNames(page), POLL).toEqual(TEST_ROOM_NAMES);
        expect(await siteBar(page, lang).count()).toBe(0);
        await expectAccessible(page, `one site (${lang}, ${viewport.width} px)`);
        expect(log.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});

describe('several sites', () => {
  beforeAll(async () => {
    const created = await test.admin.request('POST', '/api/admin/sites', { json: SITE });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id: siteId } = (await created.json()) as { id: string };
    siteRoomId = await createRoom(test.admin, SITE_ROOM, {
      siteId,
      description: 'Testraum des Standorts Jura',
      capacity: 20,
    });
    const today = new Date();
    for (let offset = 3; ; offset += 1) {
      day = new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset);
      if (day.getDay() >= 1 && day.getDay() <= 5) break;
    }
    await createSlot(test.admin, siteRoomId, day, '09:00', '12:00', 20);
    await waitForReadModels(test.admin);
  });

  for (const [index, { lang, viewport }] of RUNS.entries()) {
    const t = TEXT[lang];
    it(`chooses the site, books in its room and the mail names it (${lang}, ${viewport.width} px)`, async () => {
      const page = await openVisitorPage(test.browser, viewport, lang);
      const log = watchPage(page);
      const email = `jura.${index}@example.at`;
      try {
        // The start page is the chooser: each site with its address and contact.
        await page.goto(`${test.server.baseUrl}/`);
        await h1(page, t.chooser).waitFor();
        const card = main(page)
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: t.siteName }) });
        await card.getByText('Schottenbastei 10').waitFor();
        await card.getByRole('link', { name: SITE.contactEmail }).waitFor();
        // The phone as the server keeps it (digits and the leading plus).
        await card.getByRole('link', { name: '+43142770' }).waitFor();
        expect(await main(page).getByRole('heading', { level: 2 }).count()).toBe(2);
        await expectAccessible(page, `site chooser (${lang}, ${viewport.width} px)`);
        await fitsWidth(page, viewport.width);

        // Choosing opens the site's own address: its rooms only, with its details above them.
        await card.getByRole('link', { name: new RegExp(`^${t.choose}`) }).click();
        await page.waitForURL(`${test.server.baseUrl}/s/${SITE.slug}/`);
        await h1(page, t.rooms).waitFor();
        await expect.poll(() => roomNames(page), POLL).toEqual([SITE_ROOM]);
        await siteBar(page, lang).getByText(t.siteName).waitFor();
        await siteBar(page, lang).getByText(SITE.contactEmail).waitFor();
        await expectAccessible(page, `rooms of a site (${lang}, ${viewport.width} px)`);
        await fitsWidth(page, viewport.width);

        // The device keeps the choice: the old start address shows the site's rooms.
        await page.goto(`${test.server.baseUrl}/`);
        await h1(page, t.rooms).waitFor();
        await expect.poll(() => roomNames(page), POLL).toEqual([SITE_ROOM]);
        await siteBar(page, lang).getByText(t.siteName).waitFor();

        // A deep address below the site's: the room's calendar, named with its site.
        await page.goto(`${test.server.baseUrl}/s/${SITE.slug}/`);
        await main(page)
          .getByRole('link', { name: new RegExp(`^${t.pick} ${SITE_ROOM}`) })
          .click();
        await h1(page, SITE_ROOM).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/s/${SITE.slug}/room/${siteRoomId}`);
        await siteBar(page, lang).getByText(t.siteName).waitFor();
        await expectAccessible(page, `calendar of a site's room (${lang}, ${viewport.width} px)`);

        // Book the site's slot.
        // The long date as the app writes it (English: the day before the month), with or
        // without the comma after the weekday (ICU versions differ).
        const [weekday, ...rest] = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'de', {
          dateStyle: 'full',
        })
          .format(day)
          .split(/,? /);
        const dayButton = main(page).getByRole('button', {
          name: new RegExp(`^${weekday},? ${rest.join(' ')}, ${t.free}(,|$)`),
        });
        for (let i = 0; i < 3 && !(await dayButton.isVisible()); i += 1) {
          await main(page).getByRole('button', { name: t.nextMonth }).click();
          await page.waitForTimeout(300);
        }
        await dayButton.click();
        await dialog(page)
          .getByRole('button', { name: new RegExp(`^${t.book} `) })
          .first()
          .click();
        await dialog(page).waitFor({ state: 'hidden' });
        await main(page).getByRole('link', { name: t.toCart }).first().click();
        await main(page).getByRole('link', { name: t.toData }).click();
        await page.getByLabel(t.firstName).fill('Erika');
        await page.getByLabel(t.lastName).fill('Muster');
        await page.getByLabel(t.email).fill(email);
        await page.getByLabel(t.phone).fill('+431234');
        await main(page).getByRole('button', { name: t.toSummary }).click();
        await main(page).getByRole('button', { name: t.bookNow }).click();
        await h1(page, t.booked).waitFor();
        expect(new URL(page.url()).pathname).toMatch(
          new RegExp(`^/s/${SITE.slug}/reservation-confirmation/`),
        );
        // The confirmation names the site of the booked room.
        await siteBar(page, lang).getByText(t.siteName).waitFor();
        await expectAccessible(page, `confirmation of a site (${lang}, ${viewport.width} px)`);
        await fitsWidth(page, viewport.width);

        // The confirmation mail comes from the site.
        await expect
          .poll(
            () =>
              sink.messages
                .filter((mail) => JSON.stringify(mail.to ?? '').includes(email))
                .map((mail) => mail.subject ?? ''),
            POLL,
          )
          .toEqual([expect.stringContaining(t.siteName)]);

        // Changing the site: the chooser again.
        await siteBar(page, lang).getByRole('link', { name: t.change }).click();
        await h1(page, t.chooser).waitFor();
        expect(log.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });

    it(`says plainly that an address names no site (${lang}, ${viewport.width} px)`, async () => {
      const page = await openVisitorPage(test.browser, viewport, lang);
      try {
        await page.goto(`${test.server.baseUrl}/s/nirgendwo/room/${siteRoomId}`);
        await h1(page, t.missing).waitFor();
        await expectAccessible(page, `unknown site (${lang}, ${viewport.width} px)`);
        await main(page).getByRole('link', { name: t.allSites }).click();
        await h1(page, t.chooser).waitFor();
      } finally {
        await page.context().close();
      }
    });
  }

  for (const lang of ['de', 'en'] as const) {
    const t = TEXT[lang];
    it(`after the privacy notice the chooser's heading has the focus (${lang}, ${DESKTOP.width} px)`, async () => {
      // A device that never accepted the notice.
      const context = await newContext(test.browser, DESKTOP, lang);
      const page = await context.newPage();
      const log = watchPage(page);
      try {
        if (lang !== 'de') await serveAs(page, lang);
        await page.goto(`${test.server.baseUrl}/`);
        await page.getByRole('checkbox', { name: t.privacyRead }).check();
        await page.getByRole('button', { name: t.privacyConfirm }).click();
        await h1(page, t.chooser).waitFor();
        // The chooser's heading arrives with its own chunk, after the notice has gone.
        await expect
          .poll(
            () =>
              page.evaluate(() => {
                const focused = document.activeElement;
                return focused ? `${focused.tagName} ${focused.textContent}` : null;
              }),
            POLL,
          )
          .toBe(`H1 ${t.chooser}`);
        await expectAccessible(page, `site chooser after the notice (${lang})`);
        expect(log.errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('shows one site on the foyer display', async () => {
    const page = await openVisitorPage(test.browser, DESKTOP, 'de');
    try {
      for (const path of [`/s/${SITE.slug}/display`, `/display?site=${SITE.slug}`]) {
        await page.goto(`${test.server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 2, name: SITE_ROOM }).waitFor();
        await page.getByText(SITE.name, { exact: true }).waitFor();
        await page.getByText(/Schottenbastei 10/).waitFor();
        expect(await page.getByRole('heading', { level: 2 }).count()).toBe(1);
        await expectAccessible(page, `display of a site (${path})`);
      }
      await page.goto(`${test.server.baseUrl}/display?site=nirgendwo`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Dieser Standort ist nicht bekannt.' })
        .waitFor();
      // Without a site: every room of every site, as before.
      await page.goto(`${test.server.baseUrl}/display`);
      await page.getByRole('heading', { level: 2, name: SITE_ROOM }).waitFor();
      await page.getByRole('heading', { level: 2, name: TEST_ROOM_NAMES[0] }).waitFor();
    } finally {
      await page.context().close();
    }
  });
});
