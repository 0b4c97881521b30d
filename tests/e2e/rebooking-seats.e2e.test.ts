// In the browser: a visitor moves a booked ticket in a room with a seat plan
// (docs/product.md#rebooking, docs/product.md#picking-a-seat). After the new slot the seat picker
// opens over the move dialog: in German at 1280×900 the visitor picks one seat in the list, in
// English at 375×740 any seat with a filter. The confirmation names the seat asked for, and the
// moved ticket holds that seat, not the one the server would have chosen without the wish (the
// seat the ticket had); the moved ticket's check-in QR code is named with its seat. axe clean on
// the seat picker over the move dialog. "Change seat only" (English, 375×740) keeps the slot and
// opens the seat picker for the ticket's own slot: the ticket then holds the seat picked.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import type { Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { LIBRARY_ZONE, libraryTime } from './dates.ts';
import {
  expectAccessible,
  startBrowserTest,
  watchPage,
  type Lang,
  type RunningServer,
} from './harness.ts';
import { setRoomSeats, type SeatRow } from './seat-plans.ts';
import { bookAsVisitor, signInAdmin, waitForReadModels } from './test-rooms.ts';
import { dialog, main, openVisitorPage } from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let admin: Client;
let stop: (() => Promise<void>) | undefined;

const ROOM = 'Platzsaal';
const day = addDays(libraryTime(new Date()).date, 3);
const slots = { early: '', late: '' };

/**
 * A booking of the early slot gets the free seat with the fewest attributes, A1 (each run moves
 * its ticket away, so the next booking gets A1 again); a move without a wish would keep it.
 */
const SEATS: SeatRow[] = [
  ['A1', []],
  ['A2', ['window']],
  ['A3', ['power']],
  ['A4', ['window', 'power']],
];

const TEXTS = {
  de: {
    locale: 'de',
    viewport: { width: 1280, height: 900 },
    move: /^Verschieben /,
    next: 'Weiter',
    confirm: 'Termin verschieben',
    seats: /^Platz wählen: /,
    list: 'Liste',
    filter: null,
    seat: 'Platz A4, Steckdose, Fensterplatz, frei',
    book: 'Diesen Platz reservieren',
    from: 'Platz A1',
    before: 'Platz A1',
    wish: 'Platz A4, Steckdose, Fensterplatz',
    done: 'Ihr Termin wurde verschoben.',
    held: 'Platz A4, Steckdose, Fensterplatz',
    qr: 'QR-Code zum Einchecken',
    label: 'Platz A4',
  },
  en: {
    locale: 'en-GB',
    viewport: { width: 375, height: 740 },
    move: /^Move /,
    next: 'Continue',
    confirm: 'Move the appointment',
    seats: /^Choose a seat: /,
    list: 'List',
    filter: 'with power socket',
    seat: null,
    book: 'Reserve any seat with these features',
    from: 'Seat A1',
    before: 'Seat A1',
    wish: 'any seat: power socket',
    done: 'Your appointment was moved.',
    // The free seat with power and the fewest attributes; without the wish it would be A1.
    held: 'Seat A3, power socket',
    qr: 'QR code for check-in',
    label: 'Seat A3',
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
  await setRoomSeats(admin, roomId, SEATS);
  // With check-in: each booked ticket shows its QR code, named with the ticket and its seat.
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  slots.early = await createSlot(admin, roomId, day, '08:00', '09:00', 4);
  slots.late = await createSlot(admin, roomId, day, '14:00', '15:00', 4);
});

afterAll(() => stop?.());

/** The seats the page's booked tickets hold (its first list). */
const heldSeats = (page: Page) =>
  main(page).locator('.ticket-list').first().locator('.ticket-list__seat').allTextContents();

