// The desk's screens at 375, 768 and 1280 px, in German and English, the browser in UTC and the
// library in Vienna, axe clean on each: the reservations list says each ticket's booking number
// and status and why a ticket was cancelled, finds a booking by a part of its number and keeps
// its actions in view; the room edit keeps the capacity typed when the services are saved, says
// so in view and warns before leaving unsaved changes; the insights' heatmap labels all read and
// the figures are in the page's language; the closure preview's dialog is axe clean.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { eventually, expectAccessible, launchBrowser, startServer } from './harness.ts';
import type { RunningServer } from './harness.ts';
import { iso, LIBRARY_ZONE, shown, weekdaysAhead } from './dates.ts';
import {
  bookAsVisitor,
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  SECOND_ROOM,
  TEST_ROOM_NAMES,
  waitForReadModels,
  type VisitorBooking,
} from './test-rooms.ts';
import { openStaffPage, signInAs, type Lang } from './staff-ux-support.ts';

const THIRD_ROOM = TEST_ROOM_NAMES[2]!;
const VIEWPORTS = [
  { width: 375, height: 740 },
  { width: 768, height: 1024 },
  { width: 1280, height: 900 },
] as const;
const RUNS = VIEWPORTS.flatMap((viewport) =>
  (['de', 'en'] as const).map((lang) => ({ viewport, lang })),
);

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;
const rooms: Record<string, string> = {};
const [day] = weekdaysAhead(1) as [Date];
const booked: Record<string, VisitorBooking> = {};

const TEXTS = {
  de: {
    cancelledCount: '4 stornierte Reservierungen',
    bookedCount: (n: number) => `${n} gebuchte Reservierung${n === 1 ? '' : 'en'}`,
    term: 'Suchbegriff',
    search: 'Suchen',
    status: {
      Vogel: ['Von der Person storniert'],
      Bauer: ['Von der Bibliothek storniert', 'Grund: Doppelt gebucht'],
      Krause: ['Wegen Schließung storniert', 'Grund: Wasserschaden'],
      Moser: [`Verschoben nach ${shown(day)}, 13:00-15:00`],
    },
    booked: 'Gebucht',
    capacity: /^Kapazität/,
    offer: /^Angebotszeit der Warteliste/,
    saveServices: 'Dienste speichern',
    servicesSaved: `Die Dienste von „${THIRD_ROOM}“ wurden gespeichert.`,
    save: 'Speichern',
    cancel: 'Abbrechen',
    roomSaved: `Der Raum „${THIRD_ROOM}“ wurde gespeichert.`,
    unsaved: 'Es gibt ungespeicherte Änderungen. Die Seite trotzdem verlassen?',
    heatmap: 'Auslastung nach Wochentag und Stunde',
    half: '0,5',
    otherHalf: '0.5',
    closureTitle: 'Raum schließen',
    closureRoom: 'Raum',
    from: 'Von',
    until: 'Bis',
    continue: 'Weiter',
  },
  en: {
    cancelledCount: '4 cancelled reservations',
    bookedCount: (n: number) => `${n} booked reservation${n === 1 ? '' : 's'}`,
    term: 'Search term',
    search: 'Search',
    status: {
      Vogel: ['Cancelled by the visitor'],
      Bauer: ['Cancelled by the library', 'Reason: Doppelt gebucht'],
      Krause: ['Cancelled for a closure', 'Reason: Wasserschaden'],
      Moser: [`Moved to ${shown(day)}, 13:00-15:00`],
    },
    booked: 'Booked',
    capacity: /^Capacity/,
    offer: /^Waitlist offer time/,
    saveServices: 'Save services',
    servicesSaved: `The services of “${THIRD_ROOM}” have been saved.`,
    save: 'Save',
    cancel: 'Cancel',
    roomSaved: `The room “${THIRD_ROOM}” has been saved.`,
    unsaved: 'There are unsaved changes. Leave the page anyway?',
    heatmap: 'Occupancy by weekday and hour',
    half: '0.5',
    otherHalf: '0,5',
    closureTitle: 'Close a room',
    closureRoom: 'Room',
    from: 'From',
    until: 'Until',
    continue: 'Continue',
  },
} as const;

