// A clean sign-in page, and the daily report at 375 px.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, type RunningServer } from './harness.ts';
import { iso, weekdaysAhead } from './dates.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import {
  LANGS,
  PHONE,
  SIGN_IN,
  VIEWPORTS,
  openStaffPage,
  signInAs,
  visitorBooks,
  watchRequests,
} from './staff-ux-support.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let roomId = '';
const [day] = weekdaysAhead(1) as [Date];

beforeAll(async () => {
  const rooms = await startWithTestRooms();
  ({ server, browser, stop } = rooms);
  const { admin, idOf } = rooms;
  roomId = idOf(FIRST_ROOM);
  const slot = await createSlot(admin, roomId, day, '09:00', '12:00', 4);
  await visitorBooks(
    server.baseUrl,
    {
      firstName: 'Maximiliane',
      lastName: 'Oberhuber-Wiesenthal',
      email: 'maximiliane.oberhuber-wiesenthal@example.org',
    },
    [slot],
  );
  const last = await visitorBooks(
    server.baseUrl,
    { firstName: 'Bo', lastName: 'Li', email: 'bo@example.org' },
    [slot],
  );
  await waitForReadModels(admin, last);
});

afterAll(() => stop?.());

describe('staff experience', () => {
  it('14: loading the sign-in page asks who is signed in without a failed request', async () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        const page = await openStaffPage(browser, viewport, lang);
        const log = watchRequests(page);
        await page.goto(`${server.baseUrl}/admin/`);
        await page
          .getByRole('heading', { level: 1, name: SIGN_IN[lang].title, exact: true })
          .waitFor();
        await page.reload();
        await page
          .getByRole('heading', { level: 1, name: SIGN_IN[lang].title, exact: true })
          .waitFor();
        expect(log.failed, `${lang} ${viewport.width}`).toEqual([]);
        expect(log.errors, `${lang} ${viewport.width}`).toEqual([]);
        await expectAccessible(page, `sign-in ${lang} ${viewport.width}`);
        // Signing in still works, and a reload keeps the session.
        await signInAs(page, server.baseUrl, lang);
        await page.reload();
        await page.getByRole('button', { name: lang === 'de' ? 'Abmelden' : 'Sign out' }).waitFor();
        expect(log.failed).toEqual([]);
        expect(log.errors).toEqual([]);
        await page.context().close();
      }
    }
  });

  it('13: the daily report passes axe at 375 px and 1280 px, its table scrolls by keyboard', async () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        const page = await openStaffPage(browser, viewport, lang);
        await signInAs(page, server.baseUrl, lang);
        await page.goto(`${server.baseUrl}/admin/daily-report/${roomId}?date=${iso(day)}`);
        const table = page.getByRole('main').getByRole('table');
        await table.getByRole('cell', { name: 'Oberhuber-Wiesenthal' }).waitFor();
        await expectAccessible(page, `daily report ${lang} ${viewport.width}`);
        if (viewport === PHONE) {
          // The page itself does not scroll sideways; the table's region takes the focus.
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(viewport.width);
          const region = page.getByRole('region', { name: new RegExp(FIRST_ROOM) });
          await region.focus();
          expect(await region.evaluate((el) => el === document.activeElement)).toBe(true);
        }
        await page.context().close();
      }
    }
  });
});
