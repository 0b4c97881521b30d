// The staff and display views of a room's seats in Chromium
// (docs/product.md#staff-and-display-views): the desk's day counting free seats by attribute, the check-in screen's seats of the slot
// running now (plan and list, with names) and moving a reader to a free seat with a reason, and
// the foyer display's plan (free and taken by shape and mark, no names, live), in German and
// English, axe clean. The slot is today 00:00-23:59 in a library zone where the test starts about
// noon: the machine's clock decides nothing.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { expectAccessible, newContext, startBrowserTest, type RunningServer } from './harness.ts';
import { libraryTime, middayZone } from './dates.ts';
import { setRoomSeats } from './seat-plans.ts';
import { DESKTOP, LANGS, openStaffPage, signInAs, visitorHolds } from './staff-ux-support.ts';
import { signInAdmin, waitForReadModels } from './test-rooms.ts';
import { serveAs } from './visitor-pages.ts';

const ROOM = 'Sitzplatz-Lesesaal';
/** The library's zone: the browser runs in UTC, some hours away. */
const ZONE = middayZone();
/** The display's usual screens. */
const SCREENS = [
  { width: 1280, height: 900 },
  { width: 1920, height: 1080 },
] as const;

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let admin: Client;
let roomId = '';
let slotId = '';
let seats = new Map<string, string>();

async function staffBook(firstName: string, lastName: string, seat: string) {
  const r = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`, {
    json: {
      salutation: 'MS',
      firstName,
      lastName,
      phone: '+43111222',
      accessibility: false,
      seatId: seats.get(seat),
    },
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return ((await r.json()) as { ticketId: string }).ticketId;
}

beforeAll(async () => {
  ({ server, browser, stop } = await startBrowserTest({ TIME_ZONE: ZONE }));
  admin = await signInAdmin(server.baseUrl);
  roomId = await createRoom(admin, ROOM, { capacity: 8, openStartValue: 0 });
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  seats = await setRoomSeats(admin, roomId, [
    ['S1', ['power', 'window']],
    ['S2', ['power']],
    ['S3', []],
    ['S4', ['pc']],
    ['S5', ['power']],
    ['S6', ['power', 'window']],
  ]);
  const today = libraryTime(new Date(), ZONE).date;
  slotId = await createSlot(admin, roomId, today, '00:00', '23:59', 8);
  // Booked at the desk in a running slot of a room with check-in: checked in at once. The
  // second one's check-in is taken back: booked, not checked in.
  await staffBook('Anna', 'Sitz', 'S1');
  const bert = await staffBook('Bert', 'Platz', 'S2');
  const undo = await admin.request('DELETE', `/api/admin/tickets/${bert}/check-in`);
  expect(undo.status, await undo.clone().text()).toBe(200);
  const broken = await admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/seats/${seats.get('S4')}/out-of-service`,
    { json: { from: today, until: today, reason: 'PC kaputt' } },
  );
  expect(broken.status, await broken.clone().text()).toBe(201);
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

const TEXTS = {
  de: {
    free: '3 Plätze frei',
    byAttribute: ['2 Plätze mit Strom frei', '1 Platz am Fenster frei', '0 Plätze mit PC frei'],
    seatsTitle: 'Plätze jetzt',
    checkedIn: 'eingecheckt',
    booked: 'gebucht, nicht eingecheckt',
    outOfService: 'außer Betrieb',
    freeState: 'frei',
    change: 'Platz wechseln',
    seat: 'Freier Platz',
    reason: 'Grund (optional)',
    submit: 'Umsetzen',
    done: (name: string, seat: string) => `${name} sitzt jetzt auf Platz ${seat}.`,
    displayTitle: 'Freie Plätze jetzt',
    legend: ['3 frei', '2 belegt', '1 außer Betrieb'],
    legendAfter: '2 frei',
    planOf: 'Sitzplan 00:00-23:59',
  },
  en: {
    free: '3 seats free',
    byAttribute: ['2 seats with power free', '1 seat by the window free', '0 seats with a PC free'],
    seatsTitle: 'Seats now',
    checkedIn: 'checked in',
    booked: 'booked, not checked in',
    outOfService: 'out of service',
    freeState: 'free',
    change: 'Change seat',
    seat: 'Free seat',
    reason: 'Reason (optional)',
    submit: 'Move',
    done: (name: string, seat: string) => `${name} now sits on seat ${seat}.`,
    displayTitle: 'Seats free now',
    legend: ['3 free', '2 taken', '1 out of service'],
    planOf: 'Seat plan 00:00-23:59',
  },
} as const;

