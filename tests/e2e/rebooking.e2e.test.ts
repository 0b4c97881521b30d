// In the browser: a visitor moves a booked ticket to another slot of the room
// (docs/product.md#rebooking), from the confirmation page (German) and from my bookings
// (English), at 375×740, 768×1024 and 1280×900, the browser in UTC beside a library in Vienna.
// The dialog offers the room's days, then their slots: full ones and the ticket's own disabled
// with the reason, nothing chosen beforehand (going on without a choice is refused); a
// confirmation names the old and the new appointment; its buttons are "Abbrechen"/"Cancel" and a
// primary (not a danger) action. Afterwards the booking number stays, the visitor's page lists
// the old ticket as "verschoben nach …" and staff's ticket history says "Verschoben nach …", not
// "storniert". axe clean on every screen visited.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import type { Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { dotted, LIBRARY_ZONE, libraryTime } from './dates.ts';
import {
  eventually,
  expectAccessible,
  LANG_SIZE_RUNS,
  startBrowserTest,
  watchPage,
  type Lang,
  type RunningServer,
} from './harness.ts';
import { openStaffPage, signInAs } from './staff-ux-support.ts';
import { bookAsVisitor, signInAdmin, waitForReadModels } from './test-rooms.ts';
import { dialog, h1, mailedPath, main, openVisitorPage } from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let admin: Client;
let stop: (() => Promise<void>) | undefined;

const ROOM = 'Umbuchungssaal';
/** Two days of the room's slots, from the library's tomorrow (the room is open from today). */
const today = libraryTime(new Date()).date;
const day = addDays(today, 3);
const otherDay = addDays(today, 4);
const slots = { early: '', second: '', full: '', late: '', other: '' };

const TEXTS = {
  de: {
    locale: 'de',
    move: /^Verschieben /,
    title: 'Termin verschieben',
    next: 'Weiter',
    cancel: 'Abbrechen',
    confirm: 'Termin verschieben',
    day: 'Tag des neuen Termins',
    time: (date: string) => `Uhrzeit am ${longDate('de', date)}`,
    chooseDay: 'Bitte wählen Sie einen Tag.',
    own: 'Ihr jetziger Termin',
    full: 'Ausgebucht',
    question: 'Möchten Sie Ihren Termin so verschieben?',
    done: 'Ihr Termin wurde verschoben.',
    moved: 'Verschobene Termine',
    movedTo: (date: string) => `verschoben nach ${longDate('de', date)}, 14:00-15:00`,
    history: (date: string) => `Verschoben nach ${dotted(date)}, 14:00-15:00`,
    cancelled: 'Storniert',
  },
  en: {
    locale: 'en-GB',
    move: /^Move /,
    title: 'Move the appointment',
    next: 'Continue',
    cancel: 'Cancel',
    confirm: 'Move the appointment',
    day: 'Day of the new appointment',
    time: (date: string) => `Time on ${longDate('en', date)}`,
    chooseDay: 'Please choose a day.',
    own: 'your current appointment',
    full: 'Fully booked',
    question: 'Do you want to move your appointment like this?',
    done: 'Your appointment was moved.',
    moved: 'Moved appointments',
    movedTo: (date: string) => `moved to ${longDate('en', date)}, 14:00-15:00`,
    history: (date: string) => `Moved to ${dotted(date)}, 14:00-15:00`,
    cancelled: 'Cancelled',
  },
} as const;

function longDate(lang: Lang, date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(TEXTS[lang].locale, { dateStyle: 'full' }).format(
    new Date(y, m - 1, d),
  );
}

