// The seats' use on the insights screen (docs/product.md#insights): for a room with a seat plan,
// at 1280 and 375 wide, in German and English, the per-attribute chart with its table and the
// per-seat table show what was booked and which seat wishes were turned away, axe clean, and both
// tables download as CSV with the same figures.
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { expectAccessible, type RunningServer } from './harness.ts';
import { iso, weekdaysAhead } from './dates.ts';
import { setRoomSeats } from './seat-plans.ts';
import { createSlot, SECOND_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { LANGS, VIEWPORTS, openStaffPage, signInAs } from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let roomId = '';
const [dayA] = weekdaysAhead(1) as [Date];

const TEXTS = {
  de: {
    section: 'Plätze und ihre Merkmale',
    perAttribute: 'Auslastung je Merkmal',
    perSeat: 'Auslastung je Platz (am wenigsten genutzte zuerst)',
    window: 'am Fenster',
    power: 'Steckdose',
    refused:
      'Abgewiesene Platzwünsche: 1, weil kein freier Platz die gewünschten Merkmale hatte, 1, weil der gewünschte Platz vergeben war.',
    csv: /Auslastung je (Platz|Merkmal) als CSV herunterladen/,
  },
  en: {
    section: 'Seats and their attributes',
    perAttribute: 'Use per attribute',
    perSeat: 'Use per seat (least used first)',
    window: 'by the window',
    power: 'power socket',
    refused:
      'Seat wishes turned away: 1 for lack of a free seat with the attributes asked for, 1 because the seat asked for was taken.',
    csv: /Download use per (seat|attribute) as CSV/,
  },
} as const;

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  roomId = idOf(SECOND_ROOM);
  const seats = await setRoomSeats(admin, roomId, [
    ['A1', ['window', 'power']],
    ['A2', ['window']],
    ['B1', []],
  ]);
  const slot = await createSlot(admin, roomId, dayA, '09:00', '11:00', 3);
  // A1 booked by its id; then A1 asked for again (taken) and a quiet seat (the plan has none).
  const visitor = new Client(server.baseUrl);
  const cart = await visitor.request('POST', '/api/transactions', {
    json: { timeSlotId: slot, seatId: seats.get('A1') },
  });
  expect(cart.status).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      title: '',
      organisation: '',
      phone: '+43123',
      accessibility: false,
      language: 'de',
      firstName: 'Ida',
      lastName: 'Imhof',
      email: 'ida@example.org',
    },
  });
  expect(booked.status).toBe(200);
  for (const [json, error] of [
    [{ timeSlotId: slot, seatId: seats.get('A1') }, 'seat__taken'],
    [{ timeSlotId: slot, seatAttributes: ['quiet'] }, 'seat__none_matching'],
  ] as const) {
    const r = await new Client(server.baseUrl).request('POST', '/api/transactions', { json });
    expect(r.status).toBe(409);
    expect(((await r.json()) as { error: string }).error).toBe(error);
  }
  await waitForReadModels(admin, visitor.lastPosition);
});

afterAll(() => stop?.());

/** The screen for the plan room up to day A; answers the seats' section. */
async function openSeatInsights(page: Page, lang: 'de' | 'en'): Promise<Locator> {
  await signInAs(page, server.baseUrl, lang);
  await page.goto(`${server.baseUrl}/admin/insights`);
  await page.locator('#insights-roomId').selectOption(roomId);
  await page.locator('#insights-untilDate').fill(iso(dayA));
  const section = page.getByRole('region', { name: TEXTS[lang].section });
  await section.getByRole('table', { name: TEXTS[lang].perSeat }).waitFor();
  // The refusals are written beside their answers: the page shows them once recorded.
  await section.getByText(TEXTS[lang].refused).waitFor();
  return section;
}

const cellsOf = (table: Locator, row: string | RegExp) =>
  table.getByRole('row', { name: row }).getByRole('cell').allInnerTexts();
const compact = (cells: string[]) => cells.map((c) => c.replace(/\s/g, ''));

describe("the seats' use on the insights screen", () => {
  for (const lang of LANGS) {
    for (const viewport of VIEWPORTS) {
      it(`${lang} ${viewport.width}: the tables, the chart, axe clean`, async () => {
        const label = `${lang} ${viewport.width}`;
        const page = await openStaffPage(browser, viewport, lang);
        const section = await openSeatInsights(page, lang);
        const t = TEXTS[lang];
        // Per attribute: the window seats (A1, A2) 2 of 4 hours booked; A1 turned away once.
        await section.getByRole('img', { name: t.perAttribute }).waitFor();
        const attributes = section.getByRole('table', { name: t.perAttribute });
        expect(compact(await cellsOf(attributes, t.window)), label).toEqual([
          '2',
          '4',
          '2',
          '50%',
          expect.any(String),
          '1',
          '0',
          '0',
          '0',
          '1',
        ]);
        // Power (A1 only): booked up in the slot while the room still had free seats.
        expect(compact(await cellsOf(attributes, t.power)), label).toEqual([
          '1',
          '2',
          '2',
          '100%',
          expect.any(String),
          '1',
          '1',
          '1',
          '0',
          '1',
        ]);
        // Per seat, the least used first: A2 and B1 unused, A1 full.
        const seats = section.getByRole('table', { name: t.perSeat });
        const rows = await seats.getByRole('rowheader').allInnerTexts();
        expect(rows, label).toEqual(['A2', 'B1', 'A1']);
        expect(compact(await cellsOf(seats, /^A1/)).slice(-3), label).toEqual(['2', '2', '100%']);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, label).toBeLessThanOrEqual(0);
        await expectAccessible(page, `seat insights ${label}`);
        await page.context().close();
      });
    }
  }

  it('downloads both tables as CSV', async () => {
    const page = await openStaffPage(browser, VIEWPORTS[1], 'en');
    const section = await openSeatInsights(page, 'en');
    const links = section.getByRole('link', { name: TEXTS.en.csv });
    expect(await links.count()).toBe(2);
    const lines: Record<string, string[]> = {};
    for (let i = 0; i < 2; i++) {
      const [download] = await Promise.all([page.waitForEvent('download'), links.nth(i).click()]);
      const name = download.suggestedFilename();
      expect(name).toMatch(/^insights-seats-(seats|attributes)-.*\.csv$/);
      lines[name.split('-')[2]!] = (await readFile(await download.path(), 'utf8'))
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
    }
    expect(lines.attributes).toContainEqual(
      expect.stringMatching(/^window;2;4;2;0\.5;\d+;1;0;0;0;1$/),
    );
    expect(lines.seats!.slice(1)).toEqual([
      'A1;;power window;2;2;1;',
      'A2;;window;2;0;0;',
      'B1;;;2;0;0;',
    ]);
    await page.context().close();
  });
});
