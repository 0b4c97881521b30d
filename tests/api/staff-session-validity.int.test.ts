import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, createPool, todayIn, type Pool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
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

/**
 * The idle limit (docs/product.md#sign-in-with-the-campus-identity: "the 8-hour idle limit holds
 * as for every session"): a session ends 8 hours after its last request, and each request moves
 * that end on. The end is kept where the server reads a session, its row's `expire` (compared
 * with the real time, not the app's clock), and in the cookie's Expires. A test cannot wait 8
 * hours: it moves the stored end back as the hours without a request would have.
 */
describe('the idle limit of a staff session', () => {
  const EIGHT_HOURS = 8 * 3_600_000;

  /** The stored end of the account's one session, in ms since the epoch. */
  async function storedEnd(username: string): Promise<number> {
    const r = await db.pool.query<{ ms: string }>(
      `SELECT extract(epoch FROM expire::timestamptz) * 1000 AS ms FROM sessions
        WHERE sess->'user'->>'username' = $1`,
      [username],
    );
    expect(r.rows).toHaveLength(1);
    return Number(r.rows[0]!.ms);
  }

  /** As if the session's last request had been `interval` earlier than it was. */
  const idleFor = (username: string, interval: string) =>
    db.pool.query(
      `UPDATE sessions SET expire = expire - $2::interval WHERE sess->'user'->>'username' = $1`,
      [username, interval],
    );

  /** The cookie's Expires of an answer that sets the session cookie, in ms since the epoch. */
  function cookieEnd(res: Response): number {
    const expires = /Expires=([^;]+)/i.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(expires).toBeDefined();
    return Date.parse(expires!);
  }

  /** Expects `at` to be 8 hours after a moment between `from` and `to` (seconds resolution). */
  function eightHoursAfter(at: number, from: number, to: number): void {
    expect(at).toBeGreaterThanOrEqual(from + EIGHT_HOURS - 1000);
    expect(at).toBeLessThanOrEqual(to + EIGHT_HOURS + 1000);
  }

  it('refuses a session 8 hours and a second after its sign-in without a request', async () => {
    await addUser(db, 'idle', 'idle password', ['admin']);
    const client = new Client(first.baseUrl);
    const from = Date.now();
    const signIn = await client.login('idle', 'idle password');
    const to = Date.now();
    expect(signIn.status).toBe(200);
    eightHoursAfter(cookieEnd(signIn), from, to);
    eightHoursAfter(await storedEnd('idle'), from, to);

    await idleFor('idle', '8 hours 1 second');
    await expectSignedOut(client);
    expect((await addToBlacklist(client, 'idle@example.org')).status).toBe(401);
    expect((await client.login('idle', 'idle password')).status).toBe(200);
    expect((await addToBlacklist(client, 'idle@example.org')).status).toBe(201);
  });

  it('rolls on a session whose last request is less than 8 hours ago, in every instance', async () => {
    await addUser(db, 'busy', 'busy password', ['admin']);
    const onFirst = new Client(first.baseUrl);
    expect((await onFirst.login('busy', 'busy password')).status).toBe(200);
    const onSecond = new Client(second.app.baseUrl).shareSession(onFirst);

    await idleFor('busy', '7 hours 59 minutes');
    const from = Date.now();
    const res = await onSecond.get('/api/auth/me');
    const to = Date.now();
    expect(res.status).toBe(200);
    // The browser's cookie and the stored end both move to 8 hours after this request (the
    // stored one written just after the answer has gone out).
    eightHoursAfter(cookieEnd(res), from, to);
    await expect
      .poll(() => storedEnd('busy'), { timeout: budget(5000) })
      .toBeGreaterThanOrEqual(from + EIGHT_HOURS - 1000);
    eightHoursAfter(await storedEnd('busy'), from, to);
    // Again nearly 8 hours without a request: nearly 16 since the sign-in, and still open.
    await idleFor('busy', '7 hours 59 minutes');
    expect((await addToBlacklist(onFirst, 'busy@example.org')).status).toBe(201);
  });
});
