// Forms and reports. The capacity range's "until" follows "from"; the
// occupancy report drops a report its filters no longer describe and shows totals, the mean
// occupancy and a printable bar chart per day; the daily report steps a day back and forth; the
// way back from a reservation keeps the list's filters; the history groups repeated events.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { eventually, expectAccessible, type RunningServer } from './harness.ts';
import { iso, shown, weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import {
  DESKTOP,
  LANGS,
  VIEWPORTS,
  openStaffPage,
  signInAs,
  visitorBooks,
  type Lang,
} from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let roomId = '';
let hugoTicket = '';
const [dayA, dayB] = weekdaysAhead(2) as [Date, Date];
const nextDay = (d: Date, n = 1) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

const TEXTS = {
  de: {
    chart: 'Auslastung je Tag',
    totals: '2 Plätze von 5 in 3 Zeitfenstern',
    overall: 'Auslastung gesamt',
    mean: 'Mittlere Auslastung je Zeitfenster',
    fix: 'Bitte korrigieren Sie die Auswahl',
    next: 'Nächster Tag',
    previous: 'Vorheriger Tag',
    heading: (d: Date) => `Reservierungen am ${shown(d)}`,
  },
  en: {
    chart: 'Occupancy per day',
    totals: '2 seats of 5 in 3 time slots',
    overall: 'Overall occupancy',
    mean: 'Mean occupancy per time slot',
    fix: 'Please correct the selection',
    next: 'Next day',
    previous: 'Previous day',
    heading: (d: Date) => `Reservations on ${shown(d)}`,
  },
} as const;

/** A visitor holds a seat, keeps the cart alive three times (three hold extensions), books. */
async function bookAfterTouches(slotId: string): Promise<{ position: string | null }> {
  const visitor = new Client(server.baseUrl);
  const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(cart.status).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  for (let i = 0; i < 3; i++) {
    const touched = await visitor.request('PUT', `/api/transactions/${transactionId}/touch`);
    expect(touched.status, await touched.clone().text()).toBeLessThan(300);
  }
  const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MR',
      firstName: 'Hugo',
      lastName: 'Hold',
      organisation: 'Testinstitut',
      email: 'hugo@example.org',
      phone: '+43123',
      accessibility: false,
      language: 'de',
    },
  });
  expect(booked.status, await booked.clone().text()).toBe(200);
  return { position: visitor.lastPosition };
}

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  roomId = idOf(FIRST_ROOM);
  const morningA = await createSlot(admin, roomId, dayA, '09:00', '12:00', 2);
  const afternoonA = await createSlot(admin, roomId, dayA, '14:00', '16:00', 1);
  await createSlot(admin, roomId, dayB, '09:00', '12:00', 2);
  await bookAfterTouches(morningA);
  const last = await visitorBooks(
    server.baseUrl,
    { firstName: 'Ida', lastName: 'Imhof', email: 'ida@example.org' },
    [afternoonA],
  );
  await waitForReadModels(admin, last);
  const list = await admin.get('/api/admin/tickets?searchTerm=hugo%40example.org');
  hugoTicket = ((await list.json()) as { content: { id: string }[] }).content[0]!.id;
});

afterAll(() => stop?.());

