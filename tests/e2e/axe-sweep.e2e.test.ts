// Issue #15, "Done when": axe finds no WCAG 2.0/2.1/2.2 A or AA violation on any screen of the
// spec, at 375×740 and 1280×900, in German and English. One server, one Chromium: each language
// walks the visitor's and the staff's screens once and scans every state at both sizes.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { iso, weekdaysAhead } from './dates.ts';
import {
  axeViolations,
  launchBrowser,
  openPage,
  startServer,
  type RunningServer,
} from './harness.ts';
import {
  LANGS,
  SIGN_IN,
  VIEWPORTS,
  openStaffPage,
  signInAs,
  visitorBooks,
  type Lang,
} from './staff-ux-support.ts';
import {
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  SECOND_ROOM,
  waitForReadModels,
} from './test-rooms.ts';
import { dialog, main, serveAs } from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

const [day, nextDay] = weekdaysAhead(2) as [Date, Date];
/** Ids of the data the screens show. */
const ids = { room: '', emptyRoom: '', slot: '', fullSlot: '', ticket: '', holiday: '' };
const BLACKLISTED = 'blocked@example.org';

/** Texts of the few controls the walk finds by name, by language. */
const TEXTS = {
  de: {
    accept: /Datenschutzhinweis gelesen/,
    confirmPrivacy: 'Bestätigen und weiter',
    nextMonth: 'Nächster Monat',
    freeDay: /, frei(,|$)/,
    reserve: /^Reservieren /,
    book: 'Verbindlich reservieren',
    booked: 'Vielen Dank für Ihre Reservierung',
    cancelYes: 'Ja, Termin stornieren',
    panic: 'Alles löschen',
  },
  en: {
    accept: /read the privacy notice/,
    confirmPrivacy: 'Confirm and continue',
    nextMonth: 'Next month',
    freeDay: /, free(,|$)/,
    reserve: /^Reserve /,
    book: 'Book now',
    booked: 'Thank you for your reservation',
    cancelYes: 'Yes, cancel the appointment',
    panic: 'Delete everything',
  },
} as const;

/** Every violation found, by screen, language and width; and how many scans ran. */
const found: string[] = [];
const scanned = new Set<string>();
let scans = 0;

/** Scans the page as it is now at both sizes (the layout follows the viewport). */
async function scan(page: Page, screen: string, lang: Lang): Promise<void> {
  const original = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(100);
    scans += 1;
    scanned.add(screen);
    for (const v of await axeViolations(page))
      found.push(`${screen} (${lang}, ${viewport.width}): ${v}`);
  }
  if (original) await page.setViewportSize(original);
}

/** Waits until the page's heading shows and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.locator('.loading').count(), { timeout: 10_000 }).toBe(0);
  await page.waitForTimeout(150);
}

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(`${server.baseUrl}${path}`);
  await settled(page);
}

const submit = (page: Page) => main(page).locator('form button[type="submit"]').first();

/** Submits the form empty (or as it is) and waits for its field errors. */
async function withErrors(page: Page): Promise<void> {
  await submit(page).click();
  await main(page).locator('.field__error').first().waitFor();
}

async function clickThenScan(
  page: Page,
  target: Locator,
  shows: Locator,
  screen: string,
  lang: Lang,
): Promise<void> {
  await target.click();
  await shows.waitFor();
  await scan(page, screen, lang);
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  ids.room = idOf(FIRST_ROOM);
  ids.emptyRoom = idOf(SECOND_ROOM);
  ids.slot = await createSlot(admin, ids.room, day, '09:00', '12:00', 20);
  ids.fullSlot = await createSlot(admin, ids.room, nextDay, '13:00', '17:00', 1);
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Anna', lastName: 'Huber', email: 'anna.huber@example.org' },
    [ids.slot],
  );
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Bernd', lastName: 'Maier', email: 'bernd@example.org' },
    [ids.fullSlot],
  );
  // Staff overbook the full slot: the overbooked list has a row.
  const over = await admin.request(
    'POST',
    `/api/admin/rooms/${ids.room}/timeslots/${ids.fullSlot}/booking`,
    { json: { salutation: 'MR', firstName: 'Otto', lastName: 'Extra', accessibility: false } },
  );
  expect(over.status, await over.clone().text()).toBe(201);
  const holiday = await admin.request('POST', '/api/admin/holidays', {
    json: { name: 'Schließtag', description: 'Inventur', date: iso(weekdaysAhead(8)[7]!) },
  });
  expect(holiday.status, await holiday.clone().text()).toBe(201);
  ids.holiday = ((await holiday.json()) as { id: string }).id;
  const blocked = await admin.request('POST', '/api/admin/blacklist', {
    json: { email: BLACKLISTED, expiredAt: iso(weekdaysAhead(20)[19]!) },
  });
  expect(blocked.status, await blocked.clone().text()).toBe(201);
  await createUser(db.pool, 'no-roles', 'no roles at all', []);
  await waitForReadModels(admin);
  const list = await admin.get('/api/admin/tickets?searchTerm=anna.huber%40example.org');
  ids.ticket = ((await list.json()) as { content: { id: string }[] }).content[0]!.id;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

