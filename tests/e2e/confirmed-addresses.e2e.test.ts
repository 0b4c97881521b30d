// In the browser: confirmed addresses (docs/product.md#confirmed-addresses). Staff see a booking
// awaiting confirmation in the reservations list; the visitor's owner page (the mail's link)
// asks to confirm by the deadline, and its button confirms. German and English, 375 and 1280
// wide, axe clean; the API test (tests/api/confirmed-addresses.int.test.ts) covers the release.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { weekdaysAhead } from './dates.ts';
import { expectAccessible, launchBrowser, startServer, type RunningServer } from './harness.ts';
import { openStaffPage, signInAs, VIEWPORTS } from './staff-ux-support.ts';
import {
  bookAsVisitor,
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  waitForReadModels,
  type VisitorBooking,
} from './test-rooms.ts';
import { main, openVisitorPage } from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
const RUNS = (['de', 'en'] as const).flatMap((lang) =>
  VIEWPORTS.map((viewport) => ({ lang, viewport })),
);
const TEXTS = {
  de: {
    confirmBy: /^Bitte bestätigen Sie Ihre Reservierung bis \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr\./,
    button: 'Reservierung bestätigen',
    confirmed: 'Vielen Dank, Ihre Reservierung ist bestätigt.',
    awaiting: 'Wartet auf Bestätigung',
  },
  en: {
    confirmBy: /^Please confirm your reservation by \d\d\.\d\d\.\d{4}, \d\d:\d\d\./,
    button: 'Confirm reservation',
    confirmed: 'Thank you, your reservation is confirmed.',
    awaiting: 'Awaiting confirmation',
  },
} as const;
/** One booking per run, each awaiting confirmation until its run confirms it. */
const bookings: VisitorBooking[] = [];

const visitorPage = (viewport: { width: number; height: number }, lang: 'de' | 'en' = 'de') =>
  openVisitorPage(browser, viewport, lang);

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  const room = idOf(FIRST_ROOM);
  const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
    json: { confirmBookingMinutes: 1440 },
  });
  if (set.status !== 200) throw new Error(`services not set: ${set.status}`);
  const [day] = weekdaysAhead(1) as [Date];
  const slot = await createSlot(admin, room, day, '09:00', '12:00', 10);
  for (const [i] of RUNS.entries())
    bookings.push(
      await bookAsVisitor(server.baseUrl, [slot], {
        firstName: 'Clara',
        lastName: `Confirm${i}`,
        email: `clara.confirm${i}@example.at`,
      }),
    );
  await waitForReadModels(admin, bookings.at(-1)!.position);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('confirmed addresses in the browser', () => {
  for (const [i, { lang, viewport }] of RUNS.entries()) {
    it(`staff see the booking awaiting confirmation; the owner page confirms it (${lang}, ${viewport.width} px)`, async () => {
      const texts = TEXTS[lang];
      const staff = await openStaffPage(browser, viewport, lang);
      try {
        await signInAs(staff, server.baseUrl, lang);
        await staff.goto(`${server.baseUrl}/admin/reservations`);
        // The runs before confirmed theirs: the others still await confirmation.
        const marks = main(staff).getByText(texts.awaiting, { exact: true });
        await marks.first().waitFor();
        await expect.poll(() => marks.count()).toBe(RUNS.length - i);
        await expectAccessible(
          staff,
          `reservations awaiting confirmation (${lang}, ${viewport.width} px)`,
        );
      } finally {
        await staff.context().close();
      }

      const page = await visitorPage(viewport, lang);
      try {
        await page.goto(`${server.baseUrl}/reservation-confirmation/${bookings[i]!.ownerId}`);
        await main(page).getByText(texts.confirmBy).waitFor();
        await expectAccessible(
          page,
          `owner page awaiting confirmation (${lang}, ${viewport.width} px)`,
        );
        await main(page).getByRole('button', { name: texts.button, exact: true }).click();
        await main(page).getByRole('status').getByText(texts.confirmed).waitFor();
        await main(page).getByRole('button', { name: texts.button }).waitFor({ state: 'detached' });
        await expectAccessible(page, `owner page confirmed (${lang}, ${viewport.width} px)`);
      } finally {
        await page.context().close();
      }
    });
  }
});
