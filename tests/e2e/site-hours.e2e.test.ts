import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoursDayOf, type HoursDay } from '@rr/contracts/site-hours';
import { addDays } from '@rr/domain';
import { makePng } from '../support/images.ts';
import { budget } from '../support/time-budget.ts';
import { iso } from './dates.ts';
import { expectAccessible, reloadUntilVisible, watchPage, type BrowserTest } from './harness.ts';
import { openStaffPage, signInAs } from './staff-ux-support.ts';
import { startWithTestRooms, waitForReadModels, type TestRooms } from './test-rooms.ts';
import { DESKTOP, h1, main, openVisitorPage, PHONE } from './visitor-pages.ts';

/**
 * A site's opening hours and logo (docs/product.md#sites): staff set today's hours on the site's
 * edit page (a range that ends before it starts is marked first), a date with other hours with a
 * note, and a logo; a visitor then sees the logo and the hours in the site chooser, today's
 * marked, and today's hours above the site's pages. Each width and language sets its own hours.
 */

const SITE = {
  name: 'Fachbibliothek Jura',
  nameEn: 'Law Library',
  slug: 'jura',
  contactEmail: 'jura@bibliothek.example',
};
/** How long a poll waits for what the page shows next (stretched on a slow machine). */
const POLL = { timeout: budget(20_000) };

const DAYS: Record<'de' | 'en', Record<HoursDay, string>> = {
  de: {
    mon: 'Montag',
    tue: 'Dienstag',
    wed: 'Mittwoch',
    thu: 'Donnerstag',
    fri: 'Freitag',
    sat: 'Samstag',
    sun: 'Sonntag',
  },
  en: {
    mon: 'Monday',
    tue: 'Tuesday',
    wed: 'Wednesday',
    thu: 'Thursday',
    fri: 'Friday',
    sat: 'Saturday',
    sun: 'Sunday',
  },
};

/** The staff and visitor texts of both languages (frontend/src/i18n). */
const TEXT = {
  de: {
    edit: 'Standort bearbeiten',
    addRange: 'Zeitraum hinzufügen',
    from: (day: string) => new RegExp(`^${day}, Zeitraum 1: von`),
    until: (day: string) => new RegExp(`^${day}, Zeitraum 1: bis`),
    addException: 'Ausnahme hinzufügen',
    date: /^Datum/,
    note: 'Hinweis',
    save: 'Öffnungszeiten speichern',
    logo: /^Logo/,
    upload: 'Logo hochladen',
    timeAfter: 'Die Endzeit muss nach der Startzeit liegen.',
    chooser: 'Standort wählen',
    hours: 'Öffnungszeiten',
    today: 'heute',
    todayLine: 'Heute',
    closed: 'geschlossen',
    site: 'Standort',
    siteName: SITE.name,
  },
  en: {
    edit: 'Edit site',
    addRange: 'Add range',
    from: (day: string) => new RegExp(`^${day}, range 1: from`),
    until: (day: string) => new RegExp(`^${day}, range 1: until`),
    addException: 'Add exception',
    date: /^Date/,
    note: 'Note',
    save: 'Save opening hours',
    logo: /^Logo/,
    upload: 'Upload logo',
    timeAfter: 'The end time must be after the start time.',
    chooser: 'Choose a site',
    hours: 'Opening hours',
    today: 'today',
    todayLine: 'Today',
    closed: 'closed',
    site: 'Site',
    siteName: SITE.nameEn,
  },
} as const;

const RUNS = (['de', 'en'] as const).flatMap((lang) =>
  [PHONE, DESKTOP].map((viewport) => ({ lang, viewport })),
);

let test: BrowserTest & TestRooms;
let siteId = '';

beforeAll(async () => {
  test = await startWithTestRooms();
  const created = await test.admin.request('POST', '/api/admin/sites', { json: SITE });
  expect(created.status, await created.clone().text()).toBe(201);
  siteId = ((await created.json()) as { id: string }).id;
  await waitForReadModels(test.admin);
});

afterAll(async () => {
  await test?.stop();
});

/** Nothing of the page is wider than the window. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

/** `dd.MM.yyyy` of a `YYYY-MM-DD` date, as the app writes dates. */
const shown = (date: string) => date.split('-').reverse().join('.');