beforeAll(async () => {
  ({ server, browser, stop } = await startBrowserTest({ TIME_ZONE: LIBRARY_ZONE }));
  admin = await signInAdmin(server.baseUrl);
  const roomId = await createRoom(admin, ROOM, { openStartValue: 0, capacity: 20 });
  slots.early = await createSlot(admin, roomId, day, '08:00', '09:00', 20);
  slots.second = await createSlot(admin, roomId, day, '10:00', '11:00', 20);
  slots.full = await createSlot(admin, roomId, day, '12:00', '13:00', 1);
  slots.late = await createSlot(admin, roomId, day, '14:00', '15:00', 20);
  slots.other = await createSlot(admin, roomId, otherDay, '09:00', '10:00', 20);
  await bookAsVisitor(server.baseUrl, [slots.full], {
    firstName: 'Fritz',
    lastName: 'Voll',
    email: 'fritz@example.at',
  });
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

/** The time ranges of the booked tickets the page lists (its first list). */
const listedTimes = (page: Page) =>
  main(page).locator('.ticket-list').first().locator('> li .time-range').allTextContents();

const checked = (radios: Locator) =>
  radios.evaluateAll((els) => els.map((el) => (el as HTMLInputElement).checked));

/** Moves the page's ticket from 08:00 to 14:00 of `day` through the dialog, checking each step. */
async function moveThroughDialog(page: Page, lang: Lang, label: string): Promise<void> {
  const t = TEXTS[lang];
  await main(page).getByRole('button', { name: t.move }).click();
  const move = dialog(page);
  await move.getByRole('heading', { name: t.title }).waitFor();
  // Cancel is "Abbrechen", the action a primary one.
  await move.getByRole('button', { name: t.cancel, exact: true }).waitFor();
  const next = move.getByRole('button', { name: t.next, exact: true });
  expect(await next.getAttribute('class')).toContain('button--primary');
  // The room's days, none chosen; going on without a choice is refused and focuses the days.
  const days = move.getByRole('group', { name: t.day }).getByRole('radio');
  await eventually(() => days.count()).toBe(2);
  expect(await checked(days)).toEqual([false, false]);
  await expectAccessible(page, `move dialog, days (${label})`);
  await next.click();
  await move.getByText(t.chooseDay).waitFor();
  await eventually(() => days.first().evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await days.first().getAttribute('aria-invalid')).toBe('true');

  // The day's slots: the ticket's own and the full one disabled with the reason; none chosen.
  await move.getByRole('radio', { name: new RegExp(`^${longDate(lang, day)}`) }).check();
  const times = move.getByRole('group', { name: t.time(day) }).getByRole('radio');
  await eventually(() => times.count()).toBe(4);
  expect(await checked(times)).toEqual([false, false, false, false]);
  expect(
    await times.evaluateAll((els) => els.map((el) => (el as HTMLInputElement).disabled)),
  ).toEqual([true, false, true, false]);
  await move.getByText(t.own).waitFor();
  await move.getByText(t.full).waitFor();
  await expectAccessible(page, `move dialog, times (${label})`);
  await move.getByRole('radio', { name: /^14:00-15:00/ }).check();
  await next.click();

  // The confirmation names the old and the new appointment.
  await move.getByText(t.question).waitFor();
  const summary = move.locator('.move-summary');
  expect(await summary.locator('dd').allTextContents()).toEqual([
    `${ROOM}, ${longDate(lang, day)}, 08:00-09:00`,
    `${ROOM}, ${longDate(lang, day)}, 14:00-15:00`,
  ]);
  const confirm = move.getByRole('button', { name: t.confirm, exact: true });
  expect(await confirm.getAttribute('class')).toContain('button--primary');
  await expectAccessible(page, `move dialog, confirmation (${label})`);
  await confirm.click();
  await main(page).getByText(t.done, { exact: false }).waitFor();
  await expect.poll(() => listedTimes(page)).toEqual(['14:00-15:00']);
}

describe('rebooking in the browser', () => {
  for (const [n, { lang, viewport }] of LANG_SIZE_RUNS.entries()) {
    const label = `${lang}, ${viewport.width}×${viewport.height}`;
    it(`moves a ticket through the dialog; the visitor's page and staff's history say where it went (${label})`, async () => {
      const t = TEXTS[lang];
      const email = `move${n}@example.at`;
      const booking = await bookAsVisitor(server.baseUrl, [slots.early], {
        firstName: 'Ulla',
        lastName: `Umbucher ${n}`,
        email,
      });
      // The link opens on a new device, which has not made the booking: it waits for the read
      // models as a mail's reader does by the time the mail arrives.
      await waitForReadModels(admin, booking.position);
      const page = await openVisitorPage(browser, viewport, lang, 'UTC');
      const watch = watchPage(page);
      if (lang === 'de') {
        await page.goto(`${server.baseUrl}/reservation-confirmation/${booking.ownerId}`);
        await main(page).getByText(booking.bookingNumber).waitFor();
      } else {
        // English: from my bookings, reached by the mail's link.
        await page.goto(`${server.baseUrl}/my-bookings`);
        await h1(page, 'My bookings').waitFor();
        await main(page)
          .getByLabel(/^Your e-mail address/)
          .fill(email);
        await main(page).getByRole('button', { name: 'Send link' }).click();
        await main(page).getByRole('status').waitFor();
        const link = await mailedPath(server.mailDir, email, /http\S+\/my-bookings\/\S+/);
        await page.goto(server.baseUrl + link);
        await main(page)
          .getByRole('heading', { name: `Booking ${booking.bookingNumber}` })
          .waitFor();
      }
      expect(await listedTimes(page)).toEqual(['08:00-09:00']);
      await moveThroughDialog(page, lang, label);

      // The visitor's page: the booking number stays, the old ticket "moved to …".
      await page.goto(`${server.baseUrl}/reservation-confirmation/${booking.ownerId}`);
      await main(page).getByText(booking.bookingNumber).waitFor();
      await main(page).getByRole('heading', { name: t.moved }).waitFor();
      await main(page).getByText(t.movedTo(day), { exact: true }).waitFor();
      expect(
        await main(page)
          .getByRole('heading', { name: /Stornierte|Cancelled/ })
          .count(),
      ).toBe(0);
      await expectAccessible(page, `confirmation page after the move (${label})`);
      expect(watch.errors).toEqual([]);
      // Staff read on their own device, which has not seen the visitor's move.
      const moved = await page.evaluate(() => sessionStorage.getItem('position'));
      expect(moved, 'the move answered a position').not.toBeNull();
      await page.context().close();
      await waitForReadModels(admin, moved);

      // Staff's history of the old ticket: "moved to …", no cancellation.
      const staff = await openStaffPage(browser, viewport, lang, 'UTC');
      await signInAs(staff, server.baseUrl, lang);
      await staff.goto(`${server.baseUrl}/admin/reservations/${booking.ticketIds[0]}/history`);
      await main(staff)
        .getByRole('cell', { name: t.history(day), exact: true })
        .waitFor();
      expect(await main(staff).getByRole('cell', { name: t.cancelled, exact: true }).count()).toBe(
        0,
      );
      await expectAccessible(staff, `ticket history after the move (${label})`);
      await staff.context().close();
    });
  }
});
