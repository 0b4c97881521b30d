import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LdapDirectory } from '@rr/identity';
import { ManualClock } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { groupDn, startLdapServer, type LdapServer } from '../support/ldap-server.ts';

/**
 * Staff sign in on the usual form with their directory account (LDAP_URL, here Debian's slapd
 * on loopback with StartTLS and ldaps): the account is made or updated with the roles its groups
 * map to (STAFF_ROLE_MAP, the groups' DNs from memberOf), a person in no mapped group is refused
 * without a session, wrong and empty passwords and filter injection are refused, the session
 * ends after STAFF_SSO_SESSION_HOURS, and every sign-in and refusal is recorded for admins.
 */
let ldap: LdapServer;
let db: TestDatabase;
let app: TestApp;
let localOff: TestApp;
let boss: Client;
const clock = new ManualClock(new Date());

const ROLE_MAP = {
  [groupDn('reading-room-admins')]: ['admin'],
  [groupDn('desk')]: ['checkin'],
  [groupDn('reports-team')]: ['reports'],
};

beforeAll(async () => {
  ldap = await startLdapServer([
    { uid: 'alice', password: 'alice pw', groups: ['reading-room-admins'] },
    { uid: 'carol', password: 'carol pw', groups: ['desk', 'reports-team', 'staff'] },
    { uid: 'dave', password: 'dave pw', groups: ['students'] },
    { uid: 'erin', password: 'erin pw', groups: ['desk'] },
    { uid: 'frank', password: 'frank pw', groups: ['desk'] },
  ]);
  db = await createTestDatabase(clock);
  const env = {
    ...ldap.env,
    STAFF_ROLE_MAP: JSON.stringify(ROLE_MAP),
    STAFF_SSO_SESSION_HOURS: '2',
    SIGN_IN_FAILURES_PER_ACCOUNT_ADDRESS: '3',
  };
  app = await startTestApp(db, clock, { env });
  localOff = await startTestApp(db, clock, {
    env: { ...env, LOCAL_SIGN_IN: 'false', LOCAL_SIGN_IN_ACCOUNTS: 'admin' },
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  await addUser(db, 'admin', 'break glass pw', ['admin']);
  boss = new Client(app.baseUrl);
  expect((await boss.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await localOff?.close();
  await app?.close();
  await db?.drop();
  await ldap?.stop();
});

const signedIn = async (c: Client) =>
  ((await (await c.get('/api/session')).json()) as { signedIn: boolean }).signedIn;

async function records() {
  const r = await boss.get('/api/auth/sign-ins');
  expect(r.status).toBe(200);
  return ((await r.json()) as { items: Record<string, unknown>[] }).items;
}

describe('LDAP sign-in on the form', () => {
  it('signs a directory admin in with the roles of its groups, and records it', async () => {
    const c = new Client(app.baseUrl);
    const res = await c.login('alice', 'alice pw');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ username: 'alice', roles: ['admin'], grants: ['admin'] });
    expect(await (await c.get('/api/auth/me')).json()).toEqual({
      username: 'alice',
      roles: ['admin'],
      grants: ['admin'],
    });
    // Mapped from two groups; a group the map does not name gives nothing.
    const carol = new Client(app.baseUrl);
    expect(await (await carol.login('carol', 'carol pw')).json()).toEqual({
      username: 'carol',
      roles: ['reports', 'checkin'],
      grants: ['reports', 'checkin'],
    });
    expect((await carol.get('/api/auth/staff-accounts')).status).toBe(403);

    const accounts = (await (await boss.get('/api/auth/staff-accounts')).json()) as {
      items: { username: string; source: string; roles: string[]; lastSignInAt: string | null }[];
    };
    expect(accounts.items.find((a) => a.username === 'alice')).toEqual({
      username: 'alice',
      source: 'ldap',
      roles: ['admin'],
      grants: ['admin'],
      lastSignInAt: clock.now().toISOString(),
    });
    expect(accounts.items.find((a) => a.username === 'boss')).toMatchObject({ source: 'local' });
    expect(await records()).toContainEqual({
      at: clock.now().toISOString(),
      method: 'ldap',
      username: 'alice',
      outcome: 'signed-in',
      reason: null,
    });
  });

  it('names the account in lower case: the directory matches names without case', async () => {
    const c = new Client(app.baseUrl);
    expect(await (await c.login('ALICE', 'alice pw')).json()).toEqual({
      username: 'alice',
      roles: ['admin'],
      grants: ['admin'],
    });
  });

  it('refuses a person in no mapped group: 403, no session, recorded', async () => {
    const c = new Client(app.baseUrl);
    const res = await c.login('dave', 'dave pw');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('auth__no_staff_role');
    expect(await signedIn(c)).toBe(false);
    expect(await records()).toContainEqual(
      expect.objectContaining({ method: 'ldap', username: 'dave', reason: 'no-mapped-group' }),
    );
    const accounts = (await (await boss.get('/api/auth/staff-accounts')).json()) as {
      items: { username: string }[];
    };
    expect(accounts.items.map((a) => a.username)).not.toContain('dave');
  });

  it('refuses a wrong password, an empty one and filter injection in the name, with no session', async () => {
    const attempts: [string, string, number][] = [
      ['alice', 'not-her-pw-9', 401],
      ['alice', '', 400],
      ['*)(uid=*', 'alice pw', 401],
      ['admin)(|(uid=*', 'alice pw', 401],
      ['*', 'alice pw', 401],
      ['alice)(uid=alice', 'alice pw', 401],
    ];
    for (const [username, password, status] of attempts) {
      const c = new Client(app.baseUrl);
      const res = await c.login(username, password);
      expect(res.status, `${username} / ${password}`).toBe(status);
      expect(await signedIn(c)).toBe(false);
    }
    const all = JSON.stringify(await records());
    expect(all).not.toContain('alice pw');
    expect(all).not.toContain('not-her-pw-9');
  });

  it('delays further attempts after repeated failures (the sign-in limits)', async () => {
    const c = new Client(app.baseUrl);
    for (let i = 0; i < 3; i++) expect((await c.login('frank', `nope ${i}`)).status).toBe(401);
    const limited = await c.login('frank', 'frank pw');
    expect(limited.status).toBe(429);
    expect(await signedIn(c)).toBe(false);
  });

  it('ends a directory session after STAFF_SSO_SESSION_HOURS however busy it is', async () => {
    const c = new Client(app.baseUrl);
    expect((await c.login('erin', 'erin pw')).status).toBe(200);
    clock.advance(60 * 60_000);
    expect((await c.get('/api/auth/me')).status).toBe(200);
    clock.advance(60 * 60_000);
    expect((await c.get('/api/auth/me')).status).toBe(401);
    // A local account's session is not bounded so.
    expect((await boss.get('/api/auth/me')).status).toBe(200);
  });

  it('ends every session of an account on an admin request', async () => {
    const c = new Client(app.baseUrl);
    expect((await c.login('carol', 'carol pw')).status).toBe(200);
    const end = await boss.request('POST', '/api/auth/staff-accounts/carol/end-sessions');
    expect(end.status).toBe(204);
    expect((await c.get('/api/auth/me')).status).toBe(401);
    expect(
      (await boss.request('POST', '/api/auth/staff-accounts/nobody/end-sessions')).status,
    ).toBe(404);
  });

  it('answers 503 when the directory cannot be reached, and signs nobody in', async () => {
    const down = await startTestApp(db, clock, {
      env: {
        ...ldap.env,
        LDAP_URL: 'ldap://127.0.0.1:1',
        STAFF_ROLE_MAP: JSON.stringify(ROLE_MAP),
      },
    });
    try {
      const c = new Client(down.baseUrl);
      expect((await c.login('alice', 'alice pw')).status).toBe(503);
      expect(await signedIn(c)).toBe(false);
    } finally {
      await down.close();
    }
  });

  it('speaks ldaps:// too, and refuses a directory whose certificate it does not trust', async () => {
    const settings = {
      url: ldap.ldapsUrl,
      bindDn: ldap.env.LDAP_BIND_DN,
      bindPassword: ldap.env.LDAP_BIND_PASSWORD,
      searchBase: ldap.env.LDAP_SEARCH_BASE!,
      userFilter: '(uid={{username}})',
      groupsAttribute: 'memberOf',
      timeoutMs: 5000,
    };
    const { readFile } = await import('node:fs/promises');
    const ca = await readFile(ldap.caFile, 'utf8');
    expect(await new LdapDirectory({ ...settings, ca }).authenticate('alice', 'alice pw')).toEqual({
      ok: true,
      groups: [groupDn('reading-room-admins')],
    });
    await expect(
      new LdapDirectory({ ...settings, url: ldap.url }).authenticate('alice', 'alice pw'),
    ).rejects.toThrow(/directory/);
  });
});

describe('LOCAL_SIGN_IN=false', () => {
  it('keeps password sign-in for the break-glass accounts only', async () => {
    const admin = new Client(localOff.baseUrl);
    const r = await admin.login('admin', 'break glass pw');
    expect(r.status, await r.clone().text()).toBe(200);
    const other = new Client(localOff.baseUrl);
    expect((await other.login('boss', 'correct horse')).status).toBe(401);
    expect(await signedIn(other)).toBe(false);
    // A session boss opened where local sign-in is on is not valid where it is off.
    const earlier = new Client(app.baseUrl);
    expect((await earlier.login('boss', 'correct horse')).status).toBe(200);
    const there = new Client(localOff.baseUrl).shareSession(earlier);
    expect((await there.get('/api/auth/me')).status).toBe(401);
    expect(await records()).toContainEqual(
      // Not a break-glass account: the form asks the directory, which knows no boss.
      expect.objectContaining({ method: 'ldap', username: 'boss', reason: 'wrong-credentials' }),
    );
  });

  it('never lets the directory take over a local account of the same name', async () => {
    await addUser(db, 'erin', 'a local password', ['reports']);
    const c = new Client(localOff.baseUrl);
    const res = await c.login('erin', 'erin pw');
    expect(res.status).toBe(403);
    expect(await signedIn(c)).toBe(false);
    expect(await records()).toContainEqual(
      expect.objectContaining({ method: 'ldap', username: 'erin', reason: 'local-account' }),
    );
  });

  it('without a directory refuses every other local account like a wrong password', async () => {
    const noDirectory = await startTestApp(db, clock, { env: { LOCAL_SIGN_IN: 'false' } });
    try {
      const c = new Client(noDirectory.baseUrl);
      const res = await c.login('boss', 'correct horse');
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('auth__invalid_credentials');
      expect(await signedIn(c)).toBe(false);
      expect(await records()).toContainEqual(
        expect.objectContaining({ method: 'local', username: 'boss', reason: 'local-sign-in-off' }),
      );
      expect((await new Client(noDirectory.baseUrl).login('admin', 'break glass pw')).status).toBe(
        200,
      );
    } finally {
      await noDirectory.close();
    }
  });
});
