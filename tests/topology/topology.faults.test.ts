import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { Client } from '../support/app.ts';
import { createSlot } from '../support/fixtures.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';

/**
 * The split deployment as plain processes on loopback: two command-services, two query-services,
 * two projectors (one active through the advisory lock, one standing by) and the gateway.
 */
let db: TestDatabase;
const procs: ServiceProcess[] = [];
let commandA: ServiceProcess;
let gateway: ServiceProcess;
let projectors: ServiceProcess[];
let admin: Client;
let roomId: string;

const common = (db: TestDatabase) => ({
  DATABASE_URL: db.url,
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'topology-admin-password',
  TRUST_PROXY: 'loopback',
  RATE_LIMIT_CARTS: '100000',
  RATE_LIMIT_OWNER_LOOKUPS: '100000',
  MAIL_INTERVAL_MS: '60000',
  DB_POOL_SIZE: '20',
});

/** A one-hour slot from `start` on a day. */
function slotOn(date: string, start: string, capacity: number): Promise<string> {
  const end = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`;
  return createSlot(admin, roomId, date, start, end, capacity);
}

async function book(
  timeSlotId: string,
  email: string,
): Promise<{ status: number; ownerId?: string; position?: string }> {
  const v = new Client(gateway.url);
  const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId } });
  if (cart.status !== 201) return { status: cart.status };
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'NONE',
      firstName: 'Topo',
      lastName: 'Logy',
      email,
      phone: '+431',
      accessibility: false,
      language: 'de',
    },
  });
  if (res.status !== 200) return { status: res.status };
  const body = (await res.json()) as { ownerId: string; position: string };
  return { status: 200, ownerId: body.ownerId, position: body.position };
}

const inDays = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  db = await createTestDatabase();
  const env = common(db);
  // The first command-service creates the first admin; then the rest start side by side.
  commandA = await spawnService('command', env);
  const started = await Promise.all([
    spawnService('command', env),
    spawnService('query', env),
    spawnService('query', env),
    spawnService('projector', env),
  ]);
  const [commandB, queryA, queryB, projector1] = started;
  // The second projector starts once the first holds the locks, so it is the one standing by.
  await new Promise((r) => setTimeout(r, 1500));
  const projector2 = await spawnService('projector', env);
  projectors = [projector1, projector2];
  gateway = await spawnService('gateway', {
    GATEWAY_COMMAND_URLS: `${commandA.url},${commandB.url}`,
    GATEWAY_QUERY_URLS: `${queryA.url},${queryB.url}`,
  });
  procs.push(commandA, ...started, projector2, gateway);
  admin = new Client(gateway.url);
  expect((await admin.login('admin', 'topology-admin-password')).status).toBe(200);
  const r = await admin.request('POST', '/api/admin/rooms', {
    json: {
      name: 'Topology room',
      description: 'Split deployment',
      capacity: 50,
      openStartValue: 2,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'DAY',
    },
  });
  roomId = ((await r.json()) as { id: string }).id;
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill('SIGKILL')));
  await db?.drop();
});

describe('the split deployment through the gateway', () => {
  it('a process whose port is taken exits at once and says why, instead of serving nowhere', async () => {
    const taken = Number(new URL(commandA.url).port);
    // spawnService finds the port answering (the command-service's), so it waits for the exit.
    const gatewayOnTaken = await spawnService(
      'gateway',
      { GATEWAY_COMMAND_URLS: commandA.url, GATEWAY_QUERY_URLS: commandA.url },
      { port: taken },
    );
    procs.push(gatewayOnTaken);
    const { child } = gatewayOnTaken;
    const code = child.exitCode ?? (await new Promise<number | null>((r) => child.once('exit', r)));
    expect(code).toBe(1);
    expect(gatewayOnTaken.output()).toMatch(/Start-up failed[\s\S]*EADDRINUSE/);
    // The process on that port still answers.
    expect((await fetch(`${commandA.url}/api/healthz`)).ok).toBe(true);
  });

  it('runs the visitor booking flow with read-your-writes across processes', async () => {
    const slot = await slotOn(inDays(3), '09:00', 10);
    const visitor = new Client(gateway.url);
    const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: slot } });
    expect(cart.status).toBe(201);
    const { transactionId } = (await cart.json()) as { transactionId: string };
    const summary = (await (await visitor.get(`/api/transactions/${transactionId}`)).json()) as {
      status: string;
      tickets: unknown[];
    };
    expect(summary).toMatchObject({ status: 'NEW' });
    expect(summary.tickets).toHaveLength(1);
    const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: {
        salutation: 'MS',
        firstName: 'Ada',
        lastName: 'Split',
        email: 'ada@example.at',
        phone: '+431',
        accessibility: false,
        language: 'de',
      },
    });
    expect(booked.status).toBe(200);
    const { ownerId } = (await booked.json()) as { ownerId: string };
    const tickets = (await (await visitor.get(`/api/owners/${ownerId}/tickets`)).json()) as {
      status: string;
    }[];
    expect(tickets.map((t) => t.status)).toEqual(['BOOKED']);
    // The SPA is served by the gateway too.
    expect((await fetch(`${gateway.url}/`)).status).toBeLessThan(600);
  });

  it('200 concurrent adds across both command instances: exactly capacity holds, no 5xx', async () => {
    const slot = await slotOn(inDays(4), '10:00', 20);
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        new Client(gateway.url).request('POST', '/api/transactions', {
          json: { timeSlotId: slot },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    await Promise.all(results.map((r) => r.arrayBuffer()));
  });

  it('the standby projector takes over when the active one is killed', async () => {
    await projectors[0]!.kill('SIGKILL');
    const slot = await slotOn(inDays(5), '11:00', 5);
    const v = new Client(gateway.url);
    const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slot } });
    expect(cart.status).toBe(201);
    const { transactionId } = (await cart.json()) as { transactionId: string };
    const read = await v.get(`/api/transactions/${transactionId}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-read-stale')).toBeNull();
  });

  it('a command-service killed during bookings loses no acknowledged booking', async () => {
    const slots = await Promise.all(
      [inDays(6), inDays(7)].map((d, i) => slotOn(d, `1${i + 2}:00`, 50)),
    );
    const attempts = Array.from({ length: 40 }, (_, i) =>
      book(slots[i % 2]!, `kill${i}@example.at`),
    );
    setTimeout(() => void commandA.kill('SIGKILL'), 300);
    const results = await Promise.all(attempts);
    const acknowledged = results.filter((r) => r.status === 200);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status >= 500 && r.status !== 502 && r.status !== 503)).toEqual(
      [],
    );
    // Read after the last acknowledged write (read-your-writes), through the surviving processes.
    const latest = acknowledged
      .map((r) => r.position!)
      .sort((a, b) => {
        const [atx, agp] = a.split('_').map(BigInt) as [bigint, bigint];
        const [btx, bgp] = b.split('_').map(BigInt) as [bigint, bigint];
        return atx !== btx ? (atx < btx ? -1 : 1) : agp < bgp ? -1 : agp > bgp ? 1 : 0;
      })
      .at(-1)!;
    const reader = new Client(gateway.url);
    reader.lastPosition = latest;
    for (const r of acknowledged) {
      const res = await reader.get(`/api/owners/${r.ownerId}/tickets`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }[]).map((t) => t.status)).toEqual(['BOOKED']);
    }
    // With one command instance gone, the gateway keeps serving writes through the other.
    expect((await book(slots[0]!, 'after@example.at')).status).toBe(200);
  });
});
