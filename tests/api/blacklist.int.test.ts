import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';

let db: TestDatabase;
let admin: Client;
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));

type Entry = { email: string; expiredAt: string; description?: string };
const events = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
const list = async (q = '') =>
  (await (await admin.get(`/api/admin/blacklist${q}`)).json()) as {
    content: Entry[];
    totalCount: number;
  };
const enc = encodeURIComponent;

let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock);
  ({ db, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('blacklist', () => {
  it('adds entries keyed by the normalised e-mail and refuses duplicates case-insensitively', async () => {
    const r = await admin.request('POST', '/api/admin/blacklist', {
      json: {
        email: '  Spam.Bot@Example.COM ',
        expiredAt: '2027-11-23',
        description: 'Many no-shows',
      },
    });
    expect(r.status).toBe(201);
    const dup = await admin.request('POST', '/api/admin/blacklist', {
      json: { email: 'spam.bot@example.com', expiredAt: '2027-01-01' },
    });
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as { error: string }).error).toBe('blacklist__email_already_exists');
    const one = await admin.get(`/api/admin/blacklist/${enc('SPAM.BOT@example.com')}`);
    expect(await one.json()).toMatchObject({
      email: 'spam.bot@example.com',
      expiredAt: '2027-11-23',
      description: 'Many no-shows',
    });
  });

  it('keeps the address out of the event log', async () => {
    const r = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE data::text ILIKE '%spam.bot%' OR metadata::text ILIKE '%spam.bot%'`,
    );
    expect(Number(r.rows[0]!.n)).toBe(0);
  });

  it('lists with term, expiry range, sort and paging', async () => {
    await admin.request('POST', '/api/admin/blacklist', {
      json: { email: 'anna@example.org', expiredAt: '2026-12-31' },
    });
    await admin.request('POST', '/api/admin/blacklist', {
      json: { email: 'zeno@example.net', expiredAt: '2028-06-30', description: 'Abusive calls' },
    });
    expect((await list()).content.map((e) => e.email)).toEqual([
      'anna@example.org',
      'spam.bot@example.com',
      'zeno@example.net',
    ]);
    expect((await list('?sort=expiredAt:DESC')).content.map((e) => e.email)).toEqual([
      'zeno@example.net',
      'spam.bot@example.com',
      'anna@example.org',
    ]);
    expect((await list('?term=ABUSIVE')).content.map((e) => e.email)).toEqual(['zeno@example.net']);
    expect((await list('?term=example.org')).content.map((e) => e.email)).toEqual([
      'anna@example.org',
    ]);
    expect(
      (await list('?expiresFrom=2027-01-01&expiresUntil=2027-12-31')).content.map((e) => e.email),
    ).toEqual(['spam.bot@example.com']);
    const page = await list('?limit=1&offset=1');
    expect(page.content.map((e) => e.email)).toEqual(['spam.bot@example.com']);
    expect(page.totalCount).toBe(3);
    expect((await admin.get('/api/admin/blacklist?sort=secret:ASC')).status).toBe(400);
  });

  it('updates as a removal followed by an addition in one append', async () => {
    const before = await events();
    const r = await admin.request('PUT', `/api/admin/blacklist/${enc('anna@example.org')}`, {
      json: { expiredAt: '2027-03-01', description: 'Extended' },
    });
    expect(r.status).toBe(200);
    const written = await db.pool.query<{ event_type: string; tx: string }>(
      'SELECT event_type, transaction_id::text AS tx FROM events ORDER BY global_position DESC LIMIT 2',
    );
    expect(written.rows.map((e) => e.event_type).reverse()).toEqual([
      'BlacklistEntryRemoved',
      'BlacklistEntryAdded',
    ]);
    expect(new Set(written.rows.map((e) => e.tx)).size).toBe(1);
    expect(await events()).toBe(before + 2);
    expect(
      await (await admin.get(`/api/admin/blacklist/${enc('anna@example.org')}`)).json(),
    ).toMatchObject({ expiredAt: '2027-03-01', description: 'Extended' });
    expect(
      (
        await admin.request('PUT', `/api/admin/blacklist/${enc('nobody@example.org')}`, {
          json: { expiredAt: '2027-03-01' },
        })
      ).status,
    ).toBe(404);
  });

  it('deletes an entry and its address', async () => {
    expect(
      (await admin.request('DELETE', `/api/admin/blacklist/${enc('zeno@example.net')}`)).status,
    ).toBe(200);
    expect((await admin.get(`/api/admin/blacklist/${enc('zeno@example.net')}`)).status).toBe(404);
    const stored = await db.pool.query(
      `SELECT 1 FROM blacklist_emails WHERE email = 'zeno@example.net'`,
    );
    expect(stored.rowCount).toBe(0);
    // It can be added again after removal.
    expect(
      (
        await admin.request('POST', '/api/admin/blacklist', {
          json: { email: 'zeno@example.net', expiredAt: '2027-01-01' },
        })
      ).status,
    ).toBe(201);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['email missing', { email: '' }, 'email', 'Value is required'],
    ['email invalid', { email: 'not-an-address' }, 'email', 'Value is not a valid email address'],
    [
      'email too long',
      { email: `${'a'.repeat(310)}@example.com` },
      'email',
      'The maximum length allowed is 320',
    ],
    ['expiry missing', { expiredAt: undefined }, 'expiredAt', 'Value is required'],
    ['expiry not a date', { expiredAt: '31.12.2027' }, 'expiredAt', 'Select a valid date'],
    ['expiry today', { expiredAt: '2026-11-23' }, 'expiredAt', 'Date must be in the future'],
    ['expiry in the past', { expiredAt: '2026-01-01' }, 'expiredAt', 'Date must be in the future'],
    [
      'description too long',
      { description: 'd'.repeat(251) },
      'description',
      'The maximum length allowed is 250',
    ],
  ];
  for (const [title, change, field, message] of invalid) {
    it(`refuses: ${title}`, async () => {
      const before = await events();
      const r = await admin.request('POST', '/api/admin/blacklist', {
        json: { email: 'valid@example.com', expiredAt: '2027-01-01', ...change },
      });
      expect(r.status).toBe(400);
      const body = (await r.json()) as { errors: { field: string; message: string }[] };
      expect(body.errors.find((e) => e.field === field)?.message, JSON.stringify(body.errors)).toBe(
        message,
      );
      expect(await events()).toBe(before);
    });
  }
});