const person = (lastName: string) => ({
  firstName: 'Lea',
  lastName,
  email: `${lastName.toLowerCase()}@example.org`,
});

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { TIME_ZONE: LIBRARY_ZONE });
  browser = await launchBrowser();
  const created = await createTestRooms(server.baseUrl);
  admin = created.admin;
  for (const name of TEST_ROOM_NAMES) rooms[name] = created.idOf(name);
  // The insights: one seat of two taken from 8:00 to 20:30, its last half hour 0.5 seat hours.
  const long = await createSlot(admin, rooms[FIRST_ROOM]!, day, '08:00', '20:30', 2);
  await bookAsVisitor(server.baseUrl, [long], person('Imhof'));
  // The reservations list: four cancellations of four kinds and one booking left.
  const morning = await createSlot(admin, rooms[SECOND_ROOM]!, day, '09:00', '11:00', 12);
  const afternoon = await createSlot(admin, rooms[SECOND_ROOM]!, day, '13:00', '15:00', 12);
  const closed = await createSlot(admin, rooms[THIRD_ROOM]!, day, '09:00', '11:00', 12);
  for (const name of ['Vogel', 'Bauer', 'Moser', 'Huber'])
    booked[name] = await bookAsVisitor(server.baseUrl, [morning], person(name));
  booked.Krause = await bookAsVisitor(server.baseUrl, [closed], person('Krause'));
  const visitor = new Client(server.baseUrl);
  const own = await visitor.request(
    'DELETE',
    `/api/owners/${booked.Vogel!.ownerId}/tickets?ids=${booked.Vogel!.ticketIds[0]}`,
  );
  expect(own.status, await own.clone().text()).toBe(200);
  const move = await visitor.request(
    'POST',
    `/api/owners/${booked.Moser!.ownerId}/tickets/${booked.Moser!.ticketIds[0]}/move`,
    { json: { timeSlotId: afternoon } },
  );
  expect(move.status, await move.clone().text()).toBe(200);
  const staff = await admin.request(
    'DELETE',
    `/api/admin/tickets?ids=${booked.Bauer!.ticketIds[0]}&reason=${encodeURIComponent('Doppelt gebucht')}`,
  );
  expect(staff.status, await staff.clone().text()).toBe(200);
  const closure = await admin.request('POST', '/api/admin/closures', {
    json: {
      roomIds: [rooms[THIRD_ROOM]],
      fromDate: iso(day),
      untilDate: iso(day),
      reason: 'Wasserschaden',
      cancelBookings: true,
    },
  });
  expect(closure.status, await closure.clone().text()).toBe(200);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

async function staffPage(viewport: { width: number; height: number }, lang: Lang) {
  const page = await openStaffPage(browser, viewport, lang, 'UTC');
  await signInAs(page, server.baseUrl, lang);
  return page;
}

/** Nothing of the page is wider than the screen (no sideways scrolling of the page). */
async function expectNoPageOverflow(page: Page, label: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${label}: the page scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Whether a box lies inside the viewport (what a person sees without scrolling sideways). */
async function expectInViewport(page: Page, locator: Locator, label: string) {
  const box = (await locator.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(box, label).not.toBeNull();
  expect(box.x, label).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, label).toBeLessThanOrEqual(width);
  expect(box.y, label).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, label).toBeLessThanOrEqual(height);
}

describe('the reservations list', () => {
  for (const { viewport, lang } of RUNS) {
    it(`says why each ticket was cancelled, finds a part of a booking number, keeps the actions in view (${lang}, ${viewport.width} px)`, async () => {
      const label = `${lang} ${viewport.width}`;
      const texts = TEXTS[lang];
      const page = await staffPage(viewport, lang);
      const main = page.getByRole('main');
      await page.goto(`${server.baseUrl}/admin/reservations?searchType=cancelled`);
      await main.getByText(texts.cancelledCount).waitFor();
      const rows = main.locator('table tbody tr');
      expect(await rows.count(), label).toBe(4);
      const statuses: Record<string, readonly string[]> = texts.status;
      for (const [name, status] of Object.entries(statuses)) {
        const row = rows.filter({ hasText: `${name}, Lea` });
        const number = booked[name]!.bookingNumber;
        await row.getByText(number, { exact: true }).waitFor();
        for (const text of status) await row.getByText(text, { exact: true }).waitFor();
      }
      await expectNoPageOverflow(page, label);
      await expectAccessible(page, `reservations, cancelled (${label})`);

      // The booked tab, searched by a part of Huber's booking number in lower case.
      await page.goto(`${server.baseUrl}/admin/reservations`);
      await main.getByText(texts.bookedCount(3)).waitFor();
      const part = booked.Huber!.bookingNumber.slice(3).toLowerCase();
      await main.getByLabel(texts.term).fill(part);
      await main.getByRole('button', { name: texts.search, exact: true }).click();
      await main.getByText(texts.bookedCount(1)).waitFor();
      const row = rows.first();
      await row.getByText('Huber, Lea', { exact: true }).waitFor();
      await row.getByText(booked.Huber!.bookingNumber, { exact: true }).waitFor();
      await row.getByText(texts.booked, { exact: true }).waitFor();
      // The edit link (the actions column) is on the screen, and nothing scrolls sideways.
      const edit = row.getByRole('link');
      await edit.scrollIntoViewIfNeeded();
      await expectInViewport(page, edit, `${label}: the edit link`);
      const wrap = main.locator('.table-wrap').first();
      expect(
        await wrap.evaluate((el) => el.scrollWidth - el.clientWidth),
        label,
      ).toBeLessThanOrEqual(0);
      await expectNoPageOverflow(page, label);
      await expectAccessible(page, `reservations, searched by number (${label})`);
      await page.context().close();
    });
  }
});

