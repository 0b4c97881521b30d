// Over 300 lines: one browser journey; its steps share one server process, one Chromium and one
// SMTP sink.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import {
  eventually,
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { iso, longDate, monthTitle, weekdaysAhead } from './dates.ts';
import {
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  SECOND_ROOM,
  waitForReadModels,
} from './test-rooms.ts';
import {
  acceptPrivacy,
  cartPanel,
  dayButton,
  dialog,
  h1,
  main,
  showMonthOf,
  ticketItems,
} from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let sink: SmtpSink;
let roomId: string;

/** The test's own rooms (test-rooms.ts): slots in the first, one overlapping slot in the second. */
const ROOM = FIRST_ROOM;
const OTHER_ROOM = SECOND_ROOM;

/* ---- Dates: two weekdays 3 to 10 days ahead (rooms open from today + 2 days) ---- */

const [dayA, dayB] = weekdaysAhead(2) as [Date, Date];
/** A holiday after both (no slots), and a day far beyond the 30 working days of the window. */
const holiday = weekdaysAhead(6)[5]!;
const HOLIDAY_NAME = 'Inventurtag';
const later = new Date(dayA.getFullYear(), dayA.getMonth(), dayA.getDate() + 60);

/* ---- Helpers ---- */

const panicButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Alles löschen' });
const noHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
const session = (page: Page) =>
  page.evaluate(() => ({
    transactionId: sessionStorage.getItem('transactionId'),
    personalData: sessionStorage.getItem('personalData'),
  }));

/** Books the slot `range` on day `d` through the day dialog (mouse). */
async function addSlot(page: Page, d: Date, range: string): Promise<void> {
  await showMonthOf(page, d);
  await dayButton(page, d).click();
  await dialog(page)
    .getByRole('heading', { name: longDate(d) })
    .waitFor();
  await dialog(page)
    .getByRole('button', { name: `Reservieren ${range}` })
    .click();
  await dialog(page).waitFor({ state: 'hidden' });
}