async function staffPage(
  lang: Lang,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<Page> {
  const page = await openStaffPage(browser, viewport, lang);
  await signInAs(page, server.baseUrl, lang);
  return page;
}

describe('forms and reports', () => {
  describe('the capacity range: "until" follows "from", so the first submit succeeds', () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        it(`${lang} ${viewport.width}`, async () => {
          const page = await staffPage(lang, viewport);
          await page.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-edit-multi-capacity/`);
          const from = page.locator('#slot-capacity-fromDate');
          await from.waitFor();
          await from.fill(iso(dayB));
          expect(await page.locator('#slot-capacity-untilDate').inputValue()).toBe(iso(dayB));
          await page.locator('#slot-capacity-capacity').fill('2');
          await expectAccessible(page, `capacity ${lang} ${viewport.width}`);
          await page.locator('form button[type="submit"]').click();
          // Saved at once: back on the room's calendar.
          await eventually(async () => Promise.resolve(new URL(page.url()).pathname)).toMatch(
            /\/time-slots$/,
          );
          await page.context().close();
        });
      }
    }
  });

  describe('the occupancy report: totals, mean, a bar per day, printable; no stale report', () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        it(`${lang} ${viewport.width}`, async () => {
          const label = `${lang} ${viewport.width}`;
          const texts = TEXTS[lang];
          const page = await staffPage(lang, viewport);
          const main = page.getByRole('main');
          await page.goto(`${server.baseUrl}/admin/occupancy-report`);
          await page.locator('#occupancy-untilDate').fill(iso(dayB));
          const chart = main.getByRole('figure', { name: texts.chart });
          await chart.waitFor();
          // A bar per day: day A 2 of 3 seats, day B none of 2.
          expect(await chart.locator('li').count(), label).toBe(2);
          await chart.getByText(/^67\s?%\s\(2 (von|of) 3\)$/).waitFor();
          await chart.getByText(/^0\s?%\s\(0 (von|of) 2\)$/).waitFor();
          // Every bar's track is as long as every other, whatever its row's texts; the chart
          // comes before the table of every slot.
          const tracks = await chart
            .locator('.bar-chart__track')
            .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width)));
          expect(new Set(tracks).size, `${label}: ${tracks.join(', ')}`).toBe(1);
          const [chartTop, tableTop] = [
            (await chart.boundingBox())!.y,
            (await main.getByRole('table').boundingBox())!.y,
          ];
          expect(chartTop, label).toBeLessThan(tableTop);
          await main.getByText(texts.totals).waitFor();
          const totals = main.locator('.occupancy-totals');
          expect(await totals.innerText()).toMatch(new RegExp(`${texts.overall}\\s+40\\s?%`));
          expect(await totals.innerText()).toMatch(new RegExp(`${texts.mean}\\s+50\\s?%`));
          await expectAccessible(page, `occupancy report ${label}`);

          // Printed: the totals and the chart come out with the table.
          await page.emulateMedia({ media: 'print' });
          expect(await chart.isVisible()).toBe(true);
          expect(await totals.isVisible()).toBe(true);
          expect(await main.getByRole('table').isVisible()).toBe(true);
          await page.emulateMedia({ media: 'screen' });

          // Filters that cannot be right: the old report does not stay under the error.
          await page.locator('#occupancy-fromDate').fill(iso(nextDay(dayB, 10)));
          await main.getByText(texts.fix).waitFor();
          expect(await main.getByRole('table').count(), label).toBe(0);
          expect(await chart.count(), label).toBe(0);
          await expectAccessible(page, `occupancy report, invalid filters ${label}`);
          await page.context().close();
        });
      }
    }
  });

  describe('the daily report steps to the next and the previous day', () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        it(`${lang} ${viewport.width}`, async () => {
          const texts = TEXTS[lang];
          const page = await staffPage(lang, viewport);
          const main = page.getByRole('main');
          await page.goto(`${server.baseUrl}/admin/daily-report/${roomId}?date=${iso(dayA)}`);
          await main.getByRole('cell', { name: 'Hold', exact: true }).waitFor();
          await main.getByRole('link', { name: texts.next }).click();
          await main
            .getByRole('heading', { level: 2, name: texts.heading(nextDay(dayA)) })
            .waitFor();
          expect(new URL(page.url()).searchParams.get('date')).toBe(iso(nextDay(dayA)));
          await main.getByRole('link', { name: texts.previous }).click();
          await main.getByRole('heading', { level: 2, name: texts.heading(dayA) }).waitFor();
          await main.getByRole('cell', { name: 'Hold', exact: true }).waitFor();
          await expectAccessible(page, `daily report ${lang} ${viewport.width}`);
          await page.context().close();
        });
      }
    }
  });

  it('back from a reservation (via its history) the list keeps its filters', async () => {
    const page = await staffPage('de');
    const main = page.getByRole('main');
    await page.goto(`${server.baseUrl}/admin/reservations`);
    await main.getByLabel('Suchbegriff').fill('hugo@example.org');
    await main.getByRole('button', { name: 'Suchen', exact: true }).click();
    await eventually(() => main.locator('table tbody tr').count()).toBe(1);
    await main.getByRole('link', { name: /^Reservierung von Hold, Hugo/ }).click();
    await main.getByRole('link', { name: 'Verlauf der Reservierung' }).click();
    // Exact names: "Zurück zur Reservierung" is also the start of the detail page's link back to
    // the list, which a click made before the history shows would follow.
    await main.getByRole('heading', { name: 'Verlauf der Reservierung' }).waitFor();
    await main.getByRole('link', { name: 'Zurück zur Reservierung', exact: true }).click();
    await main.getByRole('link', { name: 'Zurück zur Reservierungsliste', exact: true }).click();
    await eventually(async () =>
      Promise.resolve(new URL(page.url()).searchParams.get('searchTerm')),
    ).toBe('hugo@example.org');
    expect(await main.getByLabel('Suchbegriff').inputValue()).toBe('hugo@example.org');
    await eventually(() => main.locator('table tbody tr').count()).toBe(1);
    await page.context().close();
  });

  describe('the history shows repeated hold extensions as one row', () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        it(`${lang} ${viewport.width}`, async () => {
          const page = await staffPage(lang, viewport);
          const main = page.getByRole('main');
          await page.goto(`${server.baseUrl}/admin/reservations/${hugoTicket}/history`);
          const rows = main.locator('table tbody tr');
          await rows.first().waitFor();
          const whats = (await rows.locator('td:nth-child(2)').allInnerTexts()).map((t) =>
            t.trim(),
          );
          expect(whats, `${lang} ${viewport.width}`).toEqual(
            lang === 'de'
              ? ['Platz vorgemerkt', 'Vormerkung verlängert (3×)', 'Gebucht']
              : ['Seat held', 'Hold extended (3×)', 'Booked'],
          );
          await expectAccessible(page, `ticket history ${lang} ${viewport.width}`);
          await page.context().close();
        });
      }
    }
  });
});
