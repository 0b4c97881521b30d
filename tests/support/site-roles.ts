import { expect } from 'vitest';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { addDays, localDateTime } from '@rr/domain';
import { defaultTimeZone, type Clock } from '@rr/platform';
import { Client } from './app.ts';
import type { TestDatabase } from './db.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from './fixtures.ts';
import { samplePath } from './openapi-paths.ts';

/**
 * Roles for some sites (docs/product.md#roles) in API tests: a site's things (a room, a slot of
 * tomorrow, a booked ticket), and the sweep of every staff route of the OpenAPI document with
 * another site's things, which a user whose roles are for other sites is refused on (403).
 */

/** What a site has: a room, a time slot of tomorrow, a booked ticket. */
export interface SiteThings {
  siteId: string;
  roomId: string;
  roomName: string;
  slotId: string;
  ticketId: string;
  bookingNumber: string;
}

/** Tomorrow in the library's time zone, by the clock. */
export const tomorrow = (clock: Clock) =>
  addDays(localDateTime(clock.now(), defaultTimeZone).date, 1);

/** Makes a site's room, slot and booked ticket as the all-sites admin and a visitor. */
export async function siteThings(
  admin: Client,
  baseUrl: string,
  day: string,
  siteId: string,
  roomName: string,
): Promise<SiteThings> {
  const roomId = await createRoom(admin, roomName, { ...OPEN_FROM_TODAY, siteId });
  const slotId = await createSlot(admin, roomId, day, '10:00', '12:00', 5);
  const booking = await bookAsNewVisitor(baseUrl, [slotId]);
  return {
    siteId,
    roomId,
    roomName,
    slotId,
    ticketId: booking.ticketId,
    bookingNumber: booking.bookingNumber,
  };
}

/** Makes the site `jura` as the all-sites admin; answers its id. */
export async function createJura(admin: Client): Promise<string> {
  const site = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Juridicum', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(site.status, await site.clone().text()).toBe(201);
  return ((await site.json()) as { id: string }).id;
}

/**
 * The staff routes a user limited to sites is not refused on, and why: they show every site's
 * data filtered to hers (x-sites 'filter', their answers checked in site-roles.int.test.ts, the
 * check-in list's in site-roles-check-in.int.test.ts), or the library's own data of no site
 * (x-sites 'library'). Every other staff route names what it touches, or refuses her.
 */
const FILTERED = 'answers only her sites’ data';
export const NOT_REFUSED: Readonly<Record<string, string>> = {
  'GET /api/admin/rooms': FILTERED,
  'GET /api/admin/sites': FILTERED,
  'GET /api/admin/rooms/timeslots': FILTERED,
  'GET /api/admin/day': FILTERED,
  'GET /api/admin/check-in': FILTERED,
  'GET /api/admin/check-in/lookup': 'a code of another site’s ticket names nothing (404)',
  'POST /api/admin/check-in': 'a code of another site’s ticket names nothing (404)',
  'GET /api/admin/holidays': 'the library’s holidays, of no site: every site’s staff reads them',
  'GET /api/admin/holidays/{id}':
    'the library’s holidays, of no site: every site’s staff reads them',
};

type Op = { 'x-roles'?: string[]; 'x-sites'?: unknown };
type SiteRule = {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, string>;
};

/** Every staff route (x-roles) of the OpenAPI document, with how it finds its sites (x-sites). */
async function staffRoutes(client: Client) {
  const doc = (await (await client.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, Op>>;
  };
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op['x-roles'])
      .map(([m, op]) => ({ method: m.toUpperCase(), template: p, sites: op['x-sites'] })),
  );
}

/**
 * Requests every staff route as `client`, naming `other`'s room, slot, ticket or site wherever
 * the route names one (well-formed ids of nothing elsewhere): each must be refused (403) but the
 * routes of NOT_REFUSED, and nothing may change.
 */
export async function expectRefusedForOtherSite(
  client: Client,
  db: TestDatabase,
  other: SiteThings,
): Promise<void> {
  const idOf = (kind: string) =>
    kind === 'room'
      ? other.roomId
      : kind === 'slot'
        ? other.slotId
        : kind === 'ticket' || kind === 'reservation'
          ? other.ticketId
          : other.siteId;
  const routes = await staffRoutes(client);
  expect(routes.length).toBeGreaterThanOrEqual(80);
  const before = await eventCount(db);
  for (const route of routes) {
    const key = `${route.method} ${route.template}`;
    // A route that filters is listed with its reason; a listed one filters.
    expect(typeof route.sites === 'string', key).toBe(key in NOT_REFUSED);
    if (key in NOT_REFUSED) continue;
    const rule = (typeof route.sites === 'object' ? route.sites : {}) as SiteRule;
    let path = route.template;
    for (const [param, kind] of Object.entries(rule.path ?? {}))
      path = path.replace(`{${param}}`, idOf(kind));
    const query = Object.entries(rule.query ?? {})
      .map(([param, kind]) => `${param}=${idOf(kind)}`)
      .join('&');
    const body = Object.fromEntries(
      Object.entries(rule.body ?? {}).map(([field, kind]) => [
        field,
        field.endsWith('Ids') ? [idOf(kind)] : idOf(kind),
      ]),
    );
    const url = samplePath(path) + (query ? `?${query}` : '');
    const options = route.method === 'GET' || route.method === 'DELETE' ? {} : { json: body };
    const res = await client.request(route.method, url, options);
    expect(res.status, `${route.method} ${url}`).toBe(403);
  }
  expect(await eventCount(db)).toBe(before);
}

async function eventCount(db: TestDatabase): Promise<number> {
  const r = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
  return Number(r.rows[0]!.n);
}

export { FIRST_SITE_ID };
