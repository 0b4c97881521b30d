import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool, ManualClock } from '@rr/platform';
import { signInSubjects } from '@rr/identity';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';

/**
 * Failed sign-ins delay further attempts (per user name and address, per address, per user name),
 * in PostgreSQL and at the injected clock; successful ones never count. The app runs with the
 * default limits: 5 failures per user name and address, 50 per address, 25 per user name, in 15
 * minutes; delays from 30 seconds, doubling, at most 5 minutes. The client address comes from
 * X-Forwarded-For (TRUST_PROXY=loopback), so each test is its own set of clients.
 */
const clock = new ManualClock(new Date('2030-01-07T08:00:00Z'));
const env = { TRUST_PROXY: 'loopback' };
let db: TestDatabase;
let app: TestApp;
let second: { db: TestDatabase; app: TestApp };

beforeAll(async () => {
  db = await createTestDatabase(clock);
  app = await startTestApp(db, clock, { env });
  // A second instance over the same database with connections of its own, like another process.
  const pool = createPool(db.url, 5);
  const sharedDb: TestDatabase = { ...db, pool, drop: () => pool.end() };
  second = { db: sharedDb, app: await startTestApp(sharedDb, clock, { env }) };
  for (const user of ['anna', 'berta', 'carl', 'dora', 'emil', 'frida', 'gustav'])
    await addUser(db, user, `${user} correct horse`, ['admin']);
});

afterAll(async () => {
  await second.app.close();
  await second.db.drop();
  await app.close();
  await db.drop();
});

// Each test starts after every earlier window and delay has ended.
beforeEach(() => clock.advance(60 * 60_000));

function signIn(
  username: string,
  password: string,
  address: string,
  on: TestApp = app,
): Promise<Response> {
  return new Client(on.baseUrl).request('POST', '/api/auth/login', {
    json: { username, password },
    headers: { 'X-Forwarded-For': address },
  });
}
const right = (username: string) => `${username} correct horse`;

async function expectRefused(res: Response): Promise<number> {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  const body = (await res.json()) as { error: string; status: number };
  expect(body.error).toBe('http__too_many_requests');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(300);
  return retryAfter;
}

