// The staff's half of the axe sweep: no WCAG 2.0/2.1/2.2 A or AA violation on any staff screen,
// at 375×740 and 1280×900, one test per screen and state. After the sign-in screens each screen
// is opened by its address, so one failing screen does not hide the others. One file a language
// (axe-staff-de, axe-staff-en), so the two run side by side.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { FIRST_SITE_ID } from '@rr/contracts';
import { iso, weekdaysAhead } from './dates.ts';
import { SIGN_IN, VIEWPORTS, openStaffPage, signInAs, type Lang } from './staff-ux-support.ts';
import { dialog, main } from './visitor-pages.ts';
import {
  BLACKLISTED,
  clickAndWait,
  screen,
  settled,
  useAxeWorld,
  visit,
  type AxeWorld,
  withErrors,
} from './axe-screens.ts';

/** The screens opened by their address, by name; "(add)" forms are scanned with errors too. */
const slotPath = ({ ids }: AxeWorld) => `/admin/room/${ids.room}/time-slot-edit/${ids.slot}`;
const SCREENS: [string, (w: AxeWorld) => string][] = [
  ['rooms list', () => '/admin/rooms'],
  ['room form (add)', () => '/admin/room-add'],
  ['room form (edit)', ({ ids }) => `/admin/room-edit/${ids.room}`],
  ['room image form', ({ ids }) => `/admin/room-edit-image/${ids.room}`],
  ['seat plan', ({ ids }) => `/admin/room-edit/${ids.seatRoom}/seats`],
  ['seat plan (no seats)', ({ ids }) => `/admin/room-edit/${ids.emptyRoom}/seats`],
  ['seat plan image form', ({ ids }) => `/admin/room-edit/${ids.seatRoom}/seat-plan-image`],
  ['seat QR sheet', ({ ids }) => `/admin/room-edit/${ids.seatRoom}/seats/qr-sheet`],
  [
    'time slots (calendar)',
    ({ ids, day }) =>
      `/admin/room/${ids.room}/time-slots?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
  ],
  ['time slot form (add)', ({ ids }) => `/admin/room/${ids.room}/time-slot-add`],
  ['time slot form (edit)', slotPath],
  ['time slot capacities', ({ ids }) => `/admin/room/${ids.room}/time-slot-edit-multi-capacity`],
  ['time slot history', (w) => `${slotPath(w)}/history`],
  ['staff booking form', ({ ids }) => `/admin/room/${ids.room}/time-slot-book/${ids.slot}`],
  [
    'staff booking form (full slot)',
    ({ ids }) => `/admin/room/${ids.room}/time-slot-book/${ids.fullSlot}`,
  ],
  ['sites list', () => '/admin/sites'],
  ['site form (add)', () => '/admin/site-add'],
  ['site form (edit)', () => `/admin/site-edit/${FIRST_SITE_ID}`],
  ['holidays list', ({ day }) => `/admin/holiday-list?year=${day.getFullYear()}`],
  ['holiday form (add)', () => '/admin/holiday-add'],
  ['holiday form (edit)', ({ ids }) => `/admin/holiday-edit/${ids.holiday}`],
  ['holiday import', () => '/admin/holiday-import'],
  ['room closure', () => '/admin/closures'],
  ['blacklist', () => '/admin/blacklist'],
  ['blacklist form (add)', () => '/admin/blacklist-add'],
  ['blacklist form (edit)', () => `/admin/blacklist-edit/${encodeURIComponent(BLACKLISTED)}`],
  ['no-show blocks', () => '/admin/no-show-blocks'],
  ['reservations list', () => '/admin/reservations'],
  ['reservations list (filtered)', () => '/admin/reservations?searchTerm=huber'],
  ['reservations list (cancelled)', () => '/admin/reservations?searchType=cancelled'],
  ['reservation detail', ({ ids }) => `/admin/reservations/${ids.ticket}`],
  ['reservation history', ({ ids }) => `/admin/reservations/${ids.ticket}/history`],
  ['overbooked list', () => '/admin/overbooked'],
  ['check-in', () => '/admin/check-in'],
  ['reports', () => '/admin/reports'],
  ['daily report', ({ ids, day }) => `/admin/daily-report/${ids.room}?date=${iso(day)}`],
  ['occupancy report', () => '/admin/occupancy-report'],
  ['staff accounts and sign-ins', () => '/admin/staff-accounts'],
  ['integrations', () => '/admin/integrations'],
  ['webhook form (add)', () => '/admin/webhook-add'],
  ['webhook form (edit)', ({ ids }) => `/admin/webhook-edit/${ids.webhook}`],
  ['webhook deliveries', ({ ids }) => `/admin/webhook-deliveries/${ids.webhook}`],
];

/** Declares the sweep of every staff screen in one language, on the file's own server. */
export function describeStaffScreens(lang: Lang): void {
  const world = useAxeWorld();

  describe(`axe on the staff's screens (${lang})`, () => {
    let page: Page;
    const current = () => page;
    const go = (path: string) => visit(page, world.server.baseUrl, path);

    beforeAll(async () => {
      page = await openStaffPage(world.browser, VIEWPORTS[1], lang);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    screen('sign-in', current, () => go('/admin/'));
    screen('sign-in with an error', current, async () => {
      await page.getByLabel(SIGN_IN[lang].username).fill('admin');
      await page.getByLabel(SIGN_IN[lang].password).fill('wrong password');
      await clickAndWait(
        page.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }),
        page.getByRole('alert').first(),
      );
    });
    screen('dashboard', current, async () => {
      await signInAs(page, world.server.baseUrl, lang);
      await settled(page);
    });

    for (const [name, path] of SCREENS) {
      screen(name, current, () => go(path(world)));
      if (name.includes('(add)')) {
        screen(`${name} with errors`, current, async () => {
          await go(path(world));
          // The slot form starts filled in: without a start time it is refused.
          if (name.startsWith('time slot')) await page.locator('#slot-add-startTime').fill('');
          await withErrors(page);
        });
      }
    }

    // A weekly series of slots: the weekdays show when "repeat until" is after the start.
    screen('time slot form (series)', current, async () => {
      await go(`/admin/room/${world.ids.room}/time-slot-add`);
      await page.locator('#slot-add-startDate').fill(iso(world.day));
      await page.locator('#slot-add-repeatUntil').fill(iso(weekdaysAhead(10)[9]!));
      await page.locator('#slot-add-day-monday').waitFor();
    });

    // The confirmations of deletes and cancellations.
    // (A room without reservations: the other one's delete is blocked.)
    screen('room delete confirmation', current, async () => {
      await go(`/admin/room-edit/${world.ids.emptyRoom}`);
      await clickAndWait(
        main(page).locator('.button--danger').first(),
        main(page).locator('.confirm'),
      );
    });
    screen('reservation cancel dialog', current, async () => {
      await go(`/admin/reservations/${world.ids.ticket}`);
      await clickAndWait(main(page).locator('.button--danger').first(), dialog(page));
    });
    // The API token's secret, shown once after creating it, and the revocation's question.
    screen('API token created', current, async () => {
      await go('/admin/integrations');
      await page.locator('#token-name').fill(`Axe robot ${lang}`);
      await page.locator('#token-role-reports').check();
      await clickAndWait(
        main(page).locator('form button[type=submit]').first(),
        page.locator('#token-secret'),
      );
    });
    screen('API token revoke dialog', current, async () => {
      await go('/admin/integrations');
      await clickAndWait(main(page).locator('.button--danger').first(), dialog(page));
    });
    // The closure's question with the preview's counts (closing nothing: it is left open).
    screen('room closure dialog', current, async () => {
      await go('/admin/closures');
      await page.locator('#closure-fromDate').fill(iso(world.day));
      await page.locator('#closure-untilDate').fill(iso(world.day));
      await clickAndWait(main(page).locator('form button[type=submit]').first(), dialog(page));
    });
    screen('blacklist delete dialog', current, async () => {
      await go(`/admin/blacklist-edit/${encodeURIComponent(BLACKLISTED)}`);
      await clickAndWait(main(page).locator('.button--danger').first(), dialog(page));
    });
    // The insights: every room's charts with their tables, then one room's, then a bad period.
    screen('insights', current, () => go('/admin/insights'));
    screen('insights (one room)', current, async () => {
      await go('/admin/insights');
      await page.locator('#insights-roomId').selectOption(world.ids.room);
      await settled(page);
    });
    screen('insights with errors', current, async () => {
      await go('/admin/insights');
      await page.locator('#insights-untilDate').fill('2000-01-01');
      await main(page).locator('.field__error').first().waitFor();
    });
    // The lift's question (lifting nothing: it is left open).
    screen('no-show block lift dialog', current, async () => {
      await go('/admin/no-show-blocks');
      await clickAndWait(main(page).locator('tbody button').first(), dialog(page));
    });
    // The seat plan with a seat selected (its form beside the plan) and its label refused. Last on
    // its page: the unsaved plan would ask before the next screen's address could be opened.
    screen('seat plan with a refused seat', current, async () => {
      await go(`/admin/room-edit/${world.ids.seatRoom}/seats`);
      await main(page).locator('.seat-plan__seat').nth(1).click();
      await page.locator('#seat-label').fill('A1');
      await clickAndWait(
        main(page).locator('.seat-editor > .form__actions .button--primary'),
        main(page).locator('.seat-editor .error-box'),
      );
    });
  });

  describe(`axe on the permission error (${lang})`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await openStaffPage(world.browser, VIEWPORTS[1], lang);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    // Signed in without a role.
    screen(
      'permission error',
      () => page,
      async () => {
        await visit(page, world.server.baseUrl, '/admin/');
        await page.getByLabel(SIGN_IN[lang].username).fill('no-roles');
        await page.getByLabel(SIGN_IN[lang].password).fill('no roles at all');
        await page.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }).click();
        await page.locator('main .notice--warning').first().waitFor();
        await settled(page);
      },
    );
  });
}