describe('the room edit', () => {
  for (const [i, { viewport, lang }] of RUNS.entries()) {
    it(`keeps the capacity typed while the services are saved, says so in view, warns before leaving (${lang}, ${viewport.width} px)`, async () => {
      const label = `${lang} ${viewport.width}`;
      const texts = TEXTS[lang];
      const capacity = String(30 + i);
      const page = await staffPage(viewport, lang);
      const main = page.getByRole('main');
      await page.goto(`${server.baseUrl}/admin/room-edit/${rooms[THIRD_ROOM]}`);
      await main.getByLabel(texts.capacity).fill(capacity);
      await main.getByLabel(texts.offer).fill(String(10 + i));
      await main.getByRole('button', { name: texts.saveServices, exact: true }).click();
      const saved = main.getByRole('status').filter({ hasText: texts.servicesSaved });
      await saved.waitFor();
      await expectInViewport(page, saved, `${label}: the services' message`);
      // The services' save gave the room a new version: the capacity typed is still there.
      await eventually(async () => {
        const room = (await (await admin.get(`/api/admin/rooms/${rooms[THIRD_ROOM]}`)).json()) as {
          services: { waitlistOfferMinutes?: number };
        };
        return room.services.waitlistOfferMinutes;
      }).toBe(10 + i);
      await page.waitForTimeout(300);
      expect(await main.getByLabel(texts.capacity).inputValue(), label).toBe(capacity);
      await expectNoPageOverflow(page, label);
      await expectAccessible(page, `room edit, services saved (${label})`);

      // Leaving with the capacity unsaved asks first; staying keeps it.
      let asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await main.getByRole('link', { name: texts.cancel, exact: true }).click();
      await eventually(() => Promise.resolve(asked)).toBe(texts.unsaved);
      expect(new URL(page.url()).pathname, label).toBe(`/admin/room-edit/${rooms[THIRD_ROOM]}`);
      expect(await main.getByLabel(texts.capacity).inputValue(), label).toBe(capacity);

      // The browser's Back asks the same; staying keeps the page and what was typed.
      let askedBack = '';
      page.once('dialog', (dialog) => {
        askedBack = dialog.message();
        void dialog.dismiss();
      });
      await page.goBack();
      await eventually(() => Promise.resolve(askedBack)).toBe(texts.unsaved);
      expect(new URL(page.url()).pathname, label).toBe(`/admin/room-edit/${rooms[THIRD_ROOM]}`);
      expect(await main.getByLabel(texts.capacity).inputValue(), label).toBe(capacity);

      // Saving the room: nothing is left unsaved, so it goes back to the rooms as always.
      await main.getByRole('button', { name: texts.save, exact: true }).click();
      await page.getByText(texts.roomSaved).waitFor();
      await eventually(async () => {
        const room = (await (await admin.get(`/api/admin/rooms/${rooms[THIRD_ROOM]}`)).json()) as {
          capacity: number;
        };
        return room.capacity;
      }).toBe(Number(capacity));
      await page.context().close();
    });
  }
});

/**
 * What keeps the heatmap's labels from being read: smaller than 10 px, outside the chart, on top
 * of another label, or covered (scrolled into view, another element is drawn at its centre).
 */
