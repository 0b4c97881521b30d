import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, createPool, todayIn, type Pool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { runStaffUserRequest, staffUserRequest } from '../../server/src/staff-users.ts';

/**
 * What `npm run staff-user` changes about an account holds from the next request of every
 * process, for sessions opened before too: the roles are read from the database on each staff
 * request, and a new password, "end sessions" or the account's removal refuse the sessions it had
 * (401 problem+json "not signed in", the stored session deleted). Two app instances share the
 * database, and the command runs on a pool of its own, as the separate process it is.
 */
let db: TestDatabase;
let first: TestApp;
let second: { db: TestDatabase; app: TestApp };
let staffUserPool: Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  first = await startTestApp(db);
  const pool = createPool(db.url, 5);
  const sharedDb: TestDatabase = { ...db, pool, drop: () => pool.end() };
  second = { db: sharedDb, app: await startTestApp(sharedDb) };
  staffUserPool = createPool(db.url, 2);
});

afterAll(async () => {
  await staffUserPool.end();
  await second.app.close();
  await second.db.drop();
  await first.close();
  await db.drop();
});

/** Runs `npm run staff-user -- <args>` as the command does, with STAFF_USER_PASSWORD if given. */
async function staffUser(args: string[], password?: string): Promise<void> {
  const request = staffUserRequest(args, password ? { STAFF_USER_PASSWORD: password } : {});
  if (request instanceof Error) throw request;
  const outcome = await runStaffUserRequest(staffUserPool, request);
  if (outcome instanceof Error) throw outcome;
}

/** An admin signed in on the first instance, the same session used on the second too. */
async function signedInAdmin(username: string, password: string) {
  await addUser(db, username, password, ['admin']);
  const onFirst = new Client(first.baseUrl);
  expect((await onFirst.login(username, password)).status).toBe(200);
  const onSecond = new Client(second.app.baseUrl).shareSession(onFirst);
  for (const client of [onFirst, onSecond])
    expect(await (await client.get('/api/auth/me')).json()).toEqual({
      username,
      roles: ['admin'],
      grants: ['admin'],
    });
  return [onFirst, onSecond] as const;
}

/** A blacklist expiry a year after the apps' today (both apps share one clock). */
const aYearAhead = () => addDays(todayIn(first.deps.clock.now(), first.deps.timeZone), 365);

const addToBlacklist = (client: Client, email: string) =>
  client.request('POST', '/api/admin/blacklist', { json: { email, expiredAt: aYearAhead() } });

async function storedSessions(username: string): Promise<number> {
  const r = await db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM sessions WHERE sess->'user'->>'username' = $1`,
    [username],
  );
  return Number(r.rows[0]?.n);
}

async function expectSignedOut(client: Client): Promise<void> {
  const res = await client.get('/api/auth/me');
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(await res.json()).toMatchObject({ status: 401, error: 'http__unauthorized' });
}

describe('staff sessions follow the account', () => {
  it('answers the new roles at once after a demotion, in every instance', async () => {
    const [onFirst, onSecond] = await signedInAdmin('demoted', 'demoted password');
    expect((await addToBlacklist(onFirst, 'before@example.org')).status).toBe(201);

    await staffUser(['demoted', 'checkin', '--keep-password']);

    for (const client of [onFirst, onSecond]) {
      expect(await (await client.get('/api/auth/me')).json()).toEqual({
        username: 'demoted',
        roles: ['checkin'],
        grants: ['checkin'],
      });
      expect(await (await client.get('/api/session')).json()).toEqual({
        signedIn: true,
        user: { username: 'demoted', roles: ['checkin'], grants: ['checkin'] },
      });
      expect((await addToBlacklist(client, 'after@example.org')).status).toBe(403);
      expect((await client.get('/api/admin/check-in')).status).toBe(200);
    }
    // Promoted again, the same session has the role back: nothing was ended.
    await staffUser(['demoted', 'admin', '--keep-password']);
    expect((await addToBlacklist(onSecond, 'again@example.org')).status).toBe(201);
  });

  it('refuses the sessions opened before a password change, in every instance', async () => {
    const [onFirst, onSecond] = await signedInAdmin('rekeyed', 'rekeyed password');
    await staffUser(['rekeyed', 'admin'], 'a new password for rekeyed');

    await expectSignedOut(onSecond);
    expect(await storedSessions('rekeyed')).toBe(0);
    await expectSignedOut(onFirst);
    expect((await addToBlacklist(onFirst, 'rekeyed@example.org')).status).toBe(401);
    expect(await (await onFirst.get('/api/session')).json()).toEqual({
      signedIn: false,
      user: null,
    });

    expect((await onFirst.login('rekeyed', 'rekeyed password')).status).toBe(401);
    expect((await onFirst.login('rekeyed', 'a new password for rekeyed')).status).toBe(200);
    expect((await addToBlacklist(onFirst, 'rekeyed@example.org')).status).toBe(201);
  });

  it('refuses the sessions opened before "end sessions", and signs in again at once', async () => {
    const [onFirst, onSecond] = await signedInAdmin('ended', 'ended password');
    const elsewhere = new Client(second.app.baseUrl);
    expect((await elsewhere.login('ended', 'ended password')).status).toBe(200);

    await staffUser(['ended', '--end-sessions']);

    await expectSignedOut(onFirst);
    await expectSignedOut(onSecond);
    expect((await addToBlacklist(elsewhere, 'ended@example.org')).status).toBe(401);
    expect(await storedSessions('ended')).toBe(0);
    // A sign-in that still carries a refused session's cookie opens a new one.
    const stale = new Client(first.baseUrl);
    expect((await stale.login('ended', 'ended password')).status).toBe(200);
    await staffUser(['ended', '--end-sessions']);
    expect((await stale.login('ended', 'ended password')).status).toBe(200);
    expect(await (await stale.get('/api/auth/me')).json()).toEqual({
      username: 'ended',
      roles: ['admin'],
      grants: ['admin'],
    });
  });

  it('refuses the sessions of a removed account, in every instance', async () => {
    const [onFirst, onSecond] = await signedInAdmin('removed', 'removed password');
    await staffUser(['removed', '--remove']);

    await expectSignedOut(onFirst);
    expect((await addToBlacklist(onSecond, 'removed@example.org')).status).toBe(401);
    expect(await storedSessions('removed')).toBe(0);
    expect((await onFirst.login('removed', 'removed password')).status).toBe(401);
  });

  it('says which account is missing when the command changes an unknown one', async () => {
    const request = staffUserRequest(['nobody', '--end-sessions'], {});
    if (request instanceof Error) throw request;
    expect(await runStaffUserRequest(staffUserPool, request)).toEqual(
      new Error('There is no staff user nobody.'),
    );
  });
});