async function openAsAdmin(lang: 'de' | 'en'): Promise<Page> {
  const page = await openStaffPage(browser, DESKTOP, lang, 'UTC');
  await signInAs(page, server.baseUrl, lang);
  return page;
}

/** The seats' states on a plan, by label, from the marks' data attributes. */
const planStates = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((els) =>
      els.map((el) => `${el.getAttribute('data-seat-label')}:${el.getAttribute('data-state')}`),
    );

describe("the desk's day", () => {
  for (const lang of LANGS)
    it(`counts the free seats of a room with a plan by attribute (${lang}, 1280 px)`, async () => {
      const texts = TEXTS[lang];
      const page = await openAsAdmin(lang);
      const room = page.getByRole('main').locator('.desk-room').filter({ hasText: ROOM });
      await room.getByText(texts.free, { exact: true }).waitFor();
      for (const line of texts.byAttribute) await room.getByText(line, { exact: true }).waitFor();
      await expectAccessible(page, `desk's day with seats ${lang}`);
      await page.context().close();
    });
});

describe("the reservations list's seats", () => {
  for (const lang of LANGS)
    it(`names each listed ticket's seat in a column of its own (${lang}, 1280 px)`, async () => {
      const page = await openAsAdmin(lang);
      await page.goto(`${server.baseUrl}/admin/reservations`);
      const table = page.getByRole('main').locator('table.reservation-table');
      const column = lang === 'de' ? 'Platz' : 'Seat';
      await table.getByRole('columnheader', { name: column, exact: true }).waitFor();
      // Anna and Bert sit on seats of the plan (the check-in test may move one of them).
      for (const name of ['Anna', 'Bert']) {
        const cell = table
          .getByRole('row')
          .filter({ hasText: name })
          .locator(`td[data-label="${column}"]`);
        await expect.poll(() => cell.textContent()).toMatch(/^S[1-6]$/);
      }
      await expectAccessible(page, `reservations list with seats ${lang}`);
      await page.context().close();
    });
});

describe("the check-in screen's seats", () => {
  // Each language moves another reader: German Bert from S2 to S6, English Anna from S1 to S5.
  const moves = {
    de: { name: 'Bert Platz', from: 'S2', to: 'S6', state: TEXTS.de.booked },
    en: { name: 'Anna Sitz', from: 'S1', to: 'S5', state: TEXTS.en.checkedIn },
  } as const;
  for (const lang of LANGS)
    it(`shows each seat with its reader and moves one to a free seat (${lang}, 1280 px)`, async () => {
      const texts = TEXTS[lang];
      const move = moves[lang];
      const page = await openAsAdmin(lang);
      await page.goto(`${server.baseUrl}/admin/check-in`);
      const section = page.getByRole('region', { name: texts.seatsTitle });
      await section.getByRole('heading', { level: 2, name: texts.seatsTitle }).waitFor();
      const row = (label: string) =>
        section.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: label }) });
      await row(move.from).getByRole('cell', { name: move.name, exact: true }).waitFor();
      await row(move.from).getByText(move.state, { exact: true }).waitFor();
      await row('S4').getByText(texts.outOfService, { exact: true }).waitFor();
      await row(move.to).getByText(texts.freeState, { exact: true }).waitFor();
      expect(await planStates(page, '.desk-seat-plan__seat')).toContain(
        `${move.from}:${lang === 'de' ? 'booked' : 'checked_in'}`,
      );
      await row(move.from).getByRole('button', { name: texts.change }).click();
      await section.getByLabel(texts.seat).selectOption(seats.get(move.to)!);
      await section.getByLabel(texts.reason).fill('Lampe defekt');
      await expectAccessible(page, `check-in seats, moving ${lang}`);
      await section.getByRole('button', { name: texts.submit, exact: true }).click();
      await section.getByText(texts.done(move.name, move.to), { exact: true }).waitFor();
      await row(move.to).getByRole('cell', { name: move.name, exact: true }).waitFor();
      await row(move.from).getByText(texts.freeState, { exact: true }).waitFor();
      expect(await planStates(page, '.desk-seat-plan__seat')).toContain(`${move.from}:free`);
      await expectAccessible(page, `check-in seats ${lang}`);
      await page.context().close();
    });
});

