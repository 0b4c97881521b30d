// Booking a person into a full slot warns and asks before overbooking;
// the server refuses a booking that would overbook unconfirmed (`confirmOverbooking: false`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { expectAccessible, type RunningServer } from './harness.ts';
import { weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { LANGS, VIEWPORTS, openStaffPage, signInAs, visitorBooks } from './staff-ux-support.ts';
import { budget } from '../support/time-budget.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let staff: Client;
let roomId = '';
const [day] = weekdaysAhead(1) as [Date];

const TEXTS = {
  de: {
    dialog: 'Zeitfenster überbuchen?',
    confirm: 'Ja, überbuchen',
    cancel: 'Nicht einbuchen',
    full: '1 von 1 belegt',
    after: 'wären es 2 von 1',
    slotPage: 'Zeitfenster bearbeiten',
    occupied: '2 von 1 belegt',
  },
  en: {
    dialog: 'Overbook this time slot?',
    confirm: 'Yes, overbook',
    cancel: 'Do not book',
    full: '1 of 1 taken',
    after: 'it would be 2 of 1',
    slotPage: 'Edit time slot',
    occupied: '2 of 1 occupied',
  },
} as const;

async function ticketCount(slotId: string): Promise<number> {
  const res = await staff.get(`/api/admin/rooms/${roomId}/timeslots/${slotId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { ticketCount: number }).ticketCount;
}

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  staff = rooms.admin;
  roomId = rooms.idOf(FIRST_ROOM);
});

afterAll(() => stop?.());

describe('staff booking into a full slot', () => {
  it('asks before overbooking, also when the slot filled up while the form was open', async () => {
    let hour = 8;
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        const label = `${lang} ${viewport.width}`;
        const texts = TEXTS[lang];
        const start = `${String(hour).padStart(2, '0')}:00`;
        const end = `${String(hour).padStart(2, '0')}:30`;
        hour += 1;
        // One seat, free when the form opens.
        const slotId = await createSlot(staff, roomId, day, start, end, 1);
        await waitForReadModels(staff);
        const page = await openStaffPage(browser, viewport, lang);
        await signInAs(page, server.baseUrl, lang);
        await page.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-book/${slotId}`);
        const main = page.getByRole('main');
        await main.locator('#slot-book-firstName').waitFor();

        // Meanwhile a visitor takes the last seat.
        const position = await visitorBooks(
          server.baseUrl,
          { firstName: 'Vera', lastName: 'Visitor', email: `vera-${hour}@example.org` },
          [slotId],
        );
        await waitForReadModels(staff, position);

        await main.locator('#slot-book-firstName').fill('Clara');
        await main.locator('#slot-book-lastName').fill('Berger');
        const submit = main.locator('form button[type="submit"]');
        // The page still counts a free seat: it books only while one is free, and the server,
        // which knows better, refuses (race-safe), so the page asks.
        const bookings: { status: number; sent: unknown; error: unknown; payload: unknown }[] = [];
        page.on('response', async (r) => {
          if (r.request().method() !== 'POST' || !r.url().endsWith('/booking')) return;
          const answer = (await r.json().catch(() => null)) as {
            error?: unknown;
            payload?: unknown;
          } | null;
          bookings.push({
            status: r.status(),
            sent: (r.request().postDataJSON() as { confirmOverbooking?: unknown })
              .confirmOverbooking,
            error: answer?.error,
            payload: answer?.payload,
          });
        });
        await submit.click();
        const dialog = page.getByRole('dialog', { name: texts.dialog });
        await dialog.waitFor();
        await expect
          .poll(() => bookings.slice(), { timeout: budget(5_000) })
          .toEqual([
            {
              status: 409,
              sent: false,
              error: 'timeslot__overbooking_not_confirmed',
              payload: ['seats', '1', '1'],
            },
          ]);
        await dialog.getByText(texts.full).waitFor();
        await dialog.getByText(texts.after).waitFor();
        await expectAccessible(page, `overbook dialog ${label}`);

        // Not confirmed: nobody is booked.
        await dialog.getByRole('button', { name: texts.cancel }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await ticketCount(slotId), label).toBe(1);
        // The page now says the slot is full.
        await main.locator('.notice--warning').waitFor();
        await expectAccessible(page, `slot book (full) ${label}`);

        // Confirmed: booked beyond the capacity.
        await submit.click();
        await dialog.getByRole('button', { name: texts.confirm }).click();
        await page.getByRole('heading', { level: 1, name: texts.slotPage }).waitFor();
        await expect
          .poll(() => bookings.at(-1), { timeout: budget(5_000) })
          .toEqual({ status: 201, sent: true, error: undefined });
        await main.getByText(texts.occupied).waitFor();
        expect(await ticketCount(slotId), label).toBe(2);
        await page.context().close();
      }
    }
  });
});