async function visitorScreens(lang: Lang): Promise<void> {
  const texts = TEXTS[lang];
  const page = await openPage(browser, VIEWPORTS[1]);
  await serveAs(page, lang);
  await page.goto(`${server.baseUrl}/`);
  await dialog(page).waitFor();
  await scan(page, 'privacy notice', lang);
  await clickThenScan(
    page,
    page.getByRole('button', { name: texts.confirmPrivacy }),
    page.locator('.field__error').first(),
    'privacy notice with its error',
    lang,
  );
  await page.getByRole('checkbox', { name: texts.accept }).check();
  await page.getByRole('button', { name: texts.confirmPrivacy }).click();
  await settled(page);
  await scan(page, 'room chooser', lang);

  await visit(page, '/?reset=y');
  await scan(page, 'room chooser with the reset message', lang);
  // The cart's expiry sends the visitor here with this history state (booking-context.tsx).
  await page.evaluate(() => {
    history.replaceState({ usr: { expired: true }, key: 'expired', idx: 0 }, '', '/?reset=y');
  });
  await page.reload();
  await settled(page);
  await scan(page, 'room chooser with the expiry message', lang);

  await visit(page, `/room/${ids.room}`);
  const freeDay = main(page).getByRole('button', { name: texts.freeDay }).first();
  for (let i = 0; i < 3 && !(await freeDay.isVisible()); i += 1) {
    await main(page).getByRole('button', { name: texts.nextMonth }).click();
    await page.waitForTimeout(150);
  }
  await scan(page, 'room calendar', lang);
  await clickThenScan(page, freeDay, dialog(page), 'day dialog', lang);
  await dialog(page).getByRole('button', { name: texts.reserve }).first().click();
  await dialog(page).waitFor({ state: 'hidden' });
  await page.locator('.info-popup').first().waitFor();
  await scan(page, 'room calendar with a slot in the cart', lang);

  await visit(page, '/your-reservations');
  await scan(page, 'your reservations (cart)', lang);
  await clickThenScan(
    page,
    page.getByRole('button', { name: texts.panic }),
    dialog(page),
    'delete-everything dialog',
    lang,
  );
  await page.keyboard.press('Escape');
  await dialog(page).waitFor({ state: 'hidden' });

  await visit(page, '/your-personal-data');
  await scan(page, 'personal data form', lang);
  await withErrors(page);
  await scan(page, 'personal data form with errors', lang);
  await page.locator('input[name="firstName"]').fill('Erika');
  await page.locator('input[name="lastName"]').fill('Muster');
  await page.locator('input[name="email"]').fill(`erika.${lang}@example.at`);
  await page.locator('input[name="phone"]').fill('+431234');
  await submit(page).click();
  await main(page).getByRole('button', { name: texts.book }).waitFor();
  await settled(page);
  await scan(page, 'summary', lang);

  await main(page).getByRole('button', { name: texts.book }).click();
  await page.getByRole('heading', { level: 1, name: texts.booked }).waitFor();
  await settled(page);
  await scan(page, 'booked confirmation', lang);

  // The owner's page of the mail's link, without the state of the booking just made.
  await visit(page, new URL(page.url()).pathname);
  await main(page).locator('.ticket-list button').first().waitFor();
  await scan(page, 'owner page (mail link)', lang);
  await clickThenScan(
    page,
    main(page).locator('.ticket-list button').first(),
    dialog(page),
    'cancellation confirm dialog',
    lang,
  );
  await dialog(page).getByRole('button', { name: texts.cancelYes }).click();
  await main(page).locator('.notice--success').first().waitFor();
  await scan(page, 'owner page after the cancellation', lang);

  await visit(page, '/reservation-confirmation/0123456789abcdef0123456789abcdef');
  await scan(page, 'owner page of an unknown link', lang);
  await page.context().close();
}

