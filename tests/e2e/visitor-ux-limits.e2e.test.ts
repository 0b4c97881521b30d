import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { longDate, weekdaysAhead } from './dates.ts';
import {
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  SECOND_ROOM,
  waitForReadModels,
} from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  dayButton,
  DESKTOP,
  dialog,
  fillPersonalData,
  h1,
  main,
  PHONE,
  serveAs,
  showMonthOf,
} from './visitor-pages.ts';

/**
 * Each limit shows where it applies. With MAX_TICKETS_PER_DAY=2 the
 * calendar marks the day of a slot in the cart and the day at its limit, a slot overlapping one
 * in the cart says so (not "temporarily full" beside free seats), and a booking refused because
 * of an earlier booking of the same e-mail address names the limit and the day, with a way to
 * remove tickets.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let earlierSlot: string;

const [dayA, dayB] = weekdaysAhead(2) as [Date, Date];
/** The English pages' long date of a day. */
const longDateEn = (d: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'full' }).format(d);
const H = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };

/** Books the slot for the e-mail address through the visitor API (an earlier booking). */
async function bookEarlier(email: string): Promise<void> {
  const cart = await fetch(`${server.baseUrl}/api/transactions`, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({ timeSlotId: earlierSlot }),
  });
  expect(cart.status, await cart.clone().text()).toBeLessThan(300);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const booked = await fetch(`${server.baseUrl}/api/transactions/${transactionId}/booking`, {
    method: 'PUT',
    headers: H,
    body: JSON.stringify({
      salutation: 'NONE',
      firstName: 'Frühe',
      lastName: 'Buchung',
      email,
      phone: '+431234',
      accessibility: false,
      language: 'de',
    }),
  });
  expect(booked.status, await booked.clone().text()).toBeLessThan(300);
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { MAX_TICKETS_PER_DAY: '2' });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '09:00', '12:00', 24);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '13:00', '17:00', 24);
  await createSlot(admin, idOf(FIRST_ROOM), dayA, '17:00', '19:00', 24);
  await createSlot(admin, idOf(SECOND_ROOM), dayA, '10:00', '13:00', 24);
  earlierSlot = await createSlot(admin, idOf(FIRST_ROOM), dayB, '09:00', '12:00', 24);
  await createSlot(admin, idOf(FIRST_ROOM), dayB, '13:00', '17:00', 24);
  await createSlot(admin, idOf(FIRST_ROOM), dayB, '17:00', '19:00', 24);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('every limit shows where it applies', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`marks, overlap and a refused booking name the limit (${size})`, async () => {
      const email = `limits.${size}@example.at`;
      await bookEarlier(email);
      const page = await openPage(browser, viewport);
      const log = watchPage(page);
      await acceptPrivacy(page, server.baseUrl);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, dayA, '09:00-12:00');

      // Another room's slot overlapping the one in the cart says so.
      await main(page).getByRole('link', { name: 'Anderen Raum wählen' }).click();
      await page.getByRole('link', { name: `Auswählen ${SECOND_ROOM}` }).click();
      await h1(page, SECOND_ROOM).waitFor();
      await showMonthOf(page, dayA);
      await dayButton(page, dayA).click();
      await dialog(page).getByText('0 von 24 belegt').waitFor();
      await dialog(page)
        .getByText(/überschneidet sich mit einem Termin/)
        .waitFor();
      expect(await dialog(page).getByText('Vorübergehend voll').count()).toBe(0);
      await expectAccessible(page, `day dialog with an overlapping slot (${size}, de)`);
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'hidden' });

      // Two slots of day A in the cart: the calendar marks the day (in the cart, maximum reached).
      await main(page).getByRole('link', { name: 'Anderen Raum wählen' }).click();
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, dayA, '13:00-17:00');
      await showMonthOf(page, dayA);
      await main(page)
        .getByRole('button', {
          name: `${longDate(dayA)}, frei, Termin in Ihrem Warenkorb, Höchstzahl für diesen Tag erreicht`,
        })
        .waitFor();
      await main(page)
        .getByRole('list', { name: 'Legende' })
        .getByText('Höchstzahl für diesen Tag erreicht')
        .waitFor();
      await expectAccessible(page, `room calendar with marks (${size}, de)`);

      // Two slots of day B: with the earlier booking of this address that day holds three,
      // which only the booking can know.
      await addSlot(page, dayB, '13:00-17:00');
      await addSlot(page, dayB, '17:00-19:00');
      await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
      await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
      await h1(page, 'Ihre Daten').waitFor();
      await fillPersonalData(page, email);
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      await h1(page, 'Zusammenfassung').waitFor();
      await main(page).getByRole('button', { name: 'Verbindlich reservieren' }).click();
      const failure = main(page).getByRole('alert');
      await failure
        .getByText(
          `Höchstens 2 Termine pro Tag, frühere Buchungen eingerechnet – erreicht am ${longDate(dayB)}.`,
          { exact: false },
        )
        .waitFor();
      await failure.getByRole('link', { name: 'Termine ändern' }).waitFor();
      await expectAccessible(page, `summary refused at the day's limit (${size}, de)`);

      await serveAs(page, 'en');
      await page.reload();
      await main(page).getByRole('button', { name: 'Book now' }).click();
      await main(page)
        .getByRole('alert')
        .getByText(
          `At most 2 appointments per day, earlier bookings included – reached on ${longDateEn(dayB)}.`,
        )
        .waitFor();
      await expectAccessible(page, `summary refused at the day's limit (${size}, en)`);
      // Only the deliberate refusals of the booking are logged.
      expect(log.errors.filter((e) => !/40\d/.test(e))).toEqual([]);
      await page.context().close();
    });
  }
});
