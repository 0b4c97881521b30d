// Closed days explained, in the browser (docs/product.md#screens, "Calendar", and #closures): a
// day closed for "Wasserschaden" names the closure's reason in its cell, its name and its dialog;
// a holiday kept open says "geöffnet"/"open" beside "frei"/"free"; a day after the booking window
// says from which day it can be booked online, and the foyer display says the same day. At
// 375×740, 768×1024 and 1280×900, German and English, the browser in UTC beside a library in
// Vienna, axe clean on every screen visited.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { LIBRARY_ZONE, libraryTime } from './dates.ts';
import {
  expectAccessible,
  LANGS,
  newContext,
  PHONE_TABLET_DESKTOP,
  startBrowserTest,
  watchPage,
  type Lang,
  type RunningServer,
} from './harness.ts';
import { signInAdmin, waitForReadModels } from './test-rooms.ts';
import { dialog, h1, main, openVisitorPage, serveAs } from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;

const CLOSED_ROOM = 'Lesesaal am Fluss';
const LATER_ROOM = 'Lesesaal auf Vorrat';
const REASON = 'Wasserschaden';
const HOLIDAY = 'Mariä Empfängnis';

/** The library's today and the test's days, as `YYYY-MM-DD`. */
const today = libraryTime(new Date()).date;
const closedDay = addDays(today, 1);
const openHoliday = addDays(today, 2);
const laterDay = addDays(today, 12);
let closedRoomId = '';
let laterRoomId = '';
/** The day the later day opens online, by the server's rule (GET /rooms/{id}/calendar). */
let opensOn = '';

const TEXTS = {
  de: {
    locale: 'de',
    chooseRoom: 'Platz reservieren',
    next: 'Nächster Monat',
    closed: `geschlossen: ${REASON}`,
    open: `${HOLIDAY}: geöffnet`,
    free: 'frei',
    noSlots: 'An diesem Tag gibt es keine Zeitfenster.',
    opens: (d: string) => `ab ${d.slice(8, 10)}.${d.slice(5, 7)}. online buchbar`,
    legend: 'Legende',
    later: 'noch nicht online buchbar',
  },
  en: {
    locale: 'en-GB',
    chooseRoom: 'Book a seat',
    next: 'Next month',
    closed: `closed: ${REASON}`,
    open: `${HOLIDAY}: open`,
    free: 'free',
    noSlots: 'There are no time slots on this day.',
    opens: (d: string) =>
      `bookable online from ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(localDay(d))}`,
    legend: 'Legend',
    later: 'not yet bookable online',
  },
} as const;

/** A `YYYY-MM-DD` day as the browser's local date (the calendar's grid is by local dates). */
function localDay(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}
const longDate = (lang: Lang, date: string) =>
  new Intl.DateTimeFormat(TEXTS[lang].locale, { dateStyle: 'full' }).format(localDay(date));
const monthTitle = (lang: Lang, date: string) =>
  new Intl.DateTimeFormat(TEXTS[lang].locale, { month: 'long', year: 'numeric' }).format(
    localDay(date),
  );

beforeAll(async () => {
  ({ server, browser, stop } = await startBrowserTest({ TIME_ZONE: LIBRARY_ZONE }));
  const admin = await signInAdmin(server.baseUrl);
  // Bookable from today for 5 days: the closed day and the holiday lie in the window.
  closedRoomId = await createRoom(admin, CLOSED_ROOM, {
    openStartValue: 0,
    openEndValue: 5,
    openEndType: 'DAY',
  });
  laterRoomId = await createRoom(admin, LATER_ROOM, {
    openStartValue: 0,
    openEndValue: 5,
    openEndType: 'DAY',
  });
  await createSlot(admin, closedRoomId, closedDay, '09:00', '12:00', 5);
  await createSlot(admin, closedRoomId, openHoliday, '09:00', '12:00', 5);
  // The later room's only slot lies after its window: the display shows it as its next one.
  await createSlot(admin, laterRoomId, laterDay, '09:00', '12:00', 5);
  const holiday = await admin.request('POST', '/api/admin/holidays', {
    json: { name: HOLIDAY, date: openHoliday },
  });
  expect(holiday.status, await holiday.clone().text()).toBe(201);
  const closure = await admin.request('POST', '/api/admin/closures', {
    json: {
      roomIds: [closedRoomId],
      fromDate: closedDay,
      untilDate: closedDay,
      reason: REASON,
      cancelBookings: false,
    },
  });
  expect(closure.status, await closure.clone().text()).toBe(200);
  await waitForReadModels(admin);
  const calendar = await new Client(server.baseUrl).get(
    `/api/rooms/${laterRoomId}/calendar?fromDate=${laterDay}&untilDate=${laterDay}`,
  );
  opensOn = ((await calendar.json()) as { laterDays: { bookableFrom: string }[] }).laterDays[0]!
    .bookableFrom;
  // Open from today for 5 days: the 12th day opens 12 - 5 days from today.
  expect(opensOn).toBe(addDays(today, 7));
});