async function staffScreens(lang: Lang): Promise<void> {
  const page = await openStaffPage(browser, VIEWPORTS[1], lang);
  await visit(page, '/admin/');
  await scan(page, 'sign-in', lang);
  await page.getByLabel(SIGN_IN[lang].username).fill('admin');
  await page.getByLabel(SIGN_IN[lang].password).fill('wrong password');
  await clickThenScan(
    page,
    page.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }),
    page.getByRole('alert').first(),
    'sign-in with an error',
    lang,
  );
  await signInAs(page, server.baseUrl, lang);
  await settled(page);
  await scan(page, 'dashboard', lang);

  const slotPath = `/admin/room/${ids.room}/time-slot-edit/${ids.slot}`;
  const screens: [string, string][] = [
    ['rooms list', '/admin/rooms'],
    ['room form (add)', '/admin/room-add'],
    ['room form (edit)', `/admin/room-edit/${ids.room}`],
    ['room image form', `/admin/room-edit-image/${ids.room}`],
    [
      'time slots (calendar)',
      `/admin/room/${ids.room}/time-slots?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
    ],
    ['time slot form (add)', `/admin/room/${ids.room}/time-slot-add`],
    ['time slot form (edit)', slotPath],
    ['time slot capacities', `/admin/room/${ids.room}/time-slot-edit-multi-capacity`],
    ['time slot history', `${slotPath}/history`],
    ['staff booking form', `/admin/room/${ids.room}/time-slot-book/${ids.slot}`],
    ['staff booking form (full slot)', `/admin/room/${ids.room}/time-slot-book/${ids.fullSlot}`],
    ['holidays list', `/admin/holiday-list?year=${day.getFullYear()}`],
    ['holiday form (add)', '/admin/holiday-add'],
    ['holiday form (edit)', `/admin/holiday-edit/${ids.holiday}`],
    ['holiday import', '/admin/holiday-import'],
    ['blacklist', '/admin/blacklist'],
    ['blacklist form (add)', '/admin/blacklist-add'],
    ['blacklist form (edit)', `/admin/blacklist-edit/${encodeURIComponent(BLACKLISTED)}`],
    ['reservations list', '/admin/reservations'],
    ['reservations list (filtered)', '/admin/reservations?searchTerm=huber'],
    ['reservations list (cancelled)', '/admin/reservations?searchType=cancelled'],
    ['reservation detail', `/admin/reservations/${ids.ticket}`],
    ['reservation history', `/admin/reservations/${ids.ticket}/history`],
    ['overbooked list', '/admin/overbooked'],
    ['reports', '/admin/reports'],
    ['daily report', `/admin/daily-report/${ids.room}?date=${iso(day)}`],
    ['occupancy report', '/admin/occupancy-report'],
  ];
  for (const [screen, path] of screens) {
    await visit(page, path);
    await scan(page, screen, lang);
    if (/\(add\)/.test(screen)) {
      // The slot form starts filled in: without a start time it is refused.
      if (screen.startsWith('time slot')) await page.locator('#slot-add-startTime').fill('');
      await withErrors(page);
      await scan(page, `${screen} with errors`, lang);
    }
  }

  // A weekly series of slots: the weekdays show when "repeat until" is after the start.
  await visit(page, `/admin/room/${ids.room}/time-slot-add`);
  await page.locator('#slot-add-startDate').fill(iso(day));
  await page.locator('#slot-add-repeatUntil').fill(iso(weekdaysAhead(10)[9]!));
  await page.locator('#slot-add-day-monday').waitFor();
  await scan(page, 'time slot form (series)', lang);

  // The confirmations of deletes and cancellations.
  // (A room without reservations: the other one's delete is blocked.)
  await visit(page, `/admin/room-edit/${ids.emptyRoom}`);
  await clickThenScan(
    page,
    main(page).locator('.button--danger').first(),
    main(page).locator('.confirm'),
    'room delete confirmation',
    lang,
  );
  await visit(page, `/admin/reservations/${ids.ticket}`);
  await clickThenScan(
    page,
    main(page).locator('.button--danger').first(),
    dialog(page),
    'reservation cancel dialog',
    lang,
  );
  await visit(page, `/admin/blacklist-edit/${encodeURIComponent(BLACKLISTED)}`);
  await clickThenScan(
    page,
    main(page).locator('.button--danger').first(),
    dialog(page),
    'blacklist delete dialog',
    lang,
  );
  await page.context().close();

  // Signed in without a role: the permission error.
  const other = await openStaffPage(browser, VIEWPORTS[1], lang);
  await visit(other, '/admin/');
  await other.getByLabel(SIGN_IN[lang].username).fill('no-roles');
  await other.getByLabel(SIGN_IN[lang].password).fill('no roles at all');
  await other.getByRole('button', { name: SIGN_IN[lang].submit, exact: true }).click();
  await other.locator('main .notice--warning').first().waitFor();
  await settled(other);
  await scan(other, 'permission error', lang);
  await other.context().close();
}

describe('axe on every screen, both sizes, both languages (issue #15)', () => {
  it('finds no violation', async () => {
    for (const lang of LANGS) {
      await visitorScreens(lang);
      await staffScreens(lang);
    }
    console.log(
      `axe sweep: ${scanned.size} screens, ${scans} scans (${VIEWPORTS.length} sizes × ${LANGS.length} languages), ${found.length} violations`,
    );
    expect(found).toEqual([]);
  }, 600_000);
});
