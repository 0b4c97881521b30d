// The reservations list prints every matching row, e-mail addresses
// wrap only between their parts, and at 375 px every field of a row is on screen (cards); the
// filters and the sort live in the address and survive a reload, also of a reservation.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, expectAccessible, type RunningServer } from './harness.ts';
import { iso, shown, weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import {
  DESKTOP,
  LANGS,
  PHONE,
  openStaffPage,
  signInAs,
  visitorBooks,
  type Lang,
} from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
const [day] = weekdaysAhead(1) as [Date];
const TOTAL = 28;
/** First by name: its long address is the one the wrapping checks look at. */
const LONG_EMAIL = 'maximiliane.oberhuber-wiesenthal@example.org';

const TEXTS = {
  de: {
    print: 'Drucken',
    count: `${TOTAL} gebuchte Reservierungen`,
    title: 'Reservierungen',
    search: 'Suchen',
    found: '10 gebuchte Reservierungen',
    back: 'Zurück zur Reservierungsliste',
  },
  en: {
    print: 'Print',
    count: `${TOTAL} booked reservations`,
    title: 'Reservations',
    search: 'Search',
    found: '10 booked reservations',
    back: 'Back to the reservations list',
  },
} as const;

beforeAll(async () => {
  // 28 visitors book from this one address: more carts a minute than the default limit.
  const rooms = await startWithTestRooms({ RATE_LIMIT_CARTS: '1000' });
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  const slot = await createSlot(admin, idOf(FIRST_ROOM), day, '09:00', '12:00', 40);
  let last = await visitorBooks(
    server.baseUrl,
    { firstName: 'Maximiliane', lastName: 'Aaberg', email: LONG_EMAIL },
    [slot],
  );
  for (let i = 1; i < TOTAL; i++) {
    const n = String(i).padStart(2, '0');
    last = await visitorBooks(
      server.baseUrl,
      { firstName: `Vorname${n}`, lastName: `Person${n}`, email: `person${n}@example.org` },
      [slot],
    );
  }
  await waitForReadModels(admin, last);
});

afterAll(() => stop?.());

async function openList(lang: Lang, viewport: { width: number; height: number }): Promise<Page> {
  const page = await openStaffPage(browser, viewport, lang);
  await signInAs(page, server.baseUrl, lang);
  await page.goto(`${server.baseUrl}/admin/reservations`);
  await page.getByRole('heading', { level: 1, name: TEXTS[lang].title, exact: true }).waitFor();
  await page.getByRole('main').getByText(TEXTS[lang].count).waitFor();
  return page;
}

const rows = (page: Page) => page.getByRole('main').locator('table tbody tr');
/** The texts of one column of the table, row by row. */
const cellTexts = (page: Page, column: number) =>
  rows(page).evaluateAll(
    (trs, n) => trs.map((tr) => (tr.querySelectorAll('td')[n]?.textContent ?? '').trim()),
    column,
  );
const visibleRows = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('main table tbody tr')].filter((row) =>
        (row as HTMLElement).checkVisibility(),
      ).length,
  );

/**
 * Where the text of an element wraps that is not between an e-mail's parts: each line break
 * must come before "@" or ".", or after "-". Answers the wrong breaks ("before 'x' at 7").
 */
const wrongBreaks = (cell: Locator) =>
  cell.evaluate((el) => {
    const chars: { char: string; top: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) chars.push({ char: text[i]!, top: Math.round(rect.top) });
      }
    }
    const wrong: string[] = [];
    for (let i = 1; i < chars.length; i++) {
      if (chars[i]!.top <= chars[i - 1]!.top) continue;
      const ok = '@.'.includes(chars[i]!.char) || chars[i - 1]!.char === '-';
      if (!ok) wrong.push(`before '${chars[i]!.char}' at ${i}`);
    }
    return wrong;
  });