/** Presses Tab until the focused element's text (its accessible name here) matches. */
async function tabTo(page: Page, name: RegExp, shift = false, max = 120): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
    const text = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const label = el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return (label ?? el?.getAttribute('aria-label') ?? el?.textContent ?? '')
        .replace(/\s+/g, ' ')
        .trim();
    });
    if (name.test(text)) return;
  }
  throw new Error(`no focusable element matching ${String(name)}`);
}

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
/** The day of the month grid that has the focus (`YYYY-MM-DD`), or '' when none has it. */
const focusedDay = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date ?? '');
const WEEKDAY = /(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. /;

/** From the grid's focused day to day `d` with the arrow keys (a week down, then days). */
async function arrowTo(page: Page, d: Date): Promise<void> {
  const target = iso(d);
  for (let i = 0; i < 40 && (await focusedDay(page)) !== target; i += 1) {
    const from = await focusedDay(page);
    const days = Math.round((Date.parse(target) - Date.parse(from)) / 86_400_000);
    await page.keyboard.press(days >= 7 ? 'ArrowDown' : days > 0 ? 'ArrowRight' : 'ArrowLeft');
  }
  expect(await focusedDay(page)).toBe(target);
}

/** Waits for the confirmation mail to an address and returns the path of its link. */
async function confirmationPath(email: string): Promise<string> {
  for (let i = 0; i < 300; i += 1) {
    const mail = sink.messages.find(
      (m) => JSON.stringify(m.to).includes(email) && /reservation-confirmation/.test(m.text ?? ''),
    );
    const match = /\/reservation-confirmation\/[0-9a-f]{32}/.exec(mail?.text ?? '');
    if (match) return match[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation mail to ${email}`);
}

/**
 * Creates the test rooms and the test's slots as admin over HTTP (4 seats each): on day A
 * 09:00-12:00 and 14:00-16:00 and on day B 09:00-12:00 in the main room, and on day A 10:00-13:00
 * in the other room (a room's slots never overlap). Answers the main room's id.
 */
async function createSlots(baseUrl: string): Promise<string> {
  const { admin, idOf } = await createTestRooms(baseUrl);
  const slots: [string, Date, string, string][] = [
    [idOf(ROOM), dayA, '09:00', '12:00'],
    [idOf(ROOM), dayA, '14:00', '16:00'],
    [idOf(ROOM), dayB, '09:00', '12:00'],
    [idOf(OTHER_ROOM), dayA, '10:00', '13:00'],
  ];
  for (const [room, d, startTime, endTime] of slots) {
    await createSlot(admin, room, d, startTime, endTime, 4);
  }
  const closed = await admin.request('POST', '/api/admin/holidays', {
    json: { name: HOLIDAY_NAME, date: iso(holiday) },
  });
  expect(closed.status, await closed.clone().text()).toBe(201);
  // The browser is another client: wait until the read models have caught up with these writes.
  await waitForReadModels(admin);
  return idOf(ROOM);
}

beforeAll(async () => {
  db = await createTestDatabase();
  sink = new SmtpSink(await freePort());
  await sink.start();
  server = await startServer(db, { SMTP_URL: sink.url, MAIL_INTERVAL_MS: '200' });
  browser = await launchBrowser();

  roomId = await createSlots(server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.stop();
  await db?.drop();
});

describe('visitor booking, end to end in Chromium', () => {
  it('books two slots, gets the mail, and cancels one ticket through its link', async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    await acceptPrivacy(page, server.baseUrl);
    await page.getByRole('link', { name: `Auswählen ${ROOM}` }).click();
    await h1(page, ROOM).waitFor();
    await eventually(() =>
      page.getByRole('navigation', { name: 'Buchungsschritte' }).textContent(),
    ).toContain('Reservierung vornehmen');
    expect(
      await page.locator('.wizard [aria-current="step"]').textContent(),
      'the current wizard step',
    ).toContain('Reservierung vornehmen');
    // Visitors cannot go back before the current month.
    await eventually(() =>
      main(page)
        .getByRole('button', { name: /Vorheriger Monat/ })
        .isDisabled(),
    ).toBe(true);
    expect(await panicButton(page).count()).toBe(0);
    await showMonthOf(page, dayA);
    await expectAccessible(page, 'room view');

    // Day A: the dialog lists the slots with their occupancy.
    await dayButton(page, dayA).click();
    const slotsA = dialog(page);
    await slotsA.getByRole('heading', { name: longDate(dayA) }).waitFor();
    expect(await slotsA.getByText('0 von 4 belegt').count()).toBe(2);
    await expectAccessible(page, 'day dialog');
    await slotsA.getByRole('button', { name: 'Reservieren 09:00-12:00' }).click();
    await slotsA.waitFor({ state: 'hidden' });
    // Focus is back on the day; the cart beside the calendar shows the ticket and its expiry.
    expect(await isFocused(dayButton(page, dayA))).toBe(true);
    const cart = cartPanel(page);
    await cart.getByText(`${longDate(dayA)}, 09:00-12:00`, { exact: true }).waitFor();
    await cart.getByText(/Die Termine sind bis \d\d:\d\d Uhr für Sie vorgemerkt/).waitFor();
    await panicButton(page).waitFor();
    expect((await session(page)).transactionId).toMatch(/^[0-9a-f-]{36}$/);

    // The same day again: the slot in the cart offers a way back.
    await dayButton(page, dayA).click();
    await slotsA.getByText('1 von 4 belegt').waitFor();
    await slotsA.getByText('Dieser Termin ist bereits in Ihrem Warenkorb.').waitFor();
    expect(await slotsA.getByRole('button', { name: 'Reservieren 14:00-16:00' }).isEnabled()).toBe(
      true,
    );
    await expectAccessible(page, 'day dialog with a slot in the cart');
    await slotsA.getByRole('button', { name: 'Zurück', exact: true }).click();
    await slotsA.waitFor({ state: 'hidden' });

    await addSlot(page, dayB, '09:00-12:00');
    await eventually(() => cart.getByRole('listitem').count()).toBe(2);
    await expectAccessible(page, 'room view with two tickets in the cart');

    // Another room: a slot overlapping one in the cart says so and offers no button.
    await main(page).getByRole('link', { name: 'Anderen Raum wählen' }).click();
    await page.getByRole('link', { name: `Auswählen ${OTHER_ROOM}` }).click();
    await h1(page, OTHER_ROOM).waitFor();
    await showMonthOf(page, dayA);
    await dayButton(page, dayA).click();
    await dialog(page).getByText('0 von 4 belegt').waitFor();
    await dialog(page)
      .getByText(/überschneidet sich mit einem Termin/)
      .waitFor();
    expect(
      await dialog(page)
        .getByRole('button', { name: /10:00-13:00$/ })
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'day dialog with a temporarily full slot');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    expect(await cart.getByRole('listitem').count()).toBe(2);

    await cart.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
    await h1(page, 'Ihr Warenkorb').waitFor();
    expect(await ticketItems(page).count()).toBe(2);
    expect(
      await main(page)
        .getByRole('button', { name: /^Entfernen/ })
        .count(),
    ).toBe(2);
    await expectAccessible(page, 'cart list');
    await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();

    // Personal data: validation before going on moves focus to the first invalid field.
    await h1(page, 'Ihre Daten').waitFor();
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    expect(await isFocused(page.getByLabel(/^Vorname/))).toBe(true);
    await page.getByText('Bitte füllen Sie dieses Feld aus.').first().waitFor();
    await expectAccessible(page, 'personal data with errors');
    await page.getByLabel('Anrede').selectOption('MS');
    await page.getByLabel(/^Titel/).fill('Dr.');
    await page.getByLabel(/^Vorname/).fill('Erika');
    await page.getByLabel(/^Nachname/).fill('Muster');
    await page.getByLabel(/^E-Mail-Adresse/).fill('erika.muster@example.at');
    await page.getByLabel(/^Telefonnummer/).fill('+43 1 23x');
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    expect(await isFocused(page.getByLabel(/^Telefonnummer/))).toBe(true);
    await page.getByText(/nur mit Ziffern/).waitFor();
    await page.getByLabel(/^Telefonnummer/).fill('+431234');
    await page.getByLabel(/barrierefreien Arbeitsplatz/).check();
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();

    await h1(page, 'Zusammenfassung').waitFor();
    expect(JSON.parse((await session(page)).personalData ?? '{}')).toMatchObject({
      salutation: 'MS',
      firstName: 'Erika',
      phone: '+431234',
      accessibility: true,
    });
    await main(page).getByText('Frau Dr. Erika Muster').waitFor();
    expect(await ticketItems(page).count()).toBe(2);
    await expectAccessible(page, 'summary');
    await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();

    // The booked view: tickets, booking number and the mail hint; the cart and data are gone.
    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
    await main(page)
      .getByText(/Bestätigung an erika\.muster@example\.at geschickt/)
      .waitFor();
    expect(await main(page).locator('strong').textContent()).toMatch(/^R-[0-9A-Z]{6}$/);
    expect(await ticketItems(page).count()).toBe(2);
    expect(await page.locator('.wizard [aria-current="step"]').textContent()).toContain(
      'Bestätigung',
    );
    expect(await session(page)).toEqual({ transactionId: null, personalData: null });
    expect(await panicButton(page).count()).toBe(0);
    await expectAccessible(page, 'booked view');

    // The link of the confirmation mail shows both tickets.
    const path = await confirmationPath('erika.muster@example.at');
    await page.goto(`${server.baseUrl}${path}`);
    await h1(page, 'Ihre Buchung').waitFor();
    const cancelButtons = main(page).getByRole('button', { name: /^Stornieren / });
    await eventually(() => cancelButtons.count()).toBe(2);
    await expectAccessible(page, 'reservation confirmation');

    await cancelButtons.first().click();
    const confirm = page.getByRole('dialog', { name: 'Termin stornieren?' });
    await confirm.waitFor();
    await expectAccessible(page, 'cancel confirmation');
    await confirm.getByRole('button', { name: 'Ja, Termin stornieren' }).click();
    await main(page).getByText('Ihr Termin wurde storniert.').waitFor();
    await eventually(() => cancelButtons.count()).toBe(1);
    // The other ticket of the order is offered for cancelling too.
    await main(page).getByRole('button', { name: 'Auch diesen Termin stornieren' }).waitFor();
    await main(page).getByRole('heading', { name: 'Stornierte Termine' }).waitFor();
    await expectAccessible(page, 'reservation confirmation after a cancel');

    // An unknown owner id is named in the message.
    const unknown = '0123456789abcdef0123456789abcdef';
    await page.goto(`${server.baseUrl}/reservation-confirmation/${unknown}`);
    await main(page).getByText(`Zur Kennung „${unknown}“`).waitFor();
    await expectAccessible(page, 'unknown reservation');

    // Only the deliberate 404 of the unknown owner id is logged.
    expect(log.errors.filter((e) => !/404/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('the panic button removes the cart and the personal data and starts again', async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    await acceptPrivacy(page, server.baseUrl);
    await page.getByRole('link', { name: `Auswählen ${ROOM}` }).click();
    await h1(page, ROOM).waitFor();
    await addSlot(page, dayA, '14:00-16:00');
    await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
    await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
    await page.getByLabel(/^Vorname/).fill('Paul');
    await page.getByLabel(/^Nachname/).fill('Panik');
    await page.getByLabel(/^E-Mail-Adresse/).fill('paul.panik@example.at');
    await page.getByLabel(/^Telefonnummer/).fill('0664123456');
    await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    await h1(page, 'Zusammenfassung').waitFor();
    // The form checks with the server's own rules (@rr/contracts): only data the browser kept
    // from before (here changed in the session) can still be refused by the server.
    await page.evaluate(() => {
      const data = JSON.parse(sessionStorage.getItem('personalData') ?? '{}') as object;
      sessionStorage.setItem(
        'personalData',
        JSON.stringify({ ...data, email: 'paul.panik@example.c' }),
      );
    });
    await page.reload();
    await h1(page, 'Zusammenfassung').waitFor();
    await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();
    const failure = main(page).getByRole('alert');
    await failure.getByText('Leider ist bei der Reservierung etwas schief gelaufen.').waitFor();
    await failure.getByText(/Einige Ihrer Angaben, etwa die E-Mail-Adresse/).waitFor();
    await failure.getByText('Bitte prüfen Sie: E-Mail-Adresse.').waitFor();
    await expectAccessible(page, 'summary after a refused booking');
    const before = await session(page);
    expect(before.transactionId).not.toBeNull();
    expect(before.personalData).not.toBeNull();

    await panicButton(page).click();
    const ask = page.getByRole('dialog', { name: 'Alles löschen?' });
    await ask.waitFor();
    await expectAccessible(page, 'panic confirmation');
    await ask.getByRole('button', { name: 'Ja, alles löschen' }).click();
    await page.getByText('Ihr Warenkorb wurde zurückgesetzt. Sie können neu beginnen.').waitFor();
    expect(new URL(page.url()).search).toBe('?reset=y');
    expect(await session(page)).toEqual({ transactionId: null, personalData: null });
    expect(await panicButton(page).count()).toBe(0);
    await expectAccessible(page, 'room chooser after the reset');

    // The hold is released on the server: the slot is free again.
    const slots = (await (
      await fetch(
        `${server.baseUrl}/api/rooms/${roomId}/booking?fromDate=${iso(dayA)}&untilDate=${iso(dayA)}`,
      )
    ).json()) as { startTime: string; ticketCount: number }[];
    expect(slots.find((slot) => slot.startTime.startsWith('14:00'))?.ticketCount).toBe(0);

    await page.getByRole('link', { name: 'Zum Warenkorb' }).click();
    await main(page).getByText('Sie haben noch keine Termine gewählt.').waitFor();
    // Only the deliberate refusal (400) of the booking is logged.
    expect(log.errors.filter((e) => !/400/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('works with the keyboard alone on a 375 px wide phone screen', async () => {
    const page = await openPage(browser, { width: 375, height: 740 });
    const log = watchPage(page);
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Datenschutzhinweis' }).waitFor();
    await tabTo(page, /Datenschutzhinweis gelesen/);
    await page.keyboard.press('Space');
    await tabTo(page, /^Bestätigen und weiter$/);
    await page.keyboard.press('Enter');
    await h1(page, 'Platz reservieren').waitFor();
    await noHorizontalScroll(page);

    await tabTo(page, new RegExp(`^Auswählen ${ROOM}$`));
    await page.keyboard.press('Enter');
    await h1(page, ROOM).waitFor();
    await noHorizontalScroll(page);
    const target = main(page).getByRole('heading', { level: 2, name: monthTitle(dayA) });
    for (let i = 0; i < 3 && !(await target.isVisible()); i += 1) {
      await tabTo(page, /^Nächster Monat/);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(100);
    }
    await target.waitFor();
    await dayButton(page, dayA).waitFor();
    // The month grid is one tab stop; the arrow keys go on to day A.
    await tabTo(page, WEEKDAY);
    await arrowTo(page, dayA);
    expect(await isFocused(dayButton(page, dayA))).toBe(true);
    await page.keyboard.press('Enter');
    await dialog(page)
      .getByRole('heading', { name: longDate(dayA) })
      .waitFor();
    await noHorizontalScroll(page);
    await expectAccessible(page, 'day dialog at 375 px');
    await tabTo(page, /^Reservieren 09:00-12:00$/);
    await page.keyboard.press('Enter');
    await dialog(page).waitFor({ state: 'hidden' });
    const cart = cartPanel(page);
    await cart.getByText(`${longDate(dayA)}, 09:00-12:00`, { exact: true }).waitFor();
    await noHorizontalScroll(page);
    await expectAccessible(page, 'room view at 375 px');

    await tabTo(page, /^Weiter zum Warenkorb$/);
    await page.keyboard.press('Enter');
    await h1(page, 'Ihr Warenkorb').waitFor();
    await noHorizontalScroll(page);
    await tabTo(page, /^Weiter zu Ihren Daten$/);
    await page.keyboard.press('Enter');
    await h1(page, 'Ihre Daten').waitFor();
    await noHorizontalScroll(page);

    await tabTo(page, /^Vorname/);
    await page.keyboard.type('Konrad');
    await tabTo(page, /^Nachname/);
    await page.keyboard.type('Tastatur');
    await tabTo(page, /^E-Mail-Adresse/);
    await page.keyboard.type('konrad.tastatur@example.at');
    await tabTo(page, /^Telefonnummer/);
    await page.keyboard.type('+436641234');
    await tabTo(page, /barrierefreien Arbeitsplatz/);
    await page.keyboard.press('Space');
    await tabTo(page, /^Weiter zur Zusammenfassung$/);
    await page.keyboard.press('Enter');
    await h1(page, 'Zusammenfassung').waitFor();
    await noHorizontalScroll(page);
    await expectAccessible(page, 'summary at 375 px');

    await tabTo(page, /^Verbindlich reservieren$/);
    await page.keyboard.press('Enter');
    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();
    // Focus moved to the new heading.
    expect(await isFocused(h1(page, 'Vielen Dank für Ihre Buchung'))).toBe(true);
    await noHorizontalScroll(page);
    await expectAccessible(page, 'booked view at 375 px');
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('names a holiday and the days not yet bookable, and moves through the month with the keys', async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    await acceptPrivacy(page, server.baseUrl);
    await page.getByRole('link', { name: `Auswählen ${ROOM}` }).click();
    await h1(page, ROOM).waitFor();

    // The holiday: its name in the day's name, in its cell and in its dialog.
    await showMonthOf(page, holiday);
    const closedDay = main(page).getByRole('button', {
      name: `${longDate(holiday)}, ${HOLIDAY_NAME}`,
      exact: true,
    });
    await closedDay.waitFor();
    expect(await closedDay.locator('.calendar__note').textContent()).toBe(HOLIDAY_NAME);
    await closedDay.click();
    await dialog(page)
      .getByRole('heading', { name: longDate(holiday) })
      .waitFor();
    await dialog(page).getByText(HOLIDAY_NAME, { exact: true }).waitFor();
    await dialog(page).getByText('An diesem Tag gibt es keine Zeitfenster.').waitFor();
    await expectAccessible(page, 'day dialog of a holiday');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    // The dialog gives the focus back to the day; the grid's keys go on from there.
    expect(await isFocused(closedDay)).toBe(true);
    await page.keyboard.press('ArrowRight');
    const next = new Date(holiday.getFullYear(), holiday.getMonth(), holiday.getDate() + 1);
    expect(await focusedDay(page)).toBe(iso(next));
    await page.keyboard.press('ArrowLeft');
    expect(await isFocused(closedDay)).toBe(true);
    await page.keyboard.press('End');
    const sunday = new Date(
      holiday.getFullYear(),
      holiday.getMonth(),
      holiday.getDate() + 7 - holiday.getDay(),
    );
    const endOfWeek =
      sunday.getMonth() === holiday.getMonth()
        ? sunday
        : new Date(holiday.getFullYear(), holiday.getMonth() + 1, 0);
    expect(await focusedDay(page)).toBe(iso(endOfWeek));
    // Page Down: the next month, the focus on the same day (or the month's last).
    await page.keyboard.press('PageDown');
    const nextMonth = new Date(holiday.getFullYear(), holiday.getMonth() + 1, 1);
    await main(page)
      .getByRole('heading', { level: 2, name: monthTitle(nextMonth) })
      .waitFor();
    await eventually(() => focusedDay(page)).toMatch(new RegExp(`^${iso(nextMonth).slice(0, 7)}-`));
    // Only one day of the grid is a tab stop.
    expect(await main(page).locator('.calendar__grid [tabindex="0"]').count()).toBe(1);

    // A day after the booking window: from which day it can be booked online (the server's
    // day, which the live display names too); the legend explains the mark.
    const answer = await new Client(server.baseUrl).get(
      `/api/rooms/${roomId}/calendar?fromDate=${iso(later)}&untilDate=${iso(later)}`,
    );
    const [{ bookableFrom }] = ((await answer.json()) as { laterDays: { bookableFrom: string }[] })
      .laterDays as [{ bookableFrom: string }];
    const opens = `ab ${bookableFrom.slice(8, 10)}.${bookableFrom.slice(5, 7)}. online buchbar`;
    await showMonthOf(page, later);
    const laterDay = main(page).getByRole('button', {
      name: `${longDate(later)}, ${opens}`,
      exact: true,
    });
    await laterDay.waitFor();
    await main(page)
      .getByRole('list', { name: 'Legende' })
      .getByText('noch nicht online buchbar')
      .waitFor();
    await expectAccessible(page, 'room view with days not yet bookable');
    await laterDay.click();
    await dialog(page).getByText(opens, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it("keeps the focus on its day when the days' notes answer after the slots", async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    // The days' notes (GET /rooms/{id}/calendar) answer 1.5 s after the slots: the day Page Down
    // moves to is plain until its note says it is not yet bookable.
    await page.route('**/api/rooms/*/calendar?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await acceptPrivacy(page, server.baseUrl);
    await page.getByRole('link', { name: `Auswählen ${ROOM}` }).click();
    await h1(page, ROOM).waitFor();
    // A day after the window, on a day of the month every month has.
    const target = new Date(later.getFullYear(), later.getMonth(), Math.min(later.getDate(), 28));
    const before = new Date(target.getFullYear(), target.getMonth() - 1, target.getDate());
    await showMonthOf(page, before);
    await main(page).locator('.calendar__grid [tabindex="0"]').focus();
    await arrowTo(page, before);
    await page.keyboard.press('PageDown');
    await main(page)
      .getByRole('heading', { level: 2, name: monthTitle(target) })
      .waitFor();
    const targetDay = main(page).getByRole('button', {
      name: new RegExp(`^${longDate(target)}, ab \\d\\d\\.\\d\\d\\. online buchbar$`),
    });
    await targetDay.waitFor();
    await eventually(() => focusedDay(page)).toBe(iso(target));
    expect(await isFocused(targetDay)).toBe(true);
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
