// Staff choose the seats a slot offers (docs/product.md#seat-plans, exam places) in the time
// slot's editor: a checklist of the room's seats with "all seats", in German and English, on a
// phone and a desktop, accessible; the slot then offers only the seats ticked.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { expectAccessible, type RunningServer } from './harness.ts';
import { weekdaysAhead } from './dates.ts';
import { setRoomSeats } from './seat-plans.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms } from './test-rooms.ts';
import { LANGS, VIEWPORTS, openStaffPage, signInAs } from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let staff: Client;
let roomId = '';
let slotId = '';
let seatIds = new Map<string, string>();
const [day] = weekdaysAhead(1) as [Date];

const TEXTS = {
  de: { all: 'Alle Plätze', save: 'Plätze speichern', chosen: /Angebotene Plätze \(2 gewählt\)/ },
  en: { all: 'All seats', save: 'Save seats', chosen: /Seats offered \(2 chosen\)/ },
} as const;

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  staff = rooms.admin;
  roomId = rooms.idOf(FIRST_ROOM);
  seatIds = await setRoomSeats(staff, roomId, [
    ['E1', []],
    ['E2', []],
    ['E3', ['power']],
    ['E4', []],
  ]);
  slotId = await createSlot(staff, roomId, day, '09:00', '12:00', 4);
});

afterAll(() => stop?.());

const offered = async () =>
  (
    (await (await staff.get(`/api/admin/rooms/${roomId}/timeslots/${slotId}`)).json()) as {
      seatIds: string[] | null;
    }
  ).seatIds;

describe('the seats a slot offers', () => {
  it('are ticked in the slot editor, saved, and set back to all seats', async () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        const label = `${lang} ${viewport.width}`;
        const texts = TEXTS[lang];
        const page = await openStaffPage(browser, viewport, lang);
        await signInAs(page, server.baseUrl, lang);
        const main = page.getByRole('main');
        await page.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-edit/${slotId}`);
        const all = main.getByRole('checkbox', { name: texts.all });
        await all.waitFor();
        expect(await all.isChecked(), label).toBe(true);
        await all.uncheck();
        await main.getByRole('checkbox', { name: 'E2', exact: true }).check();
        await main.getByRole('checkbox', { name: 'E4', exact: true }).check();
        await main.getByRole('group', { name: texts.chosen }).waitFor();
        await expectAccessible(page, `slot seats ${label}`);
        await main.getByRole('button', { name: texts.save }).click();
        await expect.poll(offered).toEqual([seatIds.get('E2'), seatIds.get('E4')]);
        // Back to every seat.
        await page.reload();
        await all.waitFor();
        expect(await all.isChecked(), label).toBe(false);
        await all.check();
        await main.getByRole('button', { name: texts.save }).click();
        await expect.poll(offered).toBeNull();
        await page.context().close();
      }
    }
  });
});
