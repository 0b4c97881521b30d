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

/**
 * The desk's day in Chromium: the dashboard's today (current and next slot, check-in tile,
 * overbooked alert) and the check-in screen's answers to a code of another day and to one
 * already checked in (when and by whom), in German and English at 375×740 and 1280×900. The
 * library runs in Europe/Vienna and the browser in UTC: every shown time is the library's.
 */
const LIBRARY_ZONE = 'Europe/Vienna';
const ROOM = 'Pult-Lesesaal';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;

/** The library's date and time of an instant (`YYYY-MM-DD`, `HH:mm`). */
function libraryTime(instant: Date): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: LIBRARY_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}
const dotted = (date: string) => date.split('-').reverse().join('.');
const nextDay = (date: string) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

let today: string;
let tomorrow: string;
let checkedInNumber: string;
let checkedInTime: string;
let tomorrowNumber: string;

let people = 0;
async function staffBook(roomId: string, slotId: string): Promise<{ bookingNumber: string }> {
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
  return (await r.json()) as { bookingNumber: string };
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: LIBRARY_ZONE });
  browser = await launchBrowser();
  admin = await signInAdmin(server.baseUrl);
  today = libraryTime(new Date()).date;
  tomorrow = nextDay(today);
  const roomId = await createRoom(admin, ROOM);
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  // The whole library day, overbooked by one: 3 tickets for 2 seats.
  const slotId = await createSlot(admin, roomId, today, '00:00', '23:59', 2);
  checkedInNumber = (await staffBook(roomId, slotId)).bookingNumber;
  await staffBook(roomId, slotId);
  await staffBook(roomId, slotId);
  const later = await createSlot(admin, roomId, tomorrow, '10:00', '12:00', 4);
  tomorrowNumber = (await staffBook(roomId, later)).bookingNumber;
  const r = await admin.request('POST', '/api/admin/check-in', {
    json: { code: checkedInNumber },
  });
  expect(r.status, await r.clone().text()).toBe(200);
  const { checkedInAt } = (await r.json()) as { checkedInAt: string };
  checkedInTime = libraryTime(new Date(checkedInAt)).time;
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
    alert: `Überbucht: ${ROOM}, 00:00-23:59, 3 Tickets für 2 Plätze`,
    checkInTitle: 'Check-in',
    code: 'QR-Referenz oder Buchungsnummer',
    submit: 'Einchecken',
    status: (time: string) => `Eingecheckt um ${time} von ${E2E_ADMIN.username}`,
    already: (time: string) =>
      `Erika Pult1 ist bereits eingecheckt: um ${time} Uhr von ${E2E_ADMIN.username}.`,
    otherDay: (date: string) =>
      `Diese Buchung ist nicht für heute: ${date}, 10:00-12:00 Uhr, ${ROOM}.`,
  },
  en: {
    day: (date: string) => new RegExp(`^Today, ${date} \\(as of \\d\\d:\\d\\d\\)$`),
    now: 'Now: 00:00-23:59',
    booked: '3 of 2',
    checkedIn: '1 of 3 checked in',
    alert: `Overbooked: ${ROOM}, 00:00-23:59, 3 tickets for 2 seats`,
    checkInTitle: 'Check-in',
    code: 'QR reference or booking number',
    submit: 'Check in',
    status: (time: string) => `Checked in at ${time} by ${E2E_ADMIN.username}`,
    already: (time: string) =>
      `Erika Pult1 is already checked in: at ${time} by ${E2E_ADMIN.username}.`,
    otherDay: (date: string) => `This booking is not for today: ${date}, 10:00-12:00, ${ROOM}.`,
  },
} as const;

/** Whether the page scrolls sideways (it must not, at any size). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function openAsAdmin(lang: Lang, viewport: { width: number; height: number }) {
  // The device in UTC, the library in Vienna: an hour or two apart all year.
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