async function labelProblems(chart: Locator) {
  return chart.evaluate((svg) => {
    const problems: string[] = [];
    const frame = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')];
    const boxes = texts.map((text) => text.getBoundingClientRect());
    texts.forEach((text, i) => {
      const name = text.textContent ?? '';
      const box = boxes[i]!;
      if (box.height < 10) problems.push(`${name}: ${box.height.toFixed(1)} px high`);
      if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5)
        problems.push(`${name}: outside the chart`);
      boxes.slice(i + 1).forEach((other, k) => {
        const apart =
          box.right <= other.left ||
          other.right <= box.left ||
          box.bottom <= other.top ||
          other.bottom <= box.top;
        if (!apart) problems.push(`${name} overlaps ${texts[i + 1 + k]!.textContent}`);
      });
      text.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const now = text.getBoundingClientRect();
      const top = document.elementFromPoint(now.left + now.width / 2, now.top + now.height / 2);
      if (top !== text) problems.push(`${name}: covered by ${top?.tagName ?? 'nothing'}`);
    });
    return { problems, labels: texts.map((text) => text.textContent ?? '') };
  });
}

describe('the insights', () => {
  for (const { viewport, lang } of RUNS) {
    it(`label every hour and weekday, write numbers in the language, keep tables inside (${lang}, ${viewport.width} px)`, async () => {
      const label = `${lang} ${viewport.width}`;
      const texts = TEXTS[lang];
      const page = await staffPage(viewport, lang);
      const main = page.getByRole('main');
      await page.goto(`${server.baseUrl}/admin/insights`);
      await page.locator('#insights-roomId').selectOption(rooms[FIRST_ROOM]!);
      await page.locator('#insights-untilDate').fill(iso(day));
      const chart = main.getByRole('img', { name: texts.heatmap });
      await chart.waitFor();
      const { problems, labels } = await labelProblems(chart);
      expect(problems, label).toEqual([]);
      // Thirteen hours (8 to 20) and seven weekdays.
      expect(labels.slice(0, 13), label).toEqual(
        Array.from({ length: 13 }, (_, h) => String(8 + h)),
      );
      expect(labels.length, label).toBe(20);
      // The last half hour: half a seat hour booked, written as the language writes it.
      const heatTable = main
        .getByRole('region', { name: new RegExp(texts.heatmap) })
        .locator('table');
      await heatTable.getByRole('cell', { name: texts.half, exact: true }).first().waitFor();
      expect(
        await heatTable.getByRole('cell', { name: texts.otherHalf, exact: true }).count(),
        label,
      ).toBe(0);
      // Each table fits its column, or scrolls inside a named region one can reach by keyboard.
      const wraps = await main.locator('.table-wrap').evaluateAll((els) =>
        els.map((el) => ({
          scrolls: el.scrollWidth > el.clientWidth,
          named: el.getAttribute('role') === 'region' && !!el.getAttribute('aria-label'),
          focusable: el.getAttribute('tabindex') === '0',
        })),
      );
      for (const wrap of wraps)
        if (wrap.scrolls) expect(wrap, label).toMatchObject({ named: true, focusable: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoPageOverflow(page, label);
      await expectAccessible(page, `insights (${label})`);
      await page.context().close();
    });
  }
});

describe('the closure preview', () => {
  for (const { viewport, lang } of RUNS) {
    it(`asks in a dialog whose reason field has an id of its own (${lang}, ${viewport.width} px)`, async () => {
      const label = `${lang} ${viewport.width}`;
      const texts = TEXTS[lang];
      const page = await staffPage(viewport, lang);
      const main = page.getByRole('main');
      await page.goto(`${server.baseUrl}/admin/closures`);
      await page.getByRole('heading', { level: 1, name: texts.closureTitle }).waitFor();
      await main.getByLabel(texts.closureRoom, { exact: true }).selectOption(rooms[FIRST_ROOM]!);
      await main.getByLabel(new RegExp(`^${texts.from}`)).fill(iso(day));
      await main.getByLabel(new RegExp(`^${texts.until}`)).fill(iso(day));
      await main.getByRole('button', { name: texts.continue, exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const ids = await page.evaluate(() =>
        [...document.querySelectorAll('[id]')].map((el) => el.id),
      );
      expect(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        `${label}: duplicate ids`,
      ).toEqual([]);
      await expectNoPageOverflow(page, label);
      await expectAccessible(page, `closure dialog (${label})`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.context().close();
    });
  }
});