describe('reservations list', () => {
  it('prints all matching rows, not only the page on screen', async () => {
    for (const lang of LANGS) {
      const page = await openList(lang, DESKTOP);
      expect(await rows(page).count()).toBe(20);
      await page.evaluate(() => {
        (window as unknown as { printed: number }).printed = 0;
        window.print = () => {
          (window as unknown as { printed: number }).printed += 1;
        };
      });
      await page.getByRole('main').getByRole('button', { name: TEXTS[lang].print }).click();
      await eventually(() =>
        page.evaluate(() => (window as unknown as { printed: number }).printed),
      ).toBe(1);
      await page.emulateMedia({ media: 'print' });
      expect(await visibleRows(page), lang).toBe(TOTAL);
      const pdf = await page.pdf({ format: 'A4' });
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await page.emulateMedia({ media: 'screen' });
      expect(await visibleRows(page), lang).toBe(20);
      // On a wide screen the address is on one line.
      const email = rows(page).first().locator('td').nth(3);
      expect(await email.innerText()).toBe(LONG_EMAIL);
      expect(await wrongBreaks(email)).toEqual([]);
      await expectAccessible(page, `reservations ${lang} 1280`);
      await page.context().close();
    }
  });

  it('at 375 px every field of a row is readable without scrolling sideways', async () => {
    for (const lang of LANGS) {
      const page = await openList(lang, PHONE);
      const first = rows(page).first();
      const cells = first.locator('td');
      // Room, name, organisation, e-mail, date, booking number, status and the edit link: all
      // inside the viewport.
      expect(await cells.count()).toBe(8);
      for (let i = 0; i < 8; i++) {
        const box = (await cells.nth(i).boundingBox())!;
        expect(box.x, `${lang} cell ${i}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${lang} cell ${i}`).toBeLessThanOrEqual(PHONE.width);
      }
      await cells
        .nth(4)
        .getByText(`${shown(day)} 09:00-12:00`)
        .waitFor();
      const edit = first.getByRole('link');
      const link = (await edit.boundingBox())!;
      expect(link.x + link.width).toBeLessThanOrEqual(PHONE.width);
      // Nothing scrolls sideways: neither the page nor the table.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      const wrap = page.getByRole('main').locator('.table-wrap').first();
      expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      // The long address wraps only between its parts.
      expect(await wrongBreaks(cells.nth(3))).toEqual([]);
      await expectAccessible(page, `reservations ${lang} 375`);
      await page.context().close();
    }
  });

  it('keeps the filters and the sort through a full reload, also of a reservation', async () => {
    for (const lang of LANGS) {
      const page = await openList(lang, DESKTOP);
      const main = page.getByRole('main');
      // Persons 10 to 19, from the slot's day on, newest address first.
      await main.locator('#reservations-from').fill(iso(day));
      await main.locator('#reservations-term').fill('person1');
      await main.getByRole('button', { name: TEXTS[lang].search, exact: true }).click();
      await main.getByText(TEXTS[lang].found).waitFor();
      await main.locator('thead button').nth(3).click(); // e-mail, ascending
      await eventually(() => cellTexts(page, 3)).toEqual(
        Array.from({ length: 10 }, (_, i) => `person${10 + i}@example.org`),
      );
      await main.locator('thead button').nth(3).click(); // descending
      await eventually(() => cellTexts(page, 3).then((c) => c[0])).toBe('person19@example.org');
      const search = new URL(page.url()).search;
      expect(search, lang).toMatch(/searchTerm=person1/);

      await page.reload();
      await main.getByText(TEXTS[lang].found).waitFor();
      expect(new URL(page.url()).search, lang).toBe(search);
      expect(await main.locator('#reservations-term').inputValue(), lang).toBe('person1');
      expect(await main.locator('#reservations-from').inputValue(), lang).toBe(iso(day));
      await eventually(() => cellTexts(page, 3).then((c) => c[0])).toBe('person19@example.org');

      // A reservation opened from the list, then loaded anew from its address (no router state):
      // its way back still leads to the list as it was left.
      await rows(page).first().getByRole('link').click();
      await page.getByRole('link', { name: TEXTS[lang].back }).first().waitFor();
      await page.evaluate(() => history.replaceState(null, '', location.href));
      await page.reload();
      await page.getByRole('link', { name: TEXTS[lang].back }).first().click();
      await main.getByText(TEXTS[lang].found).waitFor();
      expect(new URL(page.url()).search, lang).toBe(search);
      expect(await main.locator('#reservations-term').inputValue(), lang).toBe('person1');
      await page.context().close();
    }
  });
});
