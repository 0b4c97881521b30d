// API tokens of machines: made, listed and revoked by an admin; used as `Authorization: Bearer`.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOf, type RuleKey } from '@rr/contracts';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, startTestApp, type AdminSuite } from '../support/app.ts';
import { samplePath } from '../support/openapi-paths.ts';

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

  it('ignores a session cookie sent beside a token: the token’s roles alone decide', async () => {
    const { secret } = await createToken({ name: 'Cookie robot', roles: ['reports'] });
    const both = bearer(secret).shareSession(suite.admin);
    const res = await both.request('POST', '/api/admin/rooms', { json: {} });
    expect(res.status).toBe(403);
    expect(await (await both.get('/api/auth/me')).json()).toMatchObject({ roles: ['reports'] });
    const basic = await suite.admin.get('/api/admin/rooms', {
      Authorization: 'Basic Zm9vOmJhcg==',
    });
    expect(basic.status).toBe(200);
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

describe('the role matrix with tokens', () => {
  type Op = { security?: unknown; 'x-roles'?: string[] };
  type Doc = {
    paths: Record<string, Record<string, Op>>;
    components: { securitySchemes: Record<string, Record<string, string>> };
  };
  /** Every route of the OpenAPI document that needs a staff user, with the roles it admits. */
  async function staffRoutes() {
    const doc = (await (await suite.admin.get('/api/openapi.json')).json()) as Doc;
    const routes = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security !== undefined)
        .map(([m, op]) => ({ method: m.toUpperCase(), path: samplePath(p), roles: op['x-roles'] })),
    );
    expect(routes.length).toBeGreaterThanOrEqual(45);
    return routes;
  }
  const optionsOf = (method: string) =>
    method === 'GET' || method === 'DELETE' ? {} : { json: {} };
  const eventCount = async () =>
    Number(
      (await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n,
    );

  it.each(['admin', 'reports', 'checkin'])(
    'a %s token passes exactly the routes of its role, without X-Requested-With',
    async (role) => {
      const { secret } = await createToken({ name: `Matrix ${role}`, roles: [role] });
      const robot = bearer(secret);
      for (const r of await staffRoutes()) {
        const res = await robot.request(r.method, r.path, optionsOf(r.method));
        const label = `${r.method} ${r.path} ${role}`;
        if (r.roles === undefined || r.roles.includes(role)) {
          expect([401, 403], label).not.toContain(res.status);
          expect(res.status, label).toBeLessThan(500);
        } else {
          expect(res.status, label).toBe(403);
          expect(((await res.json()) as { error: string }).error, label).toBe(
            'http__access_denied_exception',
          );
        }
      }
    },
  );

  it('a revoked and an expired admin token are 401 problem+json on every route, changing nothing', async () => {
    const revoked = await createToken({ name: 'Matrix revoked', roles: ['admin'] });
    expect(
      (await suite.admin.request('DELETE', `/api/admin/api-tokens/${revoked.id}`)).status,
    ).toBe(204);
    const expired = await createToken({
      name: 'Matrix expired',
      roles: ['admin', 'reports', 'checkin'],
      expiresAt: new Date(clock.now().getTime() + 1000).toISOString(),
    });
    clock.advance(1000);
    const before = await eventCount();
    try {
      for (const secret of [revoked.secret, expired.secret]) {
        const robot = bearer(secret);
        for (const r of await staffRoutes()) {
          const res = await robot.request(r.method, r.path, optionsOf(r.method));
          expect(res.status, `${r.method} ${r.path}`).toBe(401);
          expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
          expect(((await res.json()) as { error: string }).error).toBe('auth__invalid_token');
        }
      }
    } finally {
      clock.advance(-1000);
    }
    expect(await eventCount()).toBe(before);
  });

  it('documents the bearer scheme on every staff route, and the token routes', async () => {
    const doc = (await (await suite.admin.get('/api/openapi.json')).json()) as Doc;
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [p, ops] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(ops))
        if (op.security !== undefined)
          expect(op.security, `${m} ${p}`).toEqual([{ session: [] }, { bearer: [] }]);
    expect(Object.keys(doc.paths['/api/admin/api-tokens']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/admin/api-tokens/{id}']!)).toEqual(['delete']);
  });
});

describe('tokens across processes and in the audit history', () => {
  it('a revocation in one process holds in another at once', async () => {
    const other = await startTestApp(suite.db, clock);
    try {
      const made = await createToken({ name: 'Two-process robot', roles: ['reports'] });
      const there = new BearerClient(other.baseUrl, made.secret);
      expect((await there.get('/api/admin/rooms')).status).toBe(200);
      expect((await suite.admin.request('DELETE', `/api/admin/api-tokens/${made.id}`)).status).toBe(
        204,
      );
      await expectInvalidToken(await there.get('/api/admin/rooms'));
    } finally {
      await other.close();
    }
  });

  it('names the token as the actor of what it changed', async () => {
    const made = await createToken({ name: 'Timetable robot', roles: ['admin'] });
    const robot = bearer(made.secret);
    const room = await robot.request('POST', '/api/admin/rooms', {
      json: {
        name: 'Audited room',
        description: 'Slots made by a machine',
        capacity: 4,
        openStartValue: 2,
        openStartType: 'DAY',
        openEndValue: 30,
        openEndType: 'WORKING_DAY',
      },
    });
    expect(room.status).toBe(201);
    const roomId = ((await room.json()) as { id: string }).id;
    const slot = await robot.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        startTime: '09:00',
        endTime: '10:00',
        startDate: '2026-12-01',
        repeatUntil: '2026-12-01',
        daysOfWeek: [],
        includeHolidays: true,
        capacity: 4,
      },
    });
    expect(slot.status).toBeLessThan(300);
    const slots = (await (
      await robot.get(
        `/api/admin/rooms/${roomId}/timeslots?fromDate=2026-12-01&untilDate=2026-12-01`,
      )
    ).json()) as { content: { id: string }[] };
    const slotId = slots.content[0]!.id;
    const history = (await (
      await robot.get(`/api/admin/rooms/${roomId}/timeslots/${slotId}/history`)
    ).json()) as { what: string; actor: Record<string, string> }[];
    expect(history.map((h) => h.what)).toContain('slot-created');
    for (const h of history)
      expect(h.actor).toEqual({ kind: 'api-token', tokenId: made.id, name: 'Timetable robot' });
  });
});
