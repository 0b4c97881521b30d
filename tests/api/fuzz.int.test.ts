import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';

let db: TestDatabase;
let app: TestApp;
let admin: Client;
let routes: { method: string; path: string }[] = [];

const eventCount = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite();
  ({ db, app, admin } = suite);
  const doc = (await (await admin.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: path.replace(/^\/api/, '') })),
  );
});
afterAll(async () => {
  await suite.close();
});

/** Path parameter values a client might send: garbage, injections, encodings, huge ones. */
const pathValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '00000000-0000-4000-8000-000000000000',
    '..',
    '%00',
    "' OR 1=1 --",
    '<script>',
    'a'.repeat(5000),
    '-1',
    '9'.repeat(30),
  ),
  fc.uuid(),
);
const junk = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(
      'name',
      'description',
      'capacity',
      'email',
      'expiredAt',
      'date',
      'startTime',
      'endTime',
      'timeSlotId',
      'version',
      'firstName',
      'phone',
      'salutation',
      'daysOfWeek',
      'ids',
    ),
    fc.jsonValue(),
  ),
);

describe('property-based fuzzing of every endpoint', () => {
  it('never answers 5xx and always problem+json for errors; nothing is appended', async () => {
    expect(routes.length).toBeGreaterThan(40);
    const before = await eventCount();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        pathValue,
        junk,
        fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 }), { maxKeys: 4 }),
        async (route, value, body, query) => {
          const path = route.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(value));
          const qs = new URLSearchParams(query).toString();
          const url = `/api${path}${qs ? `?${qs}` : ''}`;
          const withBody = route.method === 'POST' || route.method === 'PUT';
          const res = await admin.request(route.method, url, withBody ? { json: body } : {});
          expect(res.status, `${route.method} ${url}`).toBeLessThan(500);
          if (res.status >= 400)
            expect(res.headers.get('content-type'), `${route.method} ${url}`).toMatch(
              /application\/problem\+json/,
            );
          await res.arrayBuffer();
        },
      ),
      { numRuns: 600, seed: 20261122 },
    );
    // Oversized payloads and malformed JSON.
    const big = JSON.stringify({ name: 'x'.repeat(300_000) });
    for (const route of routes.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      const path = `/api${route.path.replace(/\{(\w+)\}/g, '00000000-0000-4000-8000-000000000000')}`;
      const res = await fetch(app.baseUrl + path, {
        method: route.method,
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: big,
      });
      expect(res.status, `${route.method} ${path} oversized`).toBeLessThan(500);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const bad = await fetch(app.baseUrl + path, {
        method: route.method,
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: '{"a":',
      });
      expect(bad.status, `${route.method} ${path} malformed`).toBeLessThan(500);
    }
    expect(await eventCount()).toBe(before);
  }, 180_000);
});
