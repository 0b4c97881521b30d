// What the axe sweep's two files share: the data every screen shows, a scan at both sizes, and
// the waits that tell a screen has settled. Each file starts its own database, server and
// Chromium (one per file), so the two run side by side.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@rr/identity';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { budget } from '../support/time-budget.ts';
import { iso, weekdaysAhead } from './dates.ts';
import { axeViolations, launchBrowser, startServer, type RunningServer } from './harness.ts';
import { VIEWPORTS, visitorBooks } from './staff-ux-support.ts';
import {
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  SECOND_ROOM,
  TEST_ROOM_NAMES,
  waitForReadModels,
} from './test-rooms.ts';
import { setRoomSeats, type SeatRow } from './seat-plans.ts';
import { main } from './visitor-pages.ts';

export const BLACKLISTED = 'blocked@example.org';

/** The seat room's plan: two rows of four seats with a few attributes each. */
const AXE_SEATS: SeatRow[] = [
  ['A1', ['window']],
  ['A2', ['window', 'power']],
  ['A3', ['pc']],
  ['A4', ['quiet', 'lamp']],
  ['B1', ['power']],
  ['B2', ['accessible']],
  ['B3', ['standing-desk']],
  ['B4', ['group-table']],
];

export interface AxeWorld {
  server: RunningServer;
  browser: Browser;
  /** The two days the slots are on: a free slot of 20 seats, and a full one staff overbooked. */
  day: Date;
  nextDay: Date;
  /** Ids of the data the screens show. */
  ids: {
    room: string;
    emptyRoom: string;
    /** A room with a seat plan (two seats taken on `day`, one out of service on `nextDay`). */
    seatRoom: string;
    slot: string;
    fullSlot: string;
    ticket: string;
    holiday: string;
    webhook: string;
  };
}

/**
 * Registers the file's setup: a database with two rooms, a booked and an overbooked slot, a
 * holiday, a blacklist entry and a staff member without roles; the server and Chromium. The
 * returned object is filled in once `beforeAll` has run.
 */
export function useAxeWorld(): AxeWorld {
  let db: TestDatabase | undefined;
  const [day, nextDay] = weekdaysAhead(2) as [Date, Date];
  const world = {
    day,
    nextDay,
    ids: {
      room: '',
      emptyRoom: '',
      seatRoom: '',
      slot: '',
      fullSlot: '',
      ticket: '',
      holiday: '',
      webhook: '',
    },
  } as Partial<AxeWorld> & Pick<AxeWorld, 'day' | 'nextDay' | 'ids'>;

  beforeAll(async () => {
    db = await createTestDatabase();
    // A webhook to loopback (port 9, nobody listens) is accepted for the integrations screens.
    // The no-show rule is on, so the no-show blocks screen has a row to lift (seeded below).
    const server = await startServer(db, {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      NO_SHOW_LIMIT: '2',
      NO_SHOW_WINDOW_DAYS: '30',
      NO_SHOW_BLOCK_DAYS: '14',
    });
    world.server = server;
    world.browser = await launchBrowser();
    const ids = world.ids;
    const { admin, idOf } = await createTestRooms(server.baseUrl);
    ids.room = idOf(FIRST_ROOM);
    ids.emptyRoom = idOf(SECOND_ROOM);
    ids.seatRoom = idOf(TEST_ROOM_NAMES[2]!);
    const seatIds = await setRoomSeats(admin, ids.seatRoom, AXE_SEATS);
    const seatSlot = await createSlot(admin, ids.seatRoom, day, '10:00', '14:00', AXE_SEATS.length);
    for (const label of ['A2', 'B3']) {
      const taken = await admin.request(
        'POST',
        `/api/admin/rooms/${ids.seatRoom}/timeslots/${seatSlot}/booking`,
        {
          json: {
            salutation: 'MR',
            firstName: 'Otto',
            lastName: `Platz ${label}`,
            accessibility: false,
            seatId: seatIds.get(label),
          },
        },
      );
      expect(taken.status, await taken.clone().text()).toBe(201);
    }
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
    // Bernd missed two slots, yesterday and today: the rule's record as the release job keeps it
    // (releasing needs the slots' time to pass, which this world's clock does not wait for).
    await db.pool.query(
      `INSERT INTO visitor_no_shows (ticket_id, visitor_key, date)
       SELECT gen_random_uuid(), b.visitor_key, current_date - n
         FROM bookings b JOIN personal_data p ON p.owner_id = b.owner_id,
              generate_series(0, 1) AS n
        WHERE p.email = 'bernd@example.org'`,
    );
    // The seat plan's screens: one seat out of service (on the day without its slot).
    const outOfService = await admin.request(
      'POST',
      `/api/admin/rooms/${ids.seatRoom}/seats/${seatIds.get('A1') ?? ''}/out-of-service`,
      { json: { from: iso(nextDay), until: iso(nextDay), reason: 'Lampe defekt' } },
    );
    expect(outOfService.status, await outOfService.clone().text()).toBe(201);
    await createUser(db.pool, 'no-roles', 'no roles at all', []);
    const token = await admin.request('POST', '/api/admin/api-tokens', {
      json: { name: 'Door counter', roles: ['reports', 'checkin'] },
    });
    expect(token.status, await token.clone().text()).toBe(201);
    const webhook = await admin.request('POST', '/api/admin/webhooks', {
      json: { url: 'https://127.0.0.1:9/hooks', eventTypes: ['room.changed'] },
    });
    expect(webhook.status, await webhook.clone().text()).toBe(201);
    ids.webhook = ((await webhook.json()) as { id: string }).id;
    await waitForReadModels(admin);
    const list = await admin.get('/api/admin/tickets?searchTerm=anna.huber%40example.org');
    ids.ticket = ((await list.json()) as { content: { id: string }[] }).content[0]!.id;
  }, budget(180_000));

  afterAll(async () => {
    await world.browser?.close();
    await world.server?.stop();
    await db?.drop();
  });

  // Read only inside hooks and tests, after beforeAll has filled in the server and the browser.
  return world as AxeWorld;
}

