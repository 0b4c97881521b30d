import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDateTime } from '@rr/domain';
import { defaultTimeZone, ManualClock } from '@rr/platform';
import { addUser, Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { createJura, FIRST_SITE_ID } from '../support/site-roles.ts';

/**
 * Roles for some sites (docs/product.md#roles-for-some-sites) on the check-in screen's list, and
 * a site whose slug is renamed: the desk of the branch "jura" (`checkin@jura`) and its admin
 * (`admin@jura`) read today's check-in list with jura's rooms and tickets only; after jura's slug
 * becomes `jus`, a role for `jura` names it no longer (it names whichever site has that slug
 * now). Monday 23 Nov 2026, 08:00 in Vienna; the tickets are of today, 10:00.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = localDateTime(clock.now(), defaultTimeZone).date;
let suite: AdminSuite;
let admin: Client;
let juraId: string;
/** The main site's room and ticket, booked by a visitor with a name no jura list may show. */
const main = { roomId: '', ticketId: '', lastName: 'Fremdhaus-Haupt' };
const jura = { roomId: '', ticketId: '', lastName: 'Juristin-Eigen' };

type CheckInDay = {
  date: string;
  rooms: { roomId: string; tickets: { id: string; lastName: string | null }[] }[];
};

async function signedIn(username: string): Promise<Client> {
  const c = new Client(suite.app.baseUrl);
  expect((await c.login(username, 'correct horse')).status).toBe(200);
  return c;
}

async function checkInList(c: Client): Promise<CheckInDay> {
  const res = await c.get('/api/admin/check-in');
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as CheckInDay;
}

/** A room of the site with check-in, a slot of today at 10:00 and a ticket of `lastName`. */
async function roomWithTicket(siteId: string, name: string, lastName: string) {
  const roomId = await createRoom(admin, name, { ...OPEN_FROM_TODAY, siteId });
  const set = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
  });
  expect(set.status).toBe(200);
  const slotId = await createSlot(admin, roomId, today, '10:00', '12:00', 5);
  const booking = await bookAsNewVisitor(suite.app.baseUrl, [slotId], 'de', { lastName });
  return { roomId, ticketId: booking.ticketId };
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  admin = suite.admin;
  juraId = await createJura(admin);
  Object.assign(main, await roomWithTicket(FIRST_SITE_ID, 'Lesesaal Haupthaus', main.lastName));
  Object.assign(jura, await roomWithTicket(juraId, 'Lesesaal Juridicum', jura.lastName));
  await addUser(suite.db, 'jura-desk', 'correct horse', ['checkin@jura']);
  await addUser(suite.db, 'jura-admin', 'correct horse', ['admin@jura']);
  await addUser(suite.db, 'desk', 'correct horse', ['checkin']);
}, 180_000);

afterAll(async () => {
  await suite?.close();
});

describe('the check-in list for roles of some sites', () => {
  it('shows the desk and the admin of jura only jura’s rooms and tickets of today', async () => {
    for (const username of ['jura-desk', 'jura-admin']) {
      const day = await checkInList(await signedIn(username));
      expect(day.date).toBe(today);
      expect(
        day.rooms.map((r) => r.roomId),
        username,
      ).toEqual([jura.roomId]);
      expect(day.rooms[0]!.tickets.map((t) => [t.id, t.lastName])).toEqual([
        [jura.ticketId, jura.lastName],
      ]);
      // Nothing of the other site's room: neither its ticket nor its visitor's name.
      const text = JSON.stringify(day);
      expect(text).not.toContain(main.ticketId);
      expect(text).not.toContain(main.lastName);
    }
  });

  it('shows the desk of all sites every site’s rooms with check-in', async () => {
    const day = await checkInList(await signedIn('desk'));
    const tickets = day.rooms.flatMap((r) => r.tickets.map((t) => t.lastName));
    expect(day.rooms.map((r) => r.roomId).sort()).toEqual([main.roomId, jura.roomId].sort());
    expect(tickets.sort()).toEqual([main.lastName, jura.lastName].sort());
  });
});

describe('a site whose slug is renamed', () => {
  it('is named no longer by the roles of its old slug, but by those of its new one', async () => {
    const branchAdmin = await signedIn('jura-admin');
    const branchDesk = await signedIn('jura-desk');
    expect((await branchAdmin.get(`/api/admin/rooms/${jura.roomId}`)).status).toBe(200);

    const site = (await (await admin.get(`/api/admin/sites/${juraId}`)).json()) as {
      name: string;
      contactEmail: string;
      version: number;
    };
    const renamed = await admin.request('PUT', `/api/admin/sites/${juraId}`, {
      json: {
        name: site.name,
        slug: 'jus',
        contactEmail: site.contactEmail,
        version: site.version,
      },
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    // The site read model has the new slug (the admin reads its own write).
    const sites = (await (await admin.get('/api/admin/sites')).json()) as {
      content: { id: string; slug: string }[];
    };
    expect(sites.content.find((s) => s.id === juraId)?.slug).toBe('jus');

    // The slug is looked up at every request: in the sessions opened before the renaming, a
    // role for `jura` reaches no site now. It is still held as written.
    expect(await (await branchAdmin.get('/api/auth/me')).json()).toMatchObject({
      roles: ['admin'],
      grants: ['admin@jura'],
    });
    expect((await branchAdmin.get(`/api/admin/rooms/${jura.roomId}`)).status).toBe(403);
    expect((await branchAdmin.get(`/api/admin/sites/${juraId}`)).status).toBe(403);
    const rooms = (await (await branchAdmin.get('/api/admin/rooms')).json()) as {
      content: { id: string }[];
    };
    expect(rooms.content).toEqual([]);
    expect((await checkInList(branchDesk)).rooms).toEqual([]);

    // Where roles are stored, `jura` names no site now, and `jus` names the renamed one.
    const token = (roles: string[]) =>
      admin.request('POST', '/api/admin/api-tokens', { json: { name: roles.join(), roles } });
    const stale = await token(['admin@jura']);
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({
      errors: [{ field: 'roles.0', rule: 'site-unknown' }],
    });
    const made = await token(['checkin@jus']);
    expect(made.status).toBe(201);
    const { secret } = (await made.json()) as { secret: string };
    const robot = new Client(suite.app.baseUrl);
    const list = await robot.request('GET', '/api/admin/check-in', {
      headers: { Authorization: `Bearer ${secret}` },
      xhr: false,
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as CheckInDay).rooms.map((r) => r.roomId)).toEqual([jura.roomId]);

    // A new site taking the old slug is the one a role for `jura` names now; the renamed site
    // stays out of reach.
    const newJuraId = await createJura(admin);
    branchAdmin.lastPosition = admin.lastPosition;
    const theirs = (await (await branchAdmin.get('/api/admin/sites')).json()) as {
      content: { id: string }[];
    };
    expect(theirs.content.map((s) => s.id)).toEqual([newJuraId]);
    expect((await branchAdmin.get(`/api/admin/rooms/${jura.roomId}`)).status).toBe(403);
  });
});
