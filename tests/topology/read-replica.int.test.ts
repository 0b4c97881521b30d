import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { budget } from '../support/time-budget.ts';

/**
 * READ_DATABASE_URL without a cluster: the query process's "replica" is the same database through
 * connections that refuse every write (`default_transaction_read_only`, PostgreSQL's 25006 as on a
 * hot standby), listed after a replica that does not answer. Everything a query process does must
 * work: visitor reads with read-your-writes, staff reads (their session is read and touched on the
 * primary), readiness. The failover on a real replica: `npm run test:ha`.
 */
let db: TestDatabase;
const procs: ServiceProcess[] = [];
let command: ServiceProcess;
let query: ServiceProcess;
let admin: Client;
let roomId: string;

const inDays = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  db = await createTestDatabase();
  const env = {
    DATABASE_URL: db.url,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'replica-admin-password',
    SEED_DEMO_DATA: 'false',
    RATE_LIMIT_CARTS: '100000',
    RATE_LIMIT_OWNER_LOOKUPS: '100000',
    MAIL_INTERVAL_MS: '60000',
    // How long a read waits for the projector to reach the visitor's write: the product's 3 s,
    // stretched like every wait on a slow machine, so the verdict is the gate's, not the speed's.
    READ_YOUR_WRITES_TIMEOUT_MS: String(Math.min(30_000, budget(3000))),
  };
  const readOnly = new URL(db.url);
  readOnly.searchParams.set('application_name', 'rr-read-only');
  readOnly.searchParams.set('options', '-c default_transaction_read_only=on');
  const gone = new URL(db.url);
  gone.port = String(await freePort());
  command = await spawnService('command', env);
  procs.push(command);
  const started = await Promise.all([
    spawnService('query', {
      ...env,
      READ_DATABASE_URL: `${gone.toString()},${readOnly.toString()}`,
    }),
    spawnService('projector', env),
  ]);
  procs.push(...started);
  query = started[0];
  admin = new Client(command.url);
  expect((await admin.login('admin', 'replica-admin-password')).status).toBe(200);
  const r = await admin.request('POST', '/api/admin/rooms', {
    json: {
      name: 'Replica room',
      description: 'Reads on a replica',
      capacity: 20,
      openStartValue: 2,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'DAY',
    },
  });
  expect(r.status).toBe(201);
  roomId = ((await r.json()) as { id: string }).id;
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill('SIGKILL')));
  await db?.drop();
});

describe('reads on a read-only replica (READ_DATABASE_URL)', () => {
  it('serves visitors with read-your-writes and staff with their sessions, writing nothing there', async () => {
    // Staff: the session is signed in on the command process and read on the query process.
    const staff = new Client(query.url).shareSession(admin);
    const date = inDays(3);
    const created = await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      json: {
        startTime: '09:00',
        endTime: '10:00',
        startDate: date,
        repeatUntil: date,
        daysOfWeek: [],
        includeHolidays: true,
        capacity: 5,
      },
    });
    expect(created.status).toBe(201);
    staff.lastPosition = admin.lastPosition;
    const slots = await staff.get(`/api/admin/rooms/${roomId}/timeslots`);
    expect(slots.status).toBe(200);
    expect(slots.headers.get('x-read-stale')).toBeNull();
    const slot = ((await slots.json()) as { content: { id: string }[] }).content[0]!.id;
    const visitor = new Client(command.url);
    const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: slot } });
    expect(cart.status).toBe(201);
    const { transactionId } = (await cart.json()) as { transactionId: string };
    const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: {
        salutation: 'MS',
        firstName: 'Rea',
        lastName: 'Plica',
        email: 'rea@example.at',
        phone: '+431',
        accessibility: false,
        language: 'de',
      },
    });
    expect(booked.status).toBe(200);
    const { ownerId } = (await booked.json()) as { ownerId: string };
    const reader = new Client(query.url);
    reader.lastPosition = visitor.lastPosition;
    const tickets = await reader.get(`/api/owners/${ownerId}/tickets`);
    expect(tickets.status).toBe(200);
    expect(tickets.headers.get('x-read-stale')).toBeNull();
    expect(((await tickets.json()) as { status: string }[]).map((t) => t.status)).toEqual([
      'BOOKED',
    ]);

    staff.lastPosition = visitor.lastPosition;
    for (const path of ['/api/admin/rooms', `/api/admin/rooms/${roomId}`, '/api/readyz']) {
      const res = await staff.get(path);
      expect(res.status, path).toBe(200);
    }
    // The reads went to the read-only connections, and none of them failed.
    const sessions = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'rr-read-only'`,
    );
    expect(Number(sessions.rows[0]!.n)).toBeGreaterThan(0);
    expect(query.output()).not.toMatch(
      /read-only transaction|unhandled error|database unavailable/,
    );
    // The replica that never answered was left out from the start.
    expect(query.output()).toMatch(/replica not available/);
  });
});