describe('rebooking in a room with a seat plan', () => {
  for (const lang of ['de', 'en'] as const) {
    const t = TEXTS[lang];
    it(`picks the new slot's seat in the seat picker (${lang}, ${t.viewport.width})`, async () => {
      const booking = await bookAsVisitor(server.baseUrl, [slots.early], {
        firstName: 'Paula',
        lastName: `Platz ${lang}`,
        email: `seat-move.${lang}@example.at`,
      });
      await waitForReadModels(admin, booking.position);
      const page = await openVisitorPage(browser, t.viewport, lang, 'UTC');
      const watch = watchPage(page);
      await page.goto(`${server.baseUrl}/reservation-confirmation/${booking.ownerId}`);
      await main(page).getByText(booking.bookingNumber).waitFor();
      await expect.poll(() => heldSeats(page)).toEqual([t.before]);

      await main(page).getByRole('button', { name: t.move }).click();
      const move = dialog(page).first();
      await move.getByRole('radio', { name: new RegExp(`^${longDate(lang, day)}`) }).check();
      await move.getByRole('radio', { name: /^14:00-15:00/ }).check();
      await move.getByRole('button', { name: t.next, exact: true }).click();

      // The seat picker over the move dialog, for the new slot.
      const seats = page.getByRole('dialog', { name: t.seats });
      await seats.getByRole('button', { name: t.list, exact: true }).click();
      await seats.getByRole('radio').first().waitFor();
      await expectAccessible(page, `seat picker of a move (${lang})`);
      if (t.seat) await seats.getByRole('radio', { name: t.seat }).check();
      if (t.filter) await seats.getByRole('checkbox', { name: t.filter }).check();
      await seats.getByRole('button', { name: t.book }).click();
      await seats.waitFor({ state: 'hidden' });

      // The confirmation names the seat asked for beside the new appointment.
      const summary = move.locator('.move-summary dd');
      await summary.first().waitFor();
      expect(await summary.allTextContents()).toEqual([
        `${ROOM}, ${longDate(lang, day)}, 08:00-09:00, ${t.from}`,
        `${ROOM}, ${longDate(lang, day)}, 14:00-15:00, ${t.wish}`,
      ]);
      await move.getByRole('button', { name: t.confirm, exact: true }).click();
      await main(page).getByText(t.done, { exact: false }).waitFor();
      await expect.poll(() => heldSeats(page)).toEqual([t.held]);
      await main(page)
        .getByRole('img', {
          name: `${t.qr}: ${ROOM}, ${longDate(lang, day)}, 14:00-15:00, ${t.label}`,
        })
        .waitFor();
      expect(watch.errors).toEqual([]);
      await page.context().close();
    });
  }

  it('keeps the slot and changes only the seat (en, 375)', async () => {
    const booking = await bookAsVisitor(server.baseUrl, [slots.early], {
      firstName: 'Paula',
      lastName: 'Seat only',
      email: 'seat-only.en@example.at',
    });
    await waitForReadModels(admin, booking.position);
    const page = await openVisitorPage(browser, { width: 375, height: 740 }, 'en', 'UTC');
    const watch = watchPage(page);
    await page.goto(`${server.baseUrl}/reservation-confirmation/${booking.ownerId}`);
    await main(page).getByText(booking.bookingNumber).waitFor();
    await expect.poll(() => heldSeats(page)).toEqual(['Seat A1']);

    await main(page)
      .getByRole('button', { name: /^Move / })
      .click();
    await dialog(page).first().getByRole('button', { name: 'Change seat only' }).click();
    // The seat picker over the move dialog, for the ticket's own slot.
    const seats = page.getByRole('dialog', { name: /^Choose a seat: / });
    await seats.getByText('08:00-09:00', { exact: false }).first().waitFor();
    await seats.getByRole('button', { name: 'List', exact: true }).click();
    await seats.getByRole('radio').first().waitFor();
    await expectAccessible(page, 'seat picker of a seat-only change (en)');
    await seats.getByRole('radio', { name: 'Seat A2, window seat, free' }).check();
    await seats.getByRole('button', { name: 'Reserve this seat' }).click();
    await seats.waitFor({ state: 'hidden' });

    // Same slot, the new seat.
    await expect.poll(() => heldSeats(page)).toEqual(['Seat A2, window seat']);
    await main(page)
      .getByRole('img', {
        name: `QR code for check-in: ${ROOM}, ${longDate('en', day)}, 08:00-09:00, Seat A2`,
      })
      .waitFor();
    await expectAccessible(page, 'the ticket after a seat-only change (en)');
    expect(watch.errors).toEqual([]);
    await page.context().close();
  });
});
