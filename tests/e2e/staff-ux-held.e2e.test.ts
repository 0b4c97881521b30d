// The counts of a slot and a room name booked and held seats apart, and
// say until when the holds (15-minute carts) last.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { expectAccessible, type RunningServer } from './harness.ts';
import { weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import {
  LANGS,
  VIEWPORTS,
  openStaffPage,
  signInAs,
  visitorBooks,
  visitorHolds,
} from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let staff: Client;
let roomId = '';
let slotId = '';
/** HH:mm (the machine's zone, which the browser shares) when the last hold ends. */
let until = '';
const [day] = weekdaysAhead(1) as [Date];

const TEXTS = {
  de: {
    occupied: '3 von 60 belegt',
    split: () => `1 gebucht, 2 in Warenkörben vorgemerkt bis ${until} Uhr`,
    slotBlocked: 'Das Zeitfenster kann nicht gelöscht werden: 1 gebucht, 2 in Warenkörben',
    roomBlocked: 'Der Raum kann nicht gelöscht werden: 1 gebucht, 2 in Warenkörben',
  },
  en: {
    occupied: '3 of 60 occupied',
    split: () => `1 booked, 2 held in carts until ${until}`,
    slotBlocked: 'The time slot cannot be deleted: 1 booked, 2 held in carts',
    roomBlocked: 'The room cannot be deleted: 1 booked, 2 held in carts',
  },
} as const;

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  staff = rooms.admin;
  roomId = rooms.idOf(FIRST_ROOM);
  slotId = await createSlot(staff, roomId, day, '09:00', '12:00', 60);
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Bea', lastName: 'Gebucht', email: 'bea@example.org' },
    [slotId],
  );
  await visitorHolds(server.baseUrl, slotId);
  const last = await visitorHolds(server.baseUrl, slotId);
  await waitForReadModels(staff, last);
  const slot = (await (
    await staff.get(`/api/admin/rooms/${roomId}/timeslots/${slotId}`)
  ).json()) as { heldUntil: string };
  const end = new Date(slot.heldUntil);
  until = `${String(end.getHours()).padStart(2, '0')}:${String(end.getMinutes()).padStart(2, '0')}`;
});

afterAll(() => stop?.());

describe('booked and held seats apart', () => {
  it('the slot and the room say how many are booked, how many held and until when', async () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        const label = `${lang} ${viewport.width}`;
        const texts = TEXTS[lang];
        const page = await openStaffPage(browser, viewport, lang);
        await signInAs(page, server.baseUrl, lang);
        const main = page.getByRole('main');

        await page.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-edit/${slotId}`);
        await main.getByText(`${texts.occupied} (${texts.split()})`).waitFor();
        // One person in the list: the two others only hold a seat.
        const people = main.getByRole('table').locator('tbody tr');
        await people.first().waitFor();
        expect(await people.count(), label).toBe(1);
        await main.getByText(texts.slotBlocked).waitFor();
        expect(await main.getByText(texts.slotBlocked).innerText()).toContain(until);
        await expectAccessible(page, `slot edit with holds ${label}`);

        await page.goto(`${server.baseUrl}/admin/room-edit/${roomId}`);
        await main.getByText(texts.roomBlocked).waitFor();
        expect(await main.getByText(texts.roomBlocked).innerText()).toContain(until);
        await expectAccessible(page, `room edit with holds ${label}`);
        await page.context().close();
      }
    }
  });
});
