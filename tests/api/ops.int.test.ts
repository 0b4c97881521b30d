import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { Client, startTestApp, type TestApp } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

let db: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, undefined, {
    env: { RATE_LIMIT_CARTS: '2', RATE_LIMIT_OWNER_LOOKUPS: '4' },
  });
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

async function expectLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  expect(((await res.json()) as { error: string }).error).toBe('http__too_many_requests');
}

// Sign-in: tests/api/sign-in-limit.int.test.ts.
describe('rate limits', () => {
  it('limits new carts and owner-id lookups per client', async () => {
    const c = new Client(app.baseUrl);
    const body = { json: { timeSlotId: '00000000-0000-4000-8000-000000000000' } };
    for (let i = 0; i < 2; i++)
      expect((await c.request('POST', '/api/transactions', body)).status).toBe(404);
    await expectLimited(await c.request('POST', '/api/transactions', body));
    // Waitlist joins and offers taken count with the carts (each may start a hold or a mail).
    const slot = '/api/timeslots/00000000-0000-4000-8000-000000000000/waitlist';
    await expectLimited(
      await c.request('POST', slot, { json: { email: 'a@example.at', language: 'de' } }),
    );
    await expectLimited(await c.request('POST', `${slot}/offers/${'a'.repeat(32)}`));
    // A walk-in at a seat books at once: it counts with the carts too.
    const seat =
      '/api/rooms/00000000-0000-4000-8000-000000000000/seats/00000000-0000-4000-8000-000000000001';
    await expectLimited(await c.request('POST', `${seat}/walk-in`, body));
    for (let i = 0; i < 3; i++)
      expect((await c.get(`/api/owners/${'f'.repeat(32)}/tickets`)).status).toBe(404);
    // A booking number and address tried at a seat count with the owner-id lookups.
    const proof = { json: { bookingNumber: 'R-AAAAAA', email: 'a@example.at' } };
    expect((await c.request('POST', `${seat}/check-in`, proof)).status).toBe(404);
    await expectLimited(await c.request('POST', `${seat}/check-in/undo`, proof));
    await expectLimited(await c.get(`/api/owners/${'e'.repeat(32)}/tickets`));
  });
});

describe('health, readiness and metrics', () => {
  it('answers liveness, readiness with projection lag, and Prometheus metrics', async () => {
    const c = new Client(app.baseUrl);
    const { version } = JSON.parse(
      await readFile(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
    ) as { version: string };
    const health = (await (await c.get('/api/healthz')).json()) as Record<string, string>;
    expect(health).toEqual({ status: 'ok', version, commit: expect.any(String) as string });
    expect(health.commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
    // Ready once every projection has written its checkpoint and caught up with the log: at
    // once on an idle machine, a moment later when the runner starts slowly.
    let ready = await c.get('/api/readyz');
    await waitFor(
      'readiness',
      async () => (ready = await c.get('/api/readyz')).status === 200,
      budget(10_000),
    );
    const body = (await ready.json()) as {
      status: string;
      projections: { name: string; lag: number }[];
    };
    expect(body.status).toBe('ready');
    expect(body.projections.map((p) => p.name).sort()).toEqual([
      'blacklist',
      'holidays',
      'insight-lead',
      'insight-seats',
      'insights',
      'rooms',
      'tickets',
      'timeslots',
      'waitlist',
    ]);
    const metrics = await (await c.get('/api/metrics')).text();
    for (const name of [
      'rr_http_request_duration_seconds_bucket',
      'rr_commands_total',
      'rr_projection_lag_events',
      'rr_mail_outbox_backlog',
    ]) {
      expect(metrics).toContain(name);
    }
    expect(metrics).toMatch(/rr_commands_total\{outcome="refused"\} \d+/);
    expect(metrics).toContain(`rr_build_info{version="${version}",commit="${health.commit}"} 1`);
  });

  it('sends security headers: a strict CSP without inline scripts, no sniffing, no framing by others', async () => {
    const res = await new Client(app.baseUrl).get('/api/healthz');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("'unsafe-inline' 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('admits a configured human-check origin to scripts and frames, and nothing else', async () => {
    const other = await startTestApp(db, undefined, {
      env: { CSP_EXTRA_ORIGINS: 'https://www.google.com/recaptcha/api.js' },
    });
    try {
      const csp =
        (await new Client(other.baseUrl).get('/api/healthz')).headers.get(
          'content-security-policy',
        ) ?? '';
      expect(csp).toMatch(/script-src 'self' https:\/\/www\.google\.com(;|$)/);
      expect(csp).toMatch(/frame-src 'self' https:\/\/www\.google\.com(;|$)/);
    } finally {
      await other.close();
    }
  });
});
