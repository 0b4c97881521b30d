import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalData } from '@rr/command-service';
import { ManualClock } from '@rr/platform';
import { addUser, Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';

/**
 * The record of staff sign-ins keeps what people typed no longer than it must: a refused sign-in
 * of a name no account has keeps only a keyed hash of the name (staff match a name they type
 * against it), and the erasure job removes every record older than STAFF_SIGN_IN_RECORD_DAYS
 * (90 by default). Admins see the latest 200 records, newest first.
 */
const clock = new ManualClock(new Date('2027-02-01T08:00:00Z'));
const DAY = 86_400_000;
let suite: AdminSuite;

interface SignIn {
  at: string;
  method: string;
  username: string;
  outcome: string;
  reason: string | null;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  await addUser(suite.db, 'anna', 'anna correct horse', ['reports']);
});
afterAll(async () => {
  await suite.close();
});

const signIn = (username: string, password: string) =>
  new Client(suite.app.baseUrl).login(username, password);

async function signIns(name?: string, staff = suite.admin): Promise<SignIn[]> {
  const res = await staff.get(
    `/api/auth/sign-ins${name === undefined ? '' : `?name=${encodeURIComponent(name)}`}`,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: SignIn[] }).items;
}

/** Every stored value of the record, as text. */
async function storedText(): Promise<string> {
  const r = await suite.db.pool.query('SELECT * FROM staff_sign_ins');
  return JSON.stringify(r.rows);
}

describe('the record of staff sign-ins', () => {
  it('keeps no typed name of an account that does not exist, only a key staff can match', async () => {
    const typed = 'Vera.Visitor@Example.at';
    expect((await signIn(typed, 'my library password')).status).toBe(401);
    const stored = await storedText();
    expect(stored.toLowerCase()).not.toContain('vera');
    expect(stored.toLowerCase()).not.toContain('example.at');
    const latest = (await signIns())[0]!;
    expect(latest).toMatchObject({ username: '', outcome: 'refused', reason: 'wrong-credentials' });
    // Staff who type the name (in any case) find its refusals, and only those.
    expect(await signIns('vera.visitor@example.at')).toEqual([latest]);
    expect(await signIns('someone.else@example.at')).toEqual([]);
  });

  it("keeps a known account's refused sign-in with its name", async () => {
    expect(await signIn('anna', 'wrong')).toHaveProperty('status', 401);
    const latest = (await signIns())[0]!;
    expect(latest).toMatchObject({
      username: 'anna',
      outcome: 'refused',
      reason: 'wrong-credentials',
    });
    expect((await signIns('anna'))[0]).toEqual(latest);
  });

  it('loses every record older than the period in the erasure job', async () => {
    const start = clock.now();
    expect(await signIn('anna', 'wrong again')).toHaveProperty('status', 401);
    clock.set(new Date(start.getTime() + 60 * DAY));
    expect((await signIn('anna', 'anna correct horse')).status).toBe(200);
    clock.set(new Date(start.getTime() + 90 * DAY + 60_000));
    await erasePersonalData(suite.app.deps);
    const stored = await suite.db.pool.query<{ username: string; outcome: string }>(
      'SELECT username, outcome FROM staff_sign_ins ORDER BY at',
    );
    // The sign-in of 60 days ago stays; every record of the start (and before) is gone.
    expect(stored.rows).toEqual([{ username: 'anna', outcome: 'signed-in' }]);
    const boss = new Client(suite.app.baseUrl);
    expect((await boss.login('boss', 'correct horse')).status).toBe(200);
    expect((await signIns(undefined, boss)).map((r) => r.username)).toEqual(['boss', 'anna']);
  });

  it(
    'shows admins the latest 200 records, newest first, with or without a name',
    async () => {
      const MINUTE = 60_000;
      const start = clock.now().getTime();
      const at = (minutes: number) => new Date(start + minutes * MINUTE);
      // A refusal, then 201 sign-ins a minute apart: the list holds the last 200 of them only.
      expect(await signIn('anna', 'wrong once more')).toHaveProperty('status', 401);
      const anna = new Client(suite.app.baseUrl);
      for (let minute = 1; minute <= 201; minute++) {
        clock.set(at(minute));
        expect((await anna.login('anna', 'anna correct horse')).status).toBe(200);
      }
      const newestFirst = (from: number) =>
        Array.from({ length: 200 }, (_, i) => at(from - i).toISOString());
      for (const name of [undefined, 'anna']) {
        const items = await signIns(name);
        expect(items.map((r) => r.at)).toEqual(newestFirst(201));
        expect(items.every((r) => r.username === 'anna' && r.outcome === 'signed-in')).toBe(true);
      }

      // One more record takes the place of the oldest shown.
      clock.set(at(202));
      expect(await signIn('anna', 'wrong at last')).toHaveProperty('status', 401);
      const items = await signIns();
      expect(items.map((r) => r.at)).toEqual(newestFirst(202));
      expect(items[0]).toMatchObject({ username: 'anna', outcome: 'refused' });
    },
    budget(120_000),
  );
});
