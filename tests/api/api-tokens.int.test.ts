// API tokens of machines: made, listed and revoked by an admin; used as `Authorization: Bearer`.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOf, type RuleKey } from '@rr/contracts';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let suite: AdminSuite;

/** A client that authenticates with a token only: no cookie and no X-Requested-With header. */
class BearerClient extends Client {
  constructor(
    baseUrl: string,
    private readonly secret: string,
  ) {
    super(baseUrl);
  }
  override request(
    method: string,
    path: string,
    options: Parameters<Client['request']>[2] = {},
  ): Promise<Response> {
    return super.request(method, path, {
      ...options,
      xhr: false,
      headers: { ...options.headers, Authorization: `Bearer ${this.secret}` },
    });
  }
}

type Created = {
  id: string;
  name: string;
  roles: string[];
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  secret: string;
};

async function createToken(body: Record<string, unknown>): Promise<Created> {
  const res = await suite.admin.request('POST', '/api/admin/api-tokens', { json: body });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()) as Created;
}

const bearer = (secret: string) => new BearerClient(suite.app.baseUrl, secret);

async function expectInvalidToken(res: Response) {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(((await res.json()) as { error: string }).error).toBe('auth__invalid_token');
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

describe('API tokens', () => {
  it('answers the secret once, stores only its SHA-256, and lists tokens without secrets', async () => {
    const made = await createToken({
      name: 'Door counter',
      roles: ['reports', 'checkin'],
      expiresAt: '2027-06-30T22:00:00Z',
    });
    expect(made.secret).toMatch(/^rr_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({
      name: 'Door counter',
      roles: ['reports', 'checkin'],
      createdBy: 'boss',
      createdAt: clock.now().toISOString(),
      expiresAt: '2027-06-30T22:00:00.000Z',
      lastUsedAt: null,
    });

    const stored = await suite.db.pool.query<{ secret_hash: Buffer }>(
      'SELECT * FROM api_tokens WHERE id = $1',
      [made.id],
    );
    const hash = createHash('sha256').update(made.secret).digest();
    expect(stored.rows[0]!.secret_hash.equals(hash)).toBe(true);
    expect(JSON.stringify(stored.rows)).not.toContain(made.secret.slice(3));

    const listed = await suite.admin.get('/api/admin/api-tokens');
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(made.secret.slice(3));
    const tokens = JSON.parse(text) as Record<string, unknown>[];
    const { secret: _secret, ...withoutSecret } = made;
    expect(tokens).toContainEqual(withoutSecret);
    expect(tokens.every((t) => !('secret' in t))).toBe(true);
  });

  it('works with the token’s roles and no CSRF header; a session still needs the header', async () => {
    const { secret } = await createToken({ name: 'Reporting robot', roles: ['reports'] });
    const robot = bearer(secret);
    expect(await (await robot.get('/api/auth/me')).json()).toMatchObject({
      username: 'Reporting robot',
      roles: ['reports'],
    });
    expect((await robot.get('/api/admin/rooms')).status).toBe(200);
    expect((await robot.request('POST', '/api/admin/rooms', { json: {} })).status).toBe(403);

    const { secret: adminSecret } = await createToken({ name: 'Room robot', roles: ['admin'] });
    const made = await bearer(adminSecret).request('POST', '/api/admin/rooms', {
      json: {
        name: 'Robot room',
        description: 'Made by a machine',
        capacity: 4,
        openStartValue: 2,
        openStartType: 'DAY',
        openEndValue: 30,
        openEndType: 'WORKING_DAY',
      },
    });
    expect(made.status).toBe(201);

    const refused = await suite.admin.request('POST', '/api/admin/rooms', { json: {}, xhr: false });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'http__access_denied_exception',
    );
  });

  it('answers 401 problem+json for an unknown, a malformed, a revoked and an expired token', async () => {
    await expectInvalidToken(await bearer(`rr_${'A'.repeat(43)}`).get('/api/admin/rooms'));
    await expectInvalidToken(await bearer('not-a-token').get('/api/admin/rooms'));
    const empty = await fetch(`${suite.app.baseUrl}/api/admin/rooms`, {
      headers: { Authorization: 'Bearer' },
    });
    await expectInvalidToken(empty);

    const revoked = await createToken({ name: 'Revoked robot', roles: ['admin'] });
    expect((await bearer(revoked.secret).get('/api/admin/rooms')).status).toBe(200);
    const del = await suite.admin.request('DELETE', `/api/admin/api-tokens/${revoked.id}`);
    expect(del.status).toBe(204);
    await expectInvalidToken(await bearer(revoked.secret).get('/api/admin/rooms'));
    expect(
      (await suite.admin.request('DELETE', `/api/admin/api-tokens/${revoked.id}`)).status,
    ).toBe(404);
    const list = (await (await suite.admin.get('/api/admin/api-tokens')).json()) as Created[];
    expect(list.map((t) => t.id)).not.toContain(revoked.id);

    const expiring = await createToken({
      name: 'Short-lived robot',
      roles: ['admin'],
      expiresAt: new Date(clock.now().getTime() + 60 * 60_000).toISOString(),
    });
    expect((await bearer(expiring.secret).get('/api/admin/rooms')).status).toBe(200);
    clock.advance(60 * 60_000);
    try {
      await expectInvalidToken(await bearer(expiring.secret).get('/api/admin/rooms'));
    } finally {
      clock.advance(-60 * 60_000);
    }
  });

  it('writes last_used_at at most once a minute per token, at the clock’s time', async () => {
    const made = await createToken({ name: 'Busy robot', roles: ['reports'] });
    const lastUsed = async () =>
      (
        await suite.db.pool.query<{ at: Date | null }>(
          'SELECT last_used_at AS at FROM api_tokens WHERE id = $1',
          [made.id],
        )
      ).rows[0]!.at?.toISOString() ?? null;
    const robot = bearer(made.secret);
    const start = clock.now();
    await robot.get('/api/admin/rooms');
    expect(await lastUsed()).toBe(start.toISOString());
    clock.advance(30_000);
    await robot.get('/api/admin/rooms');
    expect(await lastUsed()).toBe(start.toISOString());
    clock.advance(30_000);
    await robot.get('/api/admin/rooms');
    expect(await lastUsed()).toBe(clock.now().toISOString());
    clock.set(start);
  });

  it('refuses bad input with 400 validation__error naming the rule, and a taken name with 409', async () => {
    const cases: [Record<string, unknown>, string, RuleKey, Record<string, number>?][] = [
      [{ roles: ['admin'] }, 'name', 'required'],
      [{ name: '   ', roles: ['admin'] }, 'name', 'required'],
      [{ name: 'x'.repeat(101), roles: ['admin'] }, 'name', 'max-length', { max: 100 }],
      [{ name: 'ok', roles: [] }, 'roles', 'required'],
      [{ name: 'ok', roles: ['root'] }, 'roles.0', 'invalid'],
      [{ name: 'ok', roles: ['admin', 'admin'] }, 'roles', 'invalid'],
      [{ name: 'ok', roles: 'admin' }, 'roles', 'required'],
      [{ name: 'ok', roles: ['admin'], expiresAt: 'tomorrow' }, 'expiresAt', 'date'],
      [{ name: 'ok', roles: ['admin'], expiresAt: '2027-02-29T10:00:00Z' }, 'expiresAt', 'date'],
      [
        { name: 'ok', roles: ['admin'], expiresAt: '2026-11-23T08:59:59Z' },
        'expiresAt',
        'date-future',
      ],
      [{ name: 'ok', roles: ['admin'], expiresAt: 12 }, 'expiresAt', 'required'],
    ];
    for (const [body, field, rule, params] of cases) {
      const res = await suite.admin.request('POST', '/api/admin/api-tokens', { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const problem = (await res.json()) as {
        error: string;
        errors: { field: string; message: string }[];
      };
      expect(problem.error).toBe('validation__error');
      const error = problem.errors.find((e) => e.field === field);
      expect(error, JSON.stringify(body)).toBeDefined();
      if (rule !== 'invalid')
        expect(error!.message, JSON.stringify(body)).toBe(messageOf({ key: rule, params }));
    }
    const bad = await suite.admin.request('DELETE', '/api/admin/api-tokens/not-a-uuid');
    expect(bad.status).toBe(400);

    await createToken({ name: 'Twin', roles: ['reports'] });
    const twin = await suite.admin.request('POST', '/api/admin/api-tokens', {
      json: { name: 'Twin', roles: ['admin'] },
    });
    expect(twin.status).toBe(409);
    expect(((await twin.json()) as { error: string }).error).toBe('api_token__name_taken');
  });

  it('lets only admins manage tokens', async () => {
    const { secret } = await createToken({ name: 'Desk robot', roles: ['checkin', 'reports'] });
    const robot = bearer(secret);
    expect((await robot.get('/api/admin/api-tokens')).status).toBe(403);
    expect(
      (
        await robot.request('POST', '/api/admin/api-tokens', {
          json: { name: 'x', roles: ['admin'] },
        })
      ).status,
    ).toBe(403);
    const anonymous = new Client(suite.app.baseUrl);
    expect((await anonymous.get('/api/admin/api-tokens')).status).toBe(401);
  });
});
