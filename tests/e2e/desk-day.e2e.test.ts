import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  E2E_ADMIN,
  eventually,
  expectAccessible,
  launchBrowser,
  startServer,
  type RunningServer,
} from './harness.ts';
import { LANGS, VIEWPORTS, openStaffPage, signInAs, type Lang } from './staff-ux-support.ts';
import { signInAdmin, waitForReadModels } from './test-rooms.ts';
import { dotted, libraryMinutes, libraryTime, middayZone, nextDay } from './dates.ts';

/**
 * The desk's day in Chromium: the dashboard's today (current and next slot, check-in tile,
 * overbooked alert) and the check-in screen's answers to a code of another day and to one
 * already checked in (when and by whom), in German and English at 375×740 and 1280×900, and a
 * ticket's history naming every event in words (at 768×1024 too). The library runs in a zone
 * where the test starts about noon (so its whole-day slot runs however late the machine's clock
 * is) and the browser in UTC, hours away: every shown time is the library's.
 */
const ROOM = 'Pult-Lesesaal';
const ZONE = middayZone();
/** The tablet's size, beside the staff screens' phone and desktop. */
const TABLET = { width: 768, height: 1024 } as const;

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;

let today: string;
let tomorrow: string;
let checkedInNumber: string;
let checkedInTime: string;
let tomorrowNumber: string;
/** A walk-in checked in with the booking whose check-in the desk took back. */
let undoneTicket: string;
/** What the history may show as the time of tomorrow's booking (the library's, minute by minute). */
let tomorrowBookedAt: string[];