describe("the display's seat plan", () => {
  for (const lang of LANGS)
    it(`shows free and taken seats by shape and mark, without names (${lang})`, async () => {
      const texts = TEXTS[lang];
      for (const screen of SCREENS) {
        const label = `display seats ${lang} ${screen.width}×${screen.height}`;
        const page = await (await newContext(browser, screen, lang, 'UTC')).newPage();
        await serveAs(page, lang, { 'data-room-id': roomId });
        await page.goto(`${server.baseUrl}/display/`);
        await page.getByRole('heading', { level: 1, name: texts.displayTitle }).waitFor();
        const room = page.getByRole('region', { name: ROOM, exact: true });
        await room.getByText(texts.planOf, { exact: true }).waitFor();
        for (const line of texts.legend) await room.getByText(line, { exact: true }).waitFor();
        // After the check-in screen's moves: S1, S2 and S3 free, S5 and S6 taken.
        expect(await planStates(page, '.display-seat-plan__seat')).toEqual([
          'S1:free',
          'S2:free',
          'S3:free',
          'S4:out_of_service',
          'S5:taken',
          'S6:taken',
        ]);
        // Free and taken differ by shape (outlined or filled) and mark, not only by colour.
        const look = (state: string) =>
          page
            .locator(`.display-seat-plan__seat[data-state="${state}"] .seat-mark`)
            .first()
            .evaluate((el) => ({
              mark: el.textContent,
              filled: getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)',
            }));
        expect(await look('free')).toEqual({ mark: '✓', filled: false });
        expect(await look('taken')).toEqual({ mark: '✕', filled: true });
        // Readable from afar: a seat's mark at least 40 px.
        const size = await page
          .locator('.display-seat-plan__seat .seat-mark')
          .first()
          .evaluate((el) => el.getBoundingClientRect().width);
        expect(size).toBeGreaterThanOrEqual(40);
        const body = await page.locator('body').innerText();
        for (const name of ['Anna', 'Bert']) expect(body).not.toContain(name);
        await expectAccessible(page, label);
        await page.context().close();
      }
    });

  it('follows a visitor taking a seat without a reload', async () => {
    const page = await (await newContext(browser, SCREENS[1], 'de', 'UTC')).newPage();
    await serveAs(page, 'de', { 'data-room-id': roomId });
    await page.goto(`${server.baseUrl}/display/`);
    const room = page.getByRole('region', { name: ROOM, exact: true });
    await room.getByText(TEXTS.de.legend[0], { exact: true }).waitFor();
    // A visitor's cart takes the free seat with the fewest attributes (S3).
    await visitorHolds(server.baseUrl, slotId);
    // The display asks every 5 s: the seat shows taken within two rounds.
    await expect
      .poll(() => room.getByText(TEXTS.de.legendAfter, { exact: true }).count(), {
        timeout: budget(10_000),
        interval: 200,
      })
      .toBeGreaterThan(0);
    expect(await planStates(page, '.display-seat-plan__seat')).toContain('S3:taken');
    await page.context().close();
  });
});