afterAll(() => stop?.());

/** Shows the month of a day in the room calendar (at most two months on). */
async function showMonth(page: Page, lang: Lang, date: string): Promise<void> {
  const heading = main(page).getByRole('heading', { level: 2, name: monthTitle(lang, date) });
  const month = main(page).locator('.calendar__month');
  for (let i = 0; i < 3 && !(await heading.isVisible()); i += 1) {
    const shown = (await month.textContent()) ?? '';
    await main(page).getByRole('button', { name: TEXTS[lang].next }).click();
    if (shown !== '') await month.filter({ hasNotText: shown }).waitFor();
  }
  await heading.waitFor();
}

/** Opens a room's calendar in the visitor app. */
async function openRoom(page: Page, lang: Lang, roomId: string, name: string): Promise<void> {
  await page.goto(`${server.baseUrl}/`);
  await h1(page, TEXTS[lang].chooseRoom).waitFor();
  await page.goto(`${server.baseUrl}/room/${roomId}`);
  await h1(page, name).waitFor();
}

/** Opens a day's dialog, checks its note, and closes it again. */
async function dayDialogSays(page: Page, lang: Lang, date: string, note: string): Promise<void> {
  await dialog(page)
    .getByRole('heading', { name: longDate(lang, date) })
    .waitFor();
  await dialog(page).getByText(note, { exact: true }).waitFor();
}

describe('closed days explained', () => {
  for (const lang of LANGS)
    for (const viewport of PHONE_TABLET_DESKTOP) {
      const size = `${viewport.width}×${viewport.height}`;
      it(`names the closure's reason, the open holiday and the day bookable online from (${lang}, ${size})`, async () => {
        const t = TEXTS[lang];
        const page = await openVisitorPage(browser, viewport, lang, 'UTC');
        const log = watchPage(page);
        await openRoom(page, lang, closedRoomId, CLOSED_ROOM);

        // The closed day: its reason in its cell, its name and its dialog, not "no time slots".
        await showMonth(page, lang, closedDay);
        const closed = main(page).getByRole('button', {
          name: `${longDate(lang, closedDay)}, ${t.closed}`,
          exact: true,
        });
        expect(await closed.locator('.calendar__note').textContent()).toBe(t.closed);
        await closed.click();
        await dayDialogSays(page, lang, closedDay, t.closed);
        await dialog(page).getByText(t.noSlots).waitFor();
        await expectAccessible(page, `day dialog of a closed day (${lang}, ${size})`);
        await page.keyboard.press('Escape');
        await dialog(page).waitFor({ state: 'hidden' });

        // The holiday kept open: "open" beside "free", and its slot to book.
        await showMonth(page, lang, openHoliday);
        const holiday = main(page).getByRole('button', {
          name: `${longDate(lang, openHoliday)}, ${t.open}, ${t.free}`,
          exact: true,
        });
        expect(await holiday.locator('.calendar__note').textContent()).toBe(t.open);
        await expectAccessible(page, `room calendar with a closed day (${lang}, ${size})`);
        await holiday.click();
        await dayDialogSays(page, lang, openHoliday, t.open);
        await dialog(page).locator('.slot-list__item').first().waitFor();
        await page.keyboard.press('Escape');
        await dialog(page).waitFor({ state: 'hidden' });

        // The day after the booking window: from which day it can be booked online.
        await openRoom(page, lang, laterRoomId, LATER_ROOM);
        await showMonth(page, lang, laterDay);
        const later = main(page).getByRole('button', {
          name: `${longDate(lang, laterDay)}, ${t.opens(opensOn)}`,
          exact: true,
        });
        await later.waitFor();
        await main(page).getByRole('list', { name: t.legend }).getByText(t.later).waitFor();
        await later.click();
        await dayDialogSays(page, lang, laterDay, t.opens(opensOn));
        await expectAccessible(page, `day dialog of a day not yet bookable (${lang}, ${size})`);
        await page.keyboard.press('Escape');
        expect(log.errors).toEqual([]);
        await page.context().close();

        // The foyer display of that room says the same day.
        const screen = await (await newContext(browser, viewport, lang, 'UTC')).newPage();
        await serveAs(screen, lang, { 'data-room-id': laterRoomId });
        await screen.goto(`${server.baseUrl}/display/`);
        const room = screen.getByRole('region', { name: LATER_ROOM });
        await room.waitFor();
        await expect
          .poll(async () => (await room.innerText()).replace(/\u00ad/g, ''))
          .toContain(t.opens(opensOn));
        await expectAccessible(screen, `display of a room not yet bookable (${lang}, ${size})`);
        await screen.context().close();
      });
    }
});