let people = 0;
async function staffBook(
  roomId: string,
  slotId: string,
): Promise<{ bookingNumber: string; ticketId: string; checkedInAt: string | null }> {
  const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`, {
    json: {
      salutation: 'MS',
      firstName: 'Erika',
      lastName: `Pult${++people}`,
      phone: '+43111222',
      accessibility: false,
      confirmOverbooking: true,
    },
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json()) as {
    bookingNumber: string;
    ticketId: string;
    checkedInAt: string | null;
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: ZONE });
  browser = await launchBrowser();
  admin = await signInAdmin(server.baseUrl);
  today = libraryTime(new Date(), ZONE).date;
  tomorrow = nextDay(today);
  const roomId = await createRoom(admin, ROOM);
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  // The whole library day, overbooked by one: 3 tickets for 2 seats.
  const slotId = await createSlot(admin, roomId, today, '00:00', '23:59', 2);
  // The slot has started: each walk-in booked at the desk is checked in with the booking. The
  // first stays so; the desk takes the others' check-ins back (within the undo time).
  const first = await staffBook(roomId, slotId);
  checkedInNumber = first.bookingNumber;
  checkedInTime = libraryTime(new Date(first.checkedInAt!), ZONE).time;
  for (const walkIn of [await staffBook(roomId, slotId), await staffBook(roomId, slotId)]) {
    const undo = await admin.request('DELETE', `/api/admin/tickets/${walkIn.ticketId}/check-in`);
    expect(undo.status, await undo.clone().text()).toBe(200);
    undoneTicket = walkIn.ticketId;
  }
  const later = await createSlot(admin, roomId, tomorrow, '10:00', '12:00', 4);
  const bookingFrom = new Date();
  tomorrowNumber = (await staffBook(roomId, later)).bookingNumber;
  const bookingTo = new Date();
  tomorrowBookedAt = libraryMinutes(bookingFrom, bookingTo, ZONE).map(
    (time) => `${dotted(libraryTime(bookingTo, ZONE).date)} ${time}`,
  );
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const TEXTS = {
  de: {
    day: (date: string) => new RegExp(`^Heute, ${date} \\(Stand \\d\\d:\\d\\d Uhr\\)$`),
    now: 'Jetzt: 00:00-23:59',
    booked: '3 von 2',
    checkedIn: '1 von 3 eingecheckt',
    alert: `Überbucht: ${ROOM}, 00:00-23:59, 3 Reservierungen bei Kapazität 2`,
    checkInTitle: 'Check-in',
    code: 'QR-Referenz oder Buchungsnummer',
    submit: 'Einchecken',
    status: (time: string) => `Eingecheckt um ${time} von ${E2E_ADMIN.username}`,
    already: (time: string) =>
      `Erika Pult1 ist bereits eingecheckt: um ${time} Uhr von ${E2E_ADMIN.username}.`,
    otherDay: (date: string) =>
      `Diese Buchung ist nicht für heute: ${date}, 10:00-12:00 Uhr, ${ROOM}.`,
    found: (count: number) => `${count} gebuchte Reservierung${count === 1 ? '' : 'en'}`,
    search: 'Suchen',
    history: 'Verlauf der Reservierung',
    checkedInWhat: 'Eingecheckt',
    undoneWhat: 'Check-in rückgängig gemacht',
  },
  en: {
    day: (date: string) => new RegExp(`^Today, ${date} \\(as of \\d\\d:\\d\\d\\)$`),
    now: 'Now: 00:00-23:59',
    booked: '3 of 2',
    checkedIn: '1 of 3 checked in',
    alert: `Overbooked: ${ROOM}, 00:00-23:59, 3 reservations for a capacity of 2`,
    checkInTitle: 'Check-in',
    code: 'QR reference or booking number',
    submit: 'Check in',
    status: (time: string) => `Checked in at ${time} by ${E2E_ADMIN.username}`,
    already: (time: string) =>
      `Erika Pult1 is already checked in: at ${time} by ${E2E_ADMIN.username}.`,
    otherDay: (date: string) => `This booking is not for today: ${date}, 10:00-12:00, ${ROOM}.`,
    found: (count: number) => `${count} booked reservation${count === 1 ? '' : 's'}`,
    search: 'Search',
    history: 'History of the reservation',
    checkedInWhat: 'Checked in',
    undoneWhat: 'Check-in undone',
  },
} as const;

/** Whether the page scrolls sideways (it must not, at any size). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function openAsAdmin(lang: Lang, viewport: { width: number; height: number }) {
  // The device in UTC, the library one to twelve hours away.
  const page = await openStaffPage(browser, viewport, lang, 'UTC');
  await signInAs(page, server.baseUrl, lang);
  return page;
}

describe("the desk's day", () => {
  for (const lang of LANGS)
    for (const viewport of VIEWPORTS)
      it(`shows today's rooms, check-in and alerts in the library's time (${lang}, ${viewport.width} px)`, async () => {
        const texts = TEXTS[lang];
        const page = await openAsAdmin(lang, viewport);
        const main = page.getByRole('main');
        await main.getByRole('heading', { level: 2, name: texts.day(dotted(today)) }).waitFor();
        const room = main.locator('.desk-room').filter({ hasText: ROOM });
        await room.getByRole('heading', { level: 4, name: texts.now }).waitFor();
        await room.getByText(texts.booked, { exact: true }).first().waitFor();
        await main.getByText(texts.checkedIn, { exact: true }).waitFor();
        await main.getByRole('link', { name: texts.alert }).waitFor();
        expect(await scrollsSideways(page)).toBe(false);
        await expectAccessible(page, `dashboard ${lang} ${viewport.width}`);
        await page.context().close();
      });
});

describe('the check-in screen', () => {
  for (const lang of LANGS)
    for (const viewport of VIEWPORTS)
      it(`says when and by whom, and names another day's booking (${lang}, ${viewport.width} px)`, async () => {
        const texts = TEXTS[lang];
        const page = await openAsAdmin(lang, viewport);
        await page.goto(`${server.baseUrl}/admin/check-in`);
        const main = page.getByRole('main');
        const row = main.locator('tbody tr').filter({ hasText: 'Erika Pult1' });
        await row.getByText(texts.status(checkedInTime), { exact: true }).waitFor();
        // The buttons of the others are in view without scrolling sideways.
        const button = main
          .locator('tbody tr')
          .filter({ hasText: 'Erika Pult2' })
          .getByRole('button', { name: new RegExp(`^${texts.submit}`) });
        await button.waitFor();
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(await scrollsSideways(page)).toBe(false);

        const code = main.getByLabel(texts.code);
        await code.fill(checkedInNumber);
        await main.getByRole('button', { name: texts.submit, exact: true }).click();
        await eventually(() => main.getByRole('alert').innerText()).toBe(
          texts.already(checkedInTime),
        );
        await code.fill(tomorrowNumber.toLowerCase());
        await main.getByRole('button', { name: texts.submit, exact: true }).click();
        await eventually(() => main.getByRole('alert').innerText()).toBe(
          texts.otherDay(dotted(tomorrow)),
        );
        expect(await scrollsSideways(page)).toBe(false);
        await expectAccessible(page, `check-in ${lang} ${viewport.width}`);
        await page.context().close();
      });
});

