import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { groupDn, startLdapServer, type LdapServer } from '../support/ldap-server.ts';
import {
  createJura,
  expectRefusedForOtherSite,
  FIRST_SITE_ID,
  siteThings,
  tomorrow,
  type SiteThings,
} from '../support/site-roles.ts';

/**
 * Roles for some sites from the directory's groups (STAFF_ROLE_MAP with `admin@jura`, Debian's
 * slapd on loopback as in staff-ldap.int.test.ts): the branch admin signs in on the form, is
 * refused on every staff route for another site's things, and sees her site only; a role the map
 * gives for a slug no site has is left out (a warning in the log), the rest holds.
 */
let ldap: LdapServer;
let db: TestDatabase;
let app: TestApp;
let boss: Client;
let main: SiteThings;
let jura: SiteThings;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  ldap = await startLdapServer([
    { uid: 'lara', password: 'lara pw', groups: ['jura-admins', 'ghosts'] },
  ]);
  db = await createTestDatabase(clock);
  const roleMap = {
    [groupDn('jura-admins')]: ['admin@jura'],
    [groupDn('ghosts')]: ['reports@nowhere'],
  };
  app = await startTestApp(db, clock, {
    env: { ...ldap.env, STAFF_ROLE_MAP: JSON.stringify(roleMap) },
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  boss = new Client(app.baseUrl);
  expect((await boss.login('boss', 'correct horse')).status).toBe(200);
  const day = tomorrow(clock);
  const juraId = await createJura(boss);
  main = await siteThings(boss, app.baseUrl, day, FIRST_SITE_ID, 'Lesesaal Haupthaus');
  jura = await siteThings(boss, app.baseUrl, day, juraId, 'Lesesaal Juridicum');
}, 180_000);

afterAll(async () => {
  await app?.close();
  await db?.drop();
  await ldap?.stop();
});

describe('a branch admin from an LDAP group (admin@jura)', () => {
  it('holds admin for jura only: refused on every staff route for another site', async () => {
    const c = new Client(app.baseUrl);
    expect((await c.login('lara', 'lara pw')).status).toBe(200);
    // reports@nowhere names no site: left out.
    expect(await (await c.get('/api/auth/me')).json()).toEqual({
      username: 'lara',
      roles: ['admin'],
      grants: ['admin@jura'],
    });
    await expectRefusedForOtherSite(c, db, main);
    const rooms = (await (await c.get('/api/admin/rooms')).json()) as { content: { id: string }[] };
    expect(rooms.content.map((r) => r.id)).toEqual([jura.roomId]);
    const tickets = (await (await c.get('/api/admin/tickets?status=ALL')).json()) as {
      content: { id: string }[];
    };
    expect(tickets.content.map((t) => t.id)).toEqual([jura.ticketId]);
    const accounts = (await (await boss.get('/api/auth/staff-accounts')).json()) as {
      items: { username: string; grants: string[] }[];
    };
    expect(accounts.items.find((a) => a.username === 'lara')?.grants).toEqual(['admin@jura']);
  }, 180_000);
});
