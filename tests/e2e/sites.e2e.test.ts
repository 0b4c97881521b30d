import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { budget } from '../support/time-budget.ts';
import {
  expectAccessible,
  launchBrowser,
  reloadUntilVisible,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { DESKTOP, openStaffPage, PHONE, signInAs } from './staff-ux-support.ts';
import { dialog, h1, main } from './visitor-pages.ts';

/**
 * The staff's sites (docs/product.md#sites): an admin adds a site with the site form, a room joins
 * it through the room form's site select, the list counts the room, and deleting the site is
 * refused while the room belongs to it; the first site offers no delete. Each width adds its own
 * site; both first try the first site's slug, which the server refuses on the slug field.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const HAS_ROOMS = 'Zu diesem Standort gehören noch Räume. Verschieben oder löschen Sie sie zuerst.';
const SLUG_TAKEN =
  'Ein anderer Standort hat diesen Kurznamen bereits. Bitte wählen Sie einen anderen.';
/** How long a poll waits for what the page shows next (stretched on a slow machine). */
const POLL = { timeout: budget(15_000) };
const VERSION_CONFLICT = 'Die Daten wurden inzwischen geändert.';
const RUNS = [
  { viewport: DESKTOP, site: 'Fachbibliothek Jura', slug: 'jura', room: 'Gruppenraum Jura' },
  { viewport: PHONE, site: 'Fachbibliothek Medizin', slug: 'medizin', room: 'Gruppenraum Medizin' },
] as const;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/**
 * Another staff member's save of the site (its phone changed), sent with the page's session as
 * the staff app sends it; answers the status once reads show the change.
 */
function changeMeanwhile(page: Page, siteId: string, phone: string): Promise<number> {
  return page.evaluate(
    async ({ id, phone }) => {
      const headers = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
      const current = (await (await fetch(`/api/admin/sites/${id}`, { headers })).json()) as Record<
        string,
        unknown
      >;
      // The request names the site's details and version; empty details are left out.
      const body = Object.fromEntries(
        Object.entries({ ...current, phone }).filter(
          ([key, value]) => value !== null && key !== 'id' && key !== 'roomCount',
        ),
      );
      const answer = await fetch(`/api/admin/sites/${id}`, {
        method: 'PUT',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      // Done once reads show it, as they would to that other staff member's next page.
      for (let tries = 0; answer.ok && tries < 200; tries++) {
        const read = (await (await fetch(`/api/admin/sites/${id}`, { headers })).json()) as {
          phone?: string;
        };
        if (read.phone === phone) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return answer.status;
    },
    { id: siteId, phone },
  );
}

/**
 * What the page's own write changed. Its read waits for the write (read-your-writes), but on a
 * machine busier than that wait it is answered from before it (X-Read-Stale); then a reload, as a
 * person would, reads again.
 */
async function afterOwnWrite(page: Page, locator: Locator): Promise<void> {
  try {
    await locator.waitFor({ timeout: budget(20_000) });
  } catch {
    await reloadUntilVisible(page, locator);
  }
}

/**
 * A form saved leads to its list (its heading); the short-lived notice beside it is not waited
 * for, as a busy machine may take longer than it shows. A form still showing names its message.
 */
async function savedTo(page: Page, listHeading: string): Promise<void> {
  try {
    await h1(page, listHeading).waitFor();
  } catch (error) {
    const shown = await main(page)
      .innerText()
      .catch(() => '');
    throw new Error(`not on "${listHeading}" after saving; the page shows:\n${shown}`, {
      cause: error,
    });
  }
}

/** Nothing of the page is wider than the window (a wide table scrolls inside its region). */
async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

/** The choices of the room form's first "kind of days" select. */
async function dayTypeChoices(page: Page): Promise<string[]> {
  const select = page.getByLabel('Art der Tage').first();
  await select.waitFor();
  return select.locator('option').allTextContents();
}

describe('staff manage sites', () => {
  // Before a second site: the booking window's kinds of days are the two they always were. (The
  // tests of this file run in order: the next ones add sites.)
  it('offers a room of the one site no "as at the site" window (1280 px)', async () => {
    const page = await openStaffPage(browser, DESKTOP, 'de');
    try {
      await signInAs(page, server.baseUrl, 'de');
      await page.goto(`${server.baseUrl}/admin/room-add`);
      await h1(page, 'Raum hinzufügen').waitFor();
      expect(await dayTypeChoices(page)).toEqual(['Kalendertage', 'Werktage']);
    } finally {
      await page.context().close();
    }
  });

  for (const { viewport, site, slug, room } of RUNS) {
    it(`adds a site, a room in it, and cannot delete it while the room is there (${viewport.width} px)`, async () => {
      const page = await openStaffPage(browser, viewport, 'de');
      const log = watchPage(page);
      try {
        await signInAs(page, server.baseUrl, 'de');
        await page.getByRole('link', { name: 'Standorte', exact: true }).first().waitFor();
        await page.goto(`${server.baseUrl}/admin/sites`);
        await h1(page, 'Standorte').waitFor();
        const firstRow = main(page)
          .getByRole('row')
          .filter({ has: page.getByRole('cell', { name: 'bibliothek', exact: true }) });
        await firstRow.waitFor();
        // The first site is never deleted: its row offers no delete.
        expect(await firstRow.getByRole('button', { name: /^Löschen/ }).count()).toBe(0);
        await expectAccessible(page, `site list (${viewport.width} px)`);
        await fitsWidth(page, viewport.width);

        // The site form: checked before sending, then a slug another site has is refused.
        await main(page).getByRole('link', { name: 'Standort anlegen' }).click();
        await h1(page, 'Standort anlegen').waitFor();
        const submit = main(page).getByRole('button', { name: 'Standort anlegen' });
        await submit.click();
        const name = page.getByLabel(/^Name/);
        await expect.poll(() => name.getAttribute('aria-invalid'), POLL).toBe('true');
        await expectAccessible(page, `site form with errors (${viewport.width} px)`);
        await name.fill(site);
        const slugField = page.getByLabel(/^Kurzname/);
        await slugField.fill('bibliothek');
        await page.getByLabel(/^Kontakt-E-Mail/).fill(`${slug}@bibliothek.example`);
        await page.getByLabel(/^Postanschrift/).fill('Juridicum\nSchottenbastei 10\n1010 Wien');
        await page.getByLabel(/^Telefon/).fill('+43 1 4277 0');
        await page.getByLabel(/^Grußformel/).fill(`Ihr Team der ${site}`);
        await submit.click();
        await main(page).getByRole('alert').filter({ hasText: SLUG_TAKEN }).waitFor();
        await expect.poll(() => slugField.getAttribute('aria-invalid'), POLL).toBe('true');
        await expectAccessible(page, `site form with the refused slug (${viewport.width} px)`);
        await fitsWidth(page, viewport.width);
        await slugField.fill(slug);
        await submit.click();
        await savedTo(page, 'Standorte');
        const row = main(page)
          .getByRole('row')
          .filter({ has: page.getByRole('cell', { name: slug, exact: true }) });
        await afterOwnWrite(page, row.getByRole('cell', { name: site, exact: true }));
        await row.getByRole('cell', { name: `${slug}@bibliothek.example`, exact: true }).waitFor();
        await row.getByRole('cell', { name: '0', exact: true }).waitFor();

        // The edit form starts from the site as saved; a change shows in the list.
        await row.getByRole('link', { name: /^Bearbeiten/ }).click();
        await h1(page, 'Standort bearbeiten').waitFor();
        expect(await page.getByLabel(/^Kurzname/).inputValue()).toBe(slug);
        expect(await page.getByLabel(/^Postanschrift/).inputValue()).toBe(
          'Juridicum\nSchottenbastei 10\n1010 Wien',
        );
        await expectAccessible(page, `site edit (${viewport.width} px)`);
        await page.getByLabel(/^Kontakt-E-Mail/).fill(`auskunft.${slug}@bibliothek.example`);
        // Someone else changes the site meanwhile: the save is refused and the form reloads.
        const siteId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
        expect(await changeMeanwhile(page, siteId, '+4315550100')).toBe(200);
        const save = main(page).getByRole('button', { name: 'Speichern', exact: true });
        await save.click();
        await main(page).getByRole('alert').filter({ hasText: VERSION_CONFLICT }).waitFor();
        await expect.poll(() => page.getByLabel(/^Telefon/).inputValue(), POLL).toBe('+4315550100');
        await page.getByLabel(/^Kontakt-E-Mail/).fill(`auskunft.${slug}@bibliothek.example`);
        await save.click();
        await savedTo(page, 'Standorte');
        await afterOwnWrite(
          page,
          row.getByRole('cell', { name: `auskunft.${slug}@bibliothek.example`, exact: true }),
        );

        // The room form offers the site once there is more than one.
        await page.goto(`${server.baseUrl}/admin/room-add`);
        await h1(page, 'Raum hinzufügen').waitFor();
        const siteSelect = page.getByLabel(/^Standort/);
        await siteSelect.waitFor();
        await siteSelect.selectOption({ label: site });
        // With several sites a room may leave its window's bounds to its site.
        expect(await dayTypeChoices(page)).toEqual(['Wie am Standort', 'Kalendertage', 'Werktage']);
        await page.getByLabel(/^Name/).fill(room);
        await page.getByLabel(/^Beschreibung/).fill('Sechs Plätze an einem großen Tisch');
        await page.getByLabel(/^Kapazität/).fill('6');
        await expectAccessible(page, `room form with the site select (${viewport.width} px)`);
        await main(page).getByRole('button', { name: 'Raum anlegen' }).click();
        await savedTo(page, 'Räume');

        await page.goto(`${server.baseUrl}/admin/sites`);
        await afterOwnWrite(page, row.getByRole('cell', { name: '1', exact: true }));

        // Deleting the site is refused while the room belongs to it; the site stays.
        await row.getByRole('button', { name: /^Löschen/ }).click();
        await dialog(page).waitFor();
        await expectAccessible(page, `site delete confirmation (${viewport.width} px)`);
        await dialog(page).getByRole('button', { name: 'Ja, Standort löschen' }).click();
        await dialog(page).getByText(HAS_ROOMS).waitFor();
        await expectAccessible(page, `site delete refused (${viewport.width} px)`);
        await dialog(page).getByRole('button', { name: 'Abbrechen' }).click();
        await dialog(page).waitFor({ state: 'detached' });
        await row.getByRole('cell', { name: '1', exact: true }).waitFor();

        // The refused requests (the slug, the delete) are the only console errors.
        expect(log.errors.filter((e) => !/409/.test(e))).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});