/** The texts of one column of the page's table, row by row (spaces folded). */
const column = (page: Page, index: number) =>
  page
    .getByRole('main')
    .locator('table tbody tr')
    .evaluateAll(
      (rows, n) =>
        rows.map((row) =>
          (row.querySelectorAll('td')[n]?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        ),
      index,
    );

describe('the reservations list', () => {
  for (const lang of LANGS)
    for (const viewport of VIEWPORTS)
      it(`sorts by date and time, finds a booking number, and its history is in the library's time (${lang}, ${viewport.width} px)`, async () => {
        const texts = TEXTS[lang];
        const page = await openAsAdmin(lang, viewport);
        await page.goto(`${server.baseUrl}/admin/reservations`);
        const main = page.getByRole('main');
        await main.getByText(texts.found(4)).waitFor();
        // From the library's today on (not the device's), by date and time, a slot's by name.
        expect(await main.locator('#reservations-from').inputValue()).toBe(today);
        expect(await column(page, 4)).toEqual([
          ...Array.from({ length: 3 }, () => `${dotted(today)} 00:00-23:59`),
          `${dotted(tomorrow)} 10:00-12:00`,
        ]);
        expect((await column(page, 1)).map((name) => /Pult\d/.exec(name)?.[0])).toEqual([
          'Pult1',
          'Pult2',
          'Pult3',
          'Pult4',
        ]);
        // A booking number, typed in small letters, finds its booking.
        await main.locator('#reservations-term').fill(tomorrowNumber.toLowerCase());
        await main.getByRole('button', { name: texts.search, exact: true }).click();
        await main.getByText(texts.found(1)).waitFor();
        await eventually(() => column(page, 4)).toEqual([`${dotted(tomorrow)} 10:00-12:00`]);
        expect(await scrollsSideways(page)).toBe(false);
        await expectAccessible(page, `reservations ${lang} ${viewport.width}`);

        // Its history: when it was booked, in the library's time.
        await main.locator('tbody tr').first().getByRole('link').click();
        await main.getByRole('link', { name: texts.history }).click();
        await page.getByRole('heading', { level: 1, name: texts.history }).waitFor();
        await main.locator('tbody tr').first().waitFor();
        const when = await column(page, 0);
        expect(when.length).toBeGreaterThan(0);
        for (const time of when) expect(tomorrowBookedAt).toContain(time);
        expect(await scrollsSideways(page)).toBe(false);
        await page.context().close();
      });
});

describe('the history of a ticket', () => {
  for (const lang of LANGS)
    for (const viewport of [...VIEWPORTS, TABLET])
      it(`names every event in words, none by its code name (${lang}, ${viewport.width} px)`, async () => {
        const texts = TEXTS[lang];
        const page = await openAsAdmin(lang, viewport);
        // A walk-in checked in with the booking, its check-in taken back by the desk.
        await page.goto(`${server.baseUrl}/admin/reservations/${undoneTicket}/history`);
        await page.getByRole('heading', { level: 1, name: texts.history }).waitFor();
        const main = page.getByRole('main');
        await main.getByRole('cell', { name: texts.undoneWhat, exact: true }).waitFor();
        const whats = await column(page, 1);
        expect(whats).toEqual(expect.arrayContaining([texts.checkedInWhat, texts.undoneWhat]));
        for (const what of whats) expect(what).not.toMatch(/[a-z][A-Z]|\w_\w/);
        expect(await scrollsSideways(page)).toBe(false);
        await expectAccessible(page, `ticket history ${lang} ${viewport.width}`);
        await page.context().close();
      });
});
