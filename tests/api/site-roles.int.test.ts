import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInCodes, ManualClock } from '@rr/platform';
import { addUser, Client, startTestApp, TEST_KEY_SECRET, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { bookAsNewVisitor, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import {
  signInAtProvider,
  startOidcProvider,
  type TestOidcProvider,
} from '../support/oidc-servers.ts';
import { reservePort } from '../support/ports.ts';
import {
  createJura,
  expectRefusedForOtherSite,
  FIRST_SITE_ID,
  siteThings,
  tomorrow,
  type SiteThings,
} from '../support/site-roles.ts';

/**
 * Roles for some sites (docs/product.md#roles): the admin of the branch "jura" (a local account
 * with `admin@jura`, and one whose OpenID Connect group maps to it; LDAP groups in
 * site-roles-ldap.int.test.ts) is refused (403) on every staff route of the OpenAPI document for
 * what another site has, and her lists, reports, exports and the desk's day show her site's rooms
 * only; the all-sites admin sees everything. The routes come from the document, so a new route is
 * covered without a change here.
 */
let db: TestDatabase;
let app: TestApp;
let provider: TestOidcProvider;
let boss: Client;
const clock = new ManualClock(new Date());
const codes = checkInCodes(TEST_KEY_SECRET);
const day = tomorrow(clock);
let main: SiteThings;
let jura: SiteThings;

beforeAll(async () => {
  db = await createTestDatabase(clock);
  // The provider must know the app's callback before the app knows the provider: a fixed port.
  const reserved = await reservePort();
  const port = reserved.port;
  provider = await startOidcProvider(`http://127.0.0.1:${port}`, { olga: ['jura-admins'] });
  app = await startTestApp(db, clock, {
    env: { ...provider.env, STAFF_ROLE_MAP: JSON.stringify({ 'jura-admins': ['admin@jura'] }) },
    port: reserved,
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  boss = new Client(app.baseUrl);
  expect((await boss.login('boss', 'correct horse')).status).toBe(200);
  const juraId = await createJura(boss);
  main = await siteThings(boss, app.baseUrl, day, FIRST_SITE_ID, 'Lesesaal Haupthaus');
  jura = await siteThings(boss, app.baseUrl, day, juraId, 'Lesesaal Juridicum');
  await addUser(db, 'branch', 'correct horse', ['admin@jura']);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await provider?.stop();
  await db?.drop();
});

async function localBranchAdmin(): Promise<Client> {
  const c = new Client(app.baseUrl);
  expect((await c.login('branch', 'correct horse')).status).toBe(200);
  return c;
}

async function oidcBranchAdmin(): Promise<Client> {
  const c = new Client(app.baseUrl);
  const res = await c.request('GET', '/api/auth/oidc/start?returnTo=%2Fadmin%2F', {
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const back = await signInAtProvider(res.headers.get('location')!, 'olga', app.baseUrl);
  const done = await c.request('GET', back.pathname + back.search, { redirect: 'manual' });
  expect(done.headers.get('location')).toBe('/admin/');
  return c;
}

const BRANCH_ADMINS = [
  ['a local account', localBranchAdmin],
  ['an OpenID Connect group', oidcBranchAdmin],
] as const;

describe('a branch admin (admin@jura)', () => {
  it.each(BRANCH_ADMINS)(
    'from %s holds admin for jura only, and is refused on every staff route for another site',
    async (_from, signIn) => {
      const c = await signIn();
      expect(await (await c.get('/api/auth/me')).json()).toMatchObject({
        roles: ['admin'],
        grants: ['admin@jura'],
      });
      await expectRefusedForOtherSite(c, db, main);
    },
    180_000,
  );

  it('works on her own site’s rooms, slots and tickets', async () => {
    const c = await localBranchAdmin();
    expect((await c.get(`/api/admin/rooms/${jura.roomId}`)).status).toBe(200);
    expect((await c.get(`/api/admin/rooms/${jura.roomId}/timeslots/${jura.slotId}`)).status).toBe(
      200,
    );
    expect((await c.get(`/api/admin/tickets/${jura.ticketId}`)).status).toBe(200);
    expect((await c.get(`/api/admin/sites/${jura.siteId}`)).status).toBe(200);
    // A room of her own site; one made without a site is the first site's: refused.
    const made = await c.request('POST', '/api/admin/rooms', {
      json: {
        name: 'Seminarraum Jus',
        description: 'A room of the tests',
        capacity: 4,
        ...OPEN_FROM_TODAY,
        siteId: jura.siteId,
      },
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const withoutSite = await c.request('POST', '/api/admin/rooms', {
      json: {
        name: 'Nirgends',
        description: 'A room of the tests',
        capacity: 4,
        ...OPEN_FROM_TODAY,
      },
    });
    expect(withoutSite.status).toBe(403);
    // Sites: hers she may change, none she may make or delete.
    const created = await c.request('POST', '/api/admin/sites', {
      json: { name: 'Physik', slug: 'physik', contactEmail: 'p@library.example' },
    });
    expect(created.status).toBe(403);
    expect((await c.request('DELETE', `/api/admin/sites/${jura.siteId}`)).status).toBe(403);
  });

  it('sees only her site in the lists, reports, exports and the desk’s day', async () => {
    for (const [, signIn] of BRANCH_ADMINS) {
      const c = await signIn();
      const rooms = (await (await c.get('/api/admin/rooms')).json()) as {
        content: { id: string; name: string }[];
      };
      expect(rooms.content.map((r) => r.id)).toContain(jura.roomId);
      expect(rooms.content.map((r) => r.id)).not.toContain(main.roomId);
      const sites = (await (await c.get('/api/admin/sites')).json()) as {
        content: { id: string }[];
      };
      expect(sites.content.map((s) => s.id)).toEqual([jura.siteId]);
      const slots = (await (
        await c.get(`/api/admin/rooms/timeslots?fromDate=${day}&untilDate=${day}`)
      ).json()) as { content: { id: string }[] };
      expect(slots.content.map((s) => s.id)).toEqual([jura.slotId]);
      const tickets = (await (await c.get('/api/admin/tickets?status=ALL')).json()) as {
        content: { id: string }[];
        totalCount: number;
      };
      expect(tickets.content.map((t) => t.id)).toEqual([jura.ticketId]);
      expect(tickets.totalCount).toBe(1);
      const csv = await (await c.get('/api/admin/tickets/export.csv?status=ALL')).text();
      expect(csv).toContain(jura.roomName);
      expect(csv).not.toContain(main.roomName);
      const desk = (await (await c.get('/api/admin/day')).json()) as { rooms: { id: string }[] };
      expect(desk.rooms.map((r) => r.id)).toContain(jura.roomId);
      expect(desk.rooms.map((r) => r.id)).not.toContain(main.roomId);
      const report = await c.get(
        `/api/admin/tickets/report?roomId=${jura.roomId}&fromDate=${day}&untilDate=${day}&status=BOOKED`,
      );
      expect(report.status).toBe(200);
      // The insights of all rooms: hers (one slot of 5 seats; the all-sites admin sees 10).
      const insights = (await (
        await c.get(`/api/admin/insights?fromDate=${day}&untilDate=${day}`)
      ).json()) as { weeks: { offeredSeats: number }[] };
      expect(insights.weeks.map((w) => w.offeredSeats)).toEqual([5]);
      // A code of another site's booking names nothing for her.
      const other = await c.get(`/api/admin/check-in/lookup?code=${main.bookingNumber}`);
      expect(other.status).toBe(404);
      const own = await c.get(`/api/admin/check-in/lookup?code=${jura.bookingNumber}`);
      expect(own.status).toBe(200);
      // The QR code of another site's ticket: none for her (the all-sites admin is told it is
      // not time yet, below).
      const checkIn = await c.request('POST', '/api/admin/check-in', {
        json: { code: codes.codeOf(main.ticketId) },
      });
      expect(checkIn.status).toBe(404);
    }
  });
});

describe('an all-sites admin', () => {
  it('sees every site in the lists, the exports and the desk’s day, as before sites', async () => {
    const rooms = (await (await boss.get('/api/admin/rooms')).json()) as {
      content: { id: string }[];
    };
    expect(rooms.content.map((r) => r.id)).toEqual(
      expect.arrayContaining([main.roomId, jura.roomId]),
    );
    const sites = (await (await boss.get('/api/admin/sites')).json()) as {
      content: { id: string }[];
    };
    expect(sites.content.map((s) => s.id)).toEqual([FIRST_SITE_ID, jura.siteId]);
    const tickets = (await (await boss.get('/api/admin/tickets?status=ALL')).json()) as {
      content: { id: string }[];
    };
    expect(tickets.content.map((t) => t.id)).toEqual(
      expect.arrayContaining([main.ticketId, jura.ticketId]),
    );
    const csv = await (await boss.get('/api/admin/tickets/export.csv?status=ALL')).text();
    expect(csv).toContain(main.roomName);
    expect(csv).toContain(jura.roomName);
    const insights = (await (
      await boss.get(`/api/admin/insights?fromDate=${day}&untilDate=${day}`)
    ).json()) as { weeks: { offeredSeats: number }[] };
    expect(insights.weeks.map((w) => w.offeredSeats)).toEqual([10]);
    const desk = (await (await boss.get('/api/admin/day')).json()) as { rooms: { id: string }[] };
    expect(desk.rooms.map((r) => r.id)).toEqual(expect.arrayContaining([main.roomId, jura.roomId]));
    expect((await boss.get(`/api/admin/check-in/lookup?code=${main.bookingNumber}`)).status).toBe(
      200,
    );
    const checkIn = await boss.request('POST', '/api/admin/check-in', {
      json: { code: codes.codeOf(main.ticketId) },
    });
    expect(checkIn.status).toBe(409);
  });
});

describe('roles for sites where they are stored', () => {
  it('an API token may be limited to sites; a slug of no site or a malformed role is refused', async () => {
    const make = (roles: string[], name: string) =>
      boss.request('POST', '/api/admin/api-tokens', { json: { name, roles } });
    const unknown = await make(['reports@nowhere'], 'Nowhere');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      errors: [{ field: 'roles.0', rule: 'site-unknown' }],
    });
    for (const bad of ['reports@', 'owner@jura', 'reports@Jura!', 'admin@jura@x']) {
      const res = await make([bad], `Bad ${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { errors: { rule: string }[] }).errors[0]!.rule).toBe(
        'staff-role',
      );
    }
    const made = await make(['reports@jura'], 'Jura reports');
    expect(made.status).toBe(201);
    const { secret, roles } = (await made.json()) as { secret: string; roles: string[] };
    expect(roles).toEqual(['reports@jura']);
    const robot = { headers: { Authorization: `Bearer ${secret}` }, xhr: false };
    const own = await tokenGet(`/api/admin/rooms/${jura.roomId}`, robot);
    expect(own.status).toBe(200);
    expect((await tokenGet(`/api/admin/rooms/${main.roomId}`, robot)).status).toBe(403);
    const list = (await (await tokenGet('/api/admin/rooms', robot)).json()) as {
      content: { id: string }[];
    };
    expect(list.content.map((r) => r.id)).not.toContain(main.roomId);
    // The calendar feed with the token in its address: her site's room only.
    const feed = await new Client(app.baseUrl).request(
      'GET',
      `/api/admin/rooms/${main.roomId}/calendar.ics?token=${secret}`,
      { xhr: false },
    );
    expect(feed.status).toBe(403);
  });

  it('a booking with rooms of two sites is seen and changed as a whole by all-sites staff only', async () => {
    const afternoon = await createSlot(boss, jura.roomId, day, '13:00', '15:00', 5);
    const both = await bookAsNewVisitor(app.baseUrl, [main.slotId, afternoon]);
    const juraTicket = both.ticketIds[1]!;
    const c = await localBranchAdmin();
    // Her site's ticket she reads; the booking as a whole (its other tickets, its owner) not.
    expect((await c.get(`/api/admin/tickets/${juraTicket}`)).status).toBe(200);
    expect((await c.get(`/api/admin/tickets/${juraTicket}/related`)).status).toBe(403);
    expect((await boss.get(`/api/admin/tickets/${juraTicket}/related`)).status).toBe(200);
    const owner = await c.request('PUT', `/api/admin/tickets/${juraTicket}/owner`, { json: {} });
    expect(owner.status).toBe(403);
    expect((await c.get(`/api/admin/tickets/${jura.ticketId}/related`)).status).toBe(200);
  });
});

const tokenGet = (path: string, options: { headers: Record<string, string>; xhr: boolean }) =>
  new Client(app.baseUrl).request('GET', path, options);