describe('failed sign-ins', () => {
  it('refuse one account from one address after five failures, until the delay has passed', async () => {
    const at = '203.0.113.10';
    for (let i = 0; i < 5; i++) expect((await signIn('anna', 'wrong', at)).status).toBe(401);
    // The right password too: the attempt is refused before any password is checked.
    expect(await expectRefused(await signIn('anna', right('anna'), at))).toBe(30);
    clock.advance(29_000);
    expect(await expectRefused(await signIn('anna', right('anna'), at))).toBe(1);
    clock.advance(1_000);
    expect((await signIn('anna', right('anna'), at)).status).toBe(200);
    // The success reset the account's counter from this address: five more failures before a refusal.
    for (let i = 0; i < 5; i++) expect((await signIn('anna', 'wrong', at)).status).toBe(401);
    await expectRefused(await signIn('anna', 'wrong', at));
    // Each further failure doubles the delay, never beyond five minutes.
    clock.advance(30_000);
    expect((await signIn('anna', 'wrong', at)).status).toBe(401);
    expect(await expectRefused(await signIn('anna', right('anna'), at))).toBe(60);
  });

  it('answer the same for an unknown user name as for a known one', async () => {
    const at = '203.0.113.11';
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(await (await signIn('berta', 'wrong', at)).json());
      unknown.push(await (await signIn('nobody-here', 'wrong', at)).json());
    }
    expect(unknown).toEqual(known);
    expect((known[5] as { error: string }).error).toBe('http__too_many_requests');
  });

  it('do not keep the right password from another address', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await signIn('carl', `guess ${i}`, '198.51.100.66');
      expect(res.status).toBe(i < 5 ? 401 : 429);
    }
    expect((await signIn('carl', right('carl'), '192.0.2.44')).status).toBe(200);
  });

  it('never refuse successful sign-ins: 25 from one address', async () => {
    for (let i = 0; i < 25; i++) {
      const user = i % 2 ? 'dora' : 'emil';
      expect((await signIn(user, right(user), '192.0.2.50')).status, `sign-in ${i + 1}`).toBe(200);
    }
  });

  it('slow down one address trying many user names, and one user name from many addresses', async () => {
    // Spraying: 50 user names, one failure each, from one address.
    for (let i = 0; i < 50; i++)
      expect((await signIn(`staff${i}`, 'Summer2030!', '198.51.100.77')).status).toBe(401);
    await expectRefused(await signIn('staff50', 'Summer2030!', '198.51.100.77'));
    expect((await signIn('frida', right('frida'), '198.51.100.78')).status).toBe(200);

    // Distributed guessing: 25 failures for one user name, each from its own address.
    for (let i = 0; i < 25; i++)
      expect((await signIn('gustav', `guess ${i}`, `10.1.0.${i + 1}`)).status).toBe(401);
    const wait = await expectRefused(await signIn('gustav', right('gustav'), '192.0.2.60'));
    expect(wait).toBe(30);
    clock.advance(wait * 1000);
    expect((await signIn('gustav', right('gustav'), '192.0.2.60')).status).toBe(200);
  });

  it('count an IPv6 client by its network', async () => {
    for (let i = 0; i < 5; i++)
      expect((await signIn('anna', 'wrong', `2001:db8:7:${i}::1`)).status).toBe(401);
    await expectRefused(await signIn('anna', right('anna'), '2001:db8:7:ff::2'));
    expect((await signIn('anna', right('anna'), '2001:db8:8::1')).status).toBe(200);
  });

  it('are shared by every instance over the database', async () => {
    const at = '203.0.113.12';
    for (let i = 0; i < 3; i++) expect((await signIn('berta', 'wrong', at)).status).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await signIn('berta', 'wrong', at, second.app)).status).toBe(401);
    await expectRefused(await signIn('berta', right('berta'), at));
    await expectRefused(await signIn('berta', right('berta'), at, second.app));
    clock.advance(30_000);
    expect((await signIn('berta', right('berta'), at, second.app)).status).toBe(200);
  });

  it('let no more attempts through when they arrive at once, on both instances', async () => {
    const at = '203.0.113.14';
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        signIn('dora', `guess ${i}`, at, i % 2 ? second.app : app).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
  });

  it('are counted at the clock, kept in PostgreSQL, and deleted once their window has ended', async () => {
    await signIn('carl', 'wrong', '203.0.113.13');
    const carlAt = signInSubjects('carl', '203.0.113.13');
    const rows = await db.pool.query<{ scope: string; window_start: Date; expires_at: Date }>(
      `SELECT scope, window_start, expires_at FROM sign_in_failures
        WHERE subject = ANY($1::text[]) ORDER BY scope`,
      [Object.values(carlAt)],
    );
    expect(rows.rows.map((r) => [r.scope, r.window_start.getTime()])).toEqual([
      ['account', clock.now().getTime()],
      ['account_address', clock.now().getTime()],
      ['address', clock.now().getTime()],
    ]);
    expect(rows.rows[0]!.expires_at.getTime()).toBe(clock.now().getTime() + 15 * 60_000);
    clock.advance(15 * 60_000);
    await signIn('carl', right('carl'), '192.0.2.70');
    const left = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM sign_in_failures WHERE expires_at <= $1`,
      [clock.now()],
    );
    // Only the rows of the attempt that just signed in may be left (reset, expiring now).
    expect(Number(left.rows[0]!.n)).toBeLessThanOrEqual(3);
    const carl = await db.pool.query('SELECT 1 FROM sign_in_failures WHERE subject = $1', [
      carlAt.account_address,
    ]);
    expect(carl.rowCount).toBe(0);
  });

  it('never store what was typed as the user name (it may be a password)', async () => {
    await signIn('Tr0ub4dor&3-typed-in-the-wrong-field', 'x', '203.0.113.15');
    const stored = await db.pool.query(
      `SELECT 1 FROM sign_in_failures WHERE subject LIKE '%Tr0ub4dor%' OR subject LIKE '%203.0.113%'`,
    );
    expect(stored.rowCount).toBe(0);
    expect(
      (
        await db.pool.query('SELECT 1 FROM sign_in_failures WHERE subject = $1', [
          signInSubjects('Tr0ub4dor&3-typed-in-the-wrong-field', '203.0.113.15').account,
        ])
      ).rowCount,
    ).toBe(1);
  });
});