describe('a site’s opening hours', () => {
  for (const [index, { lang, viewport }] of RUNS.entries()) {
    const t = TEXT[lang];
    it(`staff set them and a visitor sees them in the chooser (${lang}, ${viewport.width} px)`, async () => {
      // Each run starts without hours and sets its own.
      const reset = await test.admin.request('PUT', `/api/admin/sites/${siteId}/hours`, {
        json: { weekly: {}, exceptions: [] },
      });
      expect(reset.status).toBe(200);
      // The machine's date: the server under test runs in the machine's zone (harness.ts).
      const today = iso(new Date());
      const tomorrow = addDays(today, 1);
      const day = DAYS[lang][hoursDayOf(today)];
      const [start, end] = [`0${index + 6}:00`, `1${index + 2}:30`];
      const note = `Betriebsausflug ${index}`;

      const staff = await openStaffPage(test.browser, viewport, lang);
      const staffLog = watchPage(staff);
      try {
        await signInAs(staff, test.server.baseUrl, lang);
        await staff.goto(`${test.server.baseUrl}/admin/site-edit/${siteId}`);
        await h1(staff, t.edit).waitFor();
        await main(staff)
          .getByRole('button', { name: `${t.addRange} ${day}`, exact: true })
          .click();
        const from = staff.getByLabel(t.from(day));
        const until = staff.getByLabel(t.until(day));
        // A range that ends before it starts is marked before anything is sent.
        await from.fill(end);
        await until.fill(start);
        const save = main(staff).getByRole('button', { name: t.save, exact: true });
        await save.click();
        await expect.poll(() => until.getAttribute('aria-invalid'), POLL).toBe('true');
        await main(staff).getByText(t.timeAfter).waitFor();
        await expectAccessible(staff, `hours with an error (${lang}, ${viewport.width} px)`);
        await from.fill(start);
        await until.fill(end);
        // Tomorrow closed, with a note.
        await main(staff).getByRole('button', { name: t.addException, exact: true }).click();
        await staff.getByLabel(t.date).fill(tomorrow);
        await staff.getByLabel(t.note, { exact: true }).fill(note);
        await save.click();
        await expect
          .poll(async () => {
            const res = await test.admin.get(`/api/admin/sites/${siteId}`);
            const site = (await res.json()) as {
              hours: { weekly: Record<string, unknown>; exceptions: unknown[] };
            };
            return [site.hours.weekly[hoursDayOf(today)], site.hours.exceptions];
          }, POLL)
          .toEqual([[{ start, end }], [{ date: tomorrow, ranges: [], note }]]);
        // The logo, once: a PNG from the file picker.
        if (index === 0) {
          // The file input (its section is named "Logo" too).
          await staff
            .getByLabel(t.logo)
            .and(staff.locator('input[type="file"]'))
            .setInputFiles({
              name: 'logo.png',
              mimeType: 'image/png',
              buffer: makePng(48, 16),
            });
          await main(staff).getByRole('button', { name: t.upload, exact: true }).click();
          await main(staff).locator('img.site-logo__preview').waitFor(POLL);
        }
        await expectAccessible(staff, `site edit with hours (${lang}, ${viewport.width} px)`);
        await fitsWidth(staff, viewport.width);
        expect(staffLog.errors).toEqual([]);
      } finally {
        await staff.context().close();
      }

      const page = await openVisitorPage(test.browser, viewport, lang);
      const log = watchPage(page);
      try {
        await page.goto(`${test.server.baseUrl}/`);
        await h1(page, t.chooser).waitFor();
        const card = main(page)
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: t.siteName }) });
        const todayRow = card.locator('.site-hours__day--today');
        await reloadUntilVisible(page, todayRow.getByText(`${start}–${end}`));
        await card.getByRole('heading', { level: 3, name: t.hours }).waitFor();
        await todayRow.getByText(`${day} (${t.today})`).waitFor();
        await card.getByText(`${shown(tomorrow)}: ${t.closed} – ${note}`).waitFor();
        // The logo beside the site's name, for the eye only (the name says it).
        const logo = card.locator('img.site-details__logo');
        await logo.waitFor();
        expect(await logo.getAttribute('alt')).toBe('');
        expect(await logo.getAttribute('src')).toMatch(/\/api\/sites\/[0-9a-f-]+\/logo\?v=/);
        await expect
          .poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth))
          .toBe(48);
        await expectAccessible(page, `site chooser with hours (${lang}, ${viewport.width} px)`);
        await fitsWidth(page, viewport.width);

        // Above the site's pages: today's hours.
        await page.goto(`${test.server.baseUrl}/s/${SITE.slug}/`);
        const bar = main(page).getByRole('region', { name: t.site, exact: true });
        await bar.getByText(`${t.todayLine}: ${start}–${end}`).waitFor(POLL);
        await expectAccessible(page, `site bar with hours (${lang}, ${viewport.width} px)`);
        await fitsWidth(page, viewport.width);
        expect(log.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }

  it('shows today’s hours and the logo on the site’s display', async () => {
    const page = await openVisitorPage(test.browser, DESKTOP, 'de');
    try {
      await page.goto(`${test.server.baseUrl}/display?site=${SITE.slug}`);
      await page.getByText(SITE.name, { exact: true }).waitFor(POLL);
      await page.getByText(/^Heute: \d\d:\d\d–\d\d:\d\d/).waitFor(POLL);
      await page.locator('img.display__site-logo').waitFor();
      await expectAccessible(page, 'display of a site with hours');
    } finally {
      await page.context().close();
    }
  });
});