/** The WCAG A and AA violations of the page as it is now, at both sizes, one line each. */
export async function violationsAtBothSizes(page: Page): Promise<string[]> {
  const found: string[] = [];
  const original = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    // Let the layout follow the new width before axe reads it.
    await page.waitForTimeout(100);
    for (const v of await axeViolations(page)) found.push(`${viewport.width} px: ${v}`);
  }
  if (original) await page.setViewportSize(original);
  return found;
}

/**
 * One test per screen and state: `reach` brings the page there, then axe scans it at both sizes.
 * A violation fails the test named after its screen.
 */
export function screen(name: string, page: () => Page, reach: () => Promise<void>): void {
  it(
    name,
    async () => {
      await reach();
      expect(await violationsAtBothSizes(page())).toEqual([]);
    },
    budget(60_000),
  );
}

/** Waits until the page's heading shows and nothing is loading any more. */
export async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.locator('.loading').count(), { timeout: budget(10_000) }).toBe(0);
  await page.waitForTimeout(150);
}

/** The app a path belongs to: the staff's under /admin, the display under /display, else the visitors'. */
const appOf = (pathname: string) => /^\/(admin|display)(\/|$)/.exec(pathname)?.[1] ?? 'visitor';

/**
 * Opens a screen by its address. Within the app already open on the page (same app, another
 * path) the address goes through the app's router, as a link would take it there: a full load
 * for every screen had cost the English staff sweep 75.6 s of CPU against 54.4 s (the app's
 * scripts compiled and its start-up reads sent again each time). The router moves focus to the
 * new screen's heading once it has rendered it (use-focus-on-navigation), which tells the new
 * screen from the old one; a screen of another app, or the same path with other parameters, is
 * loaded in full.
 */
export async function visit(page: Page, baseUrl: string, path: string): Promise<void> {
  const here = new URL(page.url());
  const there = new URL(path, baseUrl);
  const sameApp = appOf(here.pathname) === appOf(there.pathname);
  if (here.origin !== there.origin || !sameApp || here.pathname === there.pathname) {
    await page.goto(there.toString());
  } else {
    await page.evaluate((to) => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    // Polled every 50 ms: polling on every animation frame cost the browser a seventh of a core.
    // An app that no longer follows its router (an earlier screen broke it) is loaded afresh,
    // so one failing screen does not fail the ones after it.
    const rendered = await page
      .waitForFunction(() => document.activeElement !== document.body, undefined, {
        polling: 50,
        timeout: budget(5_000),
      })
      .then(() => true)
      .catch(() => false);
    if (!rendered) await page.goto(there.toString());
  }
  await settled(page);
}

export const submit = (page: Page): Locator =>
  main(page).locator('form button[type="submit"]').first();

/** Submits the form empty (or as it is) and waits for its field errors. */
export async function withErrors(page: Page): Promise<void> {
  await submit(page).click();
  await main(page).locator('.field__error').first().waitFor();
}

/** Clicks and waits for what the click shows. */
export async function clickAndWait(target: Locator, shows: Locator): Promise<void> {
  await target.click();
  await shows.waitFor();
}
