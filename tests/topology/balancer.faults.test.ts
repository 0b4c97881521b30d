import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { Client } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import {
  BALANCER_CONFIG,
  commandsOf,
  readsOf,
  startBalancer,
  startSplitDeployment,
  type Balancer,
  type BalancerLimits,
  type SplitDeployment,
} from '../support/balancer.ts';
import { openEventStream, type EventStream } from '../support/event-stream.ts';
import { budget } from '../support/time-budget.ts';
import { problems } from '@rr/platform';
import { waitFor } from '../support/wait-for.ts';

/**
 * The split deployment behind HAProxy (deploy/balancer/haproxy.cfg as checked in): routing of
 * writes, reads and the SPA's files; a full queue answered 503 at once; a killed query process
 * taken out by the health check.
 */
let db: TestDatabase;
let split: SplitDeployment;
let balancer: Balancer;
let spaDir: string;
let env: Record<string, string>;
const extra: ServiceProcess[] = [];
const SPA_MARK = '<!-- the SPA of the balancer test -->';
/** Far beyond the log: a read waiting for it holds its connection until the gate's timeout. */
const FUTURE_POSITION = '99999999999_0';
/** How long such a read holds its connection (the most the configuration allows). */
const HOLD_MS = 30_000;

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** HAProxy in front of the test's split deployment, with these limits. */
const balancerInFront = (limits?: BalancerLimits) =>
  startBalancer(
    [split.commands[0].url, split.commands[1].url],
    [split.queries[0].url, split.queries[1].url],
    split.gateway.url,
    limits,
  );

/** One request per process at a time and one waiting, each at most `queueTimeout`. */
const onePlaceEach = (queueTimeout: string): BalancerLimits => ({
  commandMaxconn: 1,
  queryMaxconn: 1,
  maxQueue: 1,
  queueTimeout,
});

beforeAll(async () => {
  db = await createTestDatabase();
  spaDir = await mkdtemp(path.join(os.tmpdir(), 'rr-balancer-spa-'));
  await writeFile(path.join(spaDir, 'index.html'), `<!doctype html>${SPA_MARK}`);
  env = {
    DATABASE_URL: db.url,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'balancer-admin-password',
    RATE_LIMIT_CARTS: '100000',
    RATE_LIMIT_OWNER_LOOKUPS: '100000',
    MAIL_INTERVAL_MS: '60000',
    READ_YOUR_WRITES_TIMEOUT_MS: String(HOLD_MS),
  };
  split = await startSplitDeployment(env, { FRONTEND_DIST: spaDir });
  balancer = await balancerInFront();
});

afterAll(async () => {
  await balancer?.stop();
  await Promise.all([...(split?.processes ?? []), ...extra].map((p) => p.kill('SIGKILL')));
  await db?.drop();
  if (spaDir) await rm(spaDir, { recursive: true, force: true });
});

describe('the split deployment behind HAProxy', () => {
  it('routes writes to the command processes, reads to the query processes, the SPA to the gateway', async () => {
    const commandsBefore = await Promise.all(split.commands.map(commandsOf));
    const queryCommandsBefore = await Promise.all(split.queries.map(commandsOf));
    const readsBefore = await Promise.all(split.queries.map(readsOf));
    const admin = new Client(balancer.url);
    expect((await admin.login('admin', 'balancer-admin-password')).status).toBe(200);
    const roomId = await createRoom(admin, 'Balanced room', OPEN_FROM_TODAY);
    const slot = await createSlot(admin, roomId, day(3), '09:00', '10:00', 5);
    const booking = await bookAsNewVisitor(balancer.url, [slot]);
    const tickets = (await (
      await booking.client.get(`/api/owners/${booking.ownerId}/tickets`)
    ).json()) as { status: string }[];
    expect(tickets.map((t) => t.status)).toEqual(['BOOKED']);

    // Sign-in, the room, the slot, the cart and the booking ran on the command processes.
    const commandsAfter = await Promise.all(split.commands.map(commandsOf));
    expect(commandsAfter[0]! + commandsAfter[1]!).toBeGreaterThanOrEqual(
      commandsBefore[0]! + commandsBefore[1]! + 5,
    );
    // Both took some: HAProxy spreads the writes.
    expect(commandsAfter.every((n, i) => n > commandsBefore[i]!)).toBe(true);
    // None on the query processes; the reads there.
    expect(await Promise.all(split.queries.map(commandsOf))).toEqual(queryCommandsBefore);
    const readsAfter = await Promise.all(split.queries.map(readsOf));
    expect(readsAfter[0]! + readsAfter[1]!).toBeGreaterThan(readsBefore[0]! + readsBefore[1]!);

    const spa = await fetch(`${balancer.url}/`);
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain(SPA_MARK);
  });

  it('answers a request beyond the servers and the queue 503 with Retry-After and problem+json, never run', async () => {
    // One request per query process at a time and one waiting: two reads held open fill them.
    const small = await balancerInFront(onePlaceEach(`${budget(3000)}ms`));
    const held = new AbortController();
    try {
      const read = (headers: Record<string, string> = {}) =>
        fetch(`${small.url}/api/rooms`, { headers, signal: held.signal });
      const slow = [1, 2].map(() => read({ 'X-Min-Position': FUTURE_POSITION }).catch(() => null));
      const busy = async (server: string) => (await small.stat('query', server)).scur === '1';
      await waitFor(
        'both query processes busy',
        async () => (await busy('query1')) && (await busy('query2')),
        budget(20_000),
      );
      // The third read waits in the queue.
      let queuedAnswered = false;
      const queued = read().finally(() => (queuedAnswered = true));
      await waitFor(
        'a read in the queue',
        async () => (await small.stat('query', 'BACKEND')).qcur === '1',
        budget(20_000),
      );
      // The fourth finds the queue full: answered at once.
      const shed = await read();
      expect(shed.status).toBe(503);
      // At once: the read queued before it is still waiting.
      expect(queuedAnswered).toBe(false);
      expect(shed.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(shed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await shed.json()).toMatchObject({ status: 503, error: 'service__overloaded' });
      // The queued one waited its time in the queue, and no longer.
      const late = await queued;
      expect(late.status).toBe(503);
      expect(late.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(late.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await late.json()).toMatchObject({ status: 503, error: 'service__overloaded' });
      // A write through the command backend is not held up by the reads.
      const cart = await fetch(`${small.url}/api/transactions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ timeSlotId: '00000000-0000-4000-8000-000000000000' }),
        signal: held.signal,
      });
      expect(cart.status).toBeLessThan(500);
      held.abort();
      await Promise.all(slow);
    } finally {
      held.abort();
      await small.stop();
    }
  });

  it("passes live availability streams on without taking the query processes' places", async () => {
    // One request per query process at a time and one waiting: without a backend of their own,
    // two streams would fill the places and a third stream or a read would wait or be shed.
    const small = await balancerInFront(onePlaceEach(`${budget(3000)}ms`));
    const streams: EventStream[] = [];
    try {
      const admin = new Client(small.url);
      expect((await admin.login('admin', 'balancer-admin-password')).status).toBe(200);
      const roomId = await createRoom(admin, 'Watched room', OPEN_FROM_TODAY);
      const date = day(3);
      const slot = await createSlot(admin, roomId, date, '11:00', '12:00', 5);
      const url = `${small.url}/api/rooms/${roomId}/availability/stream?month=${date.slice(0, 7)}`;
      for (let i = 0; i < 4; i++) streams.push(await openEventStream(url));
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      await Promise.all(streams.map((s) => s.next((e) => e.event === 'ready', budget(10_000))));
      // The query processes' places are free: a read is answered, neither queued nor shed.
      expect((await small.stat('query', 'BACKEND')).scur).toBe('0');
      expect((await fetch(`${small.url}/api/rooms`)).status).toBe(200);
      // A booking through the balancer reaches every stream.
      await bookAsNewVisitor(small.url, [slot]);
      await Promise.all(
        streams.map((s) =>
          s.next(
            (e) =>
              e.event === 'availability' &&
              (e.data as { slots: { id: string; seatsFree: number }[] }).slots.some(
                (x) => x.id === slot && x.seatsFree === 4,
              ),
            budget(15_000),
          ),
        ),
      );
    } finally {
      for (const s of streams) s.close();
      await small.stop();
    }
  });

  it("answers HAProxy's own 503s with the product's problems", async () => {
    const dir = path.dirname(BALANCER_CONFIG);
    const overloaded = `${JSON.stringify(problems.overloaded().toJSON())}\n`;
    expect(await readFile(path.join(dir, 'overloaded.json'), 'utf8')).toBe(overloaded);
    expect(await readFile(path.join(dir, 'unavailable.json'), 'utf8')).toBe(
      `${JSON.stringify(problems.unavailable().toJSON())}\n`,
    );
    // The error file is a whole answer; its length must be the body's.
    const [head, body] = (await readFile(path.join(dir, 'overloaded.http'), 'utf8')).split(
      '\r\n\r\n',
    );
    expect(body).toBe(overloaded);
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(overloaded)}`);
    expect(head).toContain('Content-Type: application/problem+json');
    expect(head).toMatch(/^Retry-After: \d+\r?$/m);
  });

  it('serves a visitor in the middle of a booking before a new arrival, and does not shed it for a full queue', async () => {
    const admin = new Client(balancer.url);
    expect((await admin.login('admin', 'balancer-admin-password')).status).toBe(200);
    await createRoom(admin, 'Room before the queue');
    const [tx, gp] = admin.lastPosition!.split('_').map(BigInt);
    // Reached by the next write: a read waiting for it holds its place until then.
    const next = `${tx! + 1n}_${gp! + 1n}`;
    const small = await balancerInFront(onePlaceEach(`${budget(20_000)}ms`));
    const done = new AbortController();
    try {
      const read = (headers: Record<string, string> = {}) =>
        fetch(`${small.url}/api/rooms`, { headers, signal: done.signal });
      // One place held until the next write, the other long after.
      const untilNext = read({ 'X-Min-Position': next });
      await waitFor(
        'a query process busy',
        async () => (await small.stat('query', 'BACKEND')).scur === '1',
        budget(20_000),
      );
      const long = read({ 'X-Min-Position': FUTURE_POSITION }).catch(() => null);
      const busy = async (server: string) => (await small.stat('query', server)).scur === '1';
      await waitFor(
        'both query processes busy',
        async () => (await busy('query1')) && (await busy('query2')),
        budget(20_000),
      );
      const order: string[] = [];
      const arrival = read().then((r) => (order.push('arrival'), r));
      await waitFor(
        'the arrival in the queue',
        async () => (await small.stat('query', 'BACKEND')).qcur === '1',
        budget(20_000),
      );
      // The queue is full, yet a read after the visitor's own write waits in it, ahead.
      const inJourney = read({ 'X-Min-Position': '1_1' }).then(
        (r) => (order.push('in journey'), r),
      );
      await waitFor(
        'both in the queue',
        async () => (await small.stat('query', 'BACKEND')).qcur === '2',
        budget(20_000),
      );
      await createRoom(admin, 'Room that frees a place');
      expect((await untilNext).status).toBe(200);
      expect((await inJourney).status).toBe(200);
      expect((await arrival).status).toBe(200);
      expect(order).toEqual(['in journey', 'arrival']);
      done.abort();
      await long;
    } finally {
      done.abort();
      await small.stop();
    }
  });

  it('takes a killed query process out by its health check; reads keep working on the other', async () => {
    const [gone, kept] = split.queries;
    const port = Number(new URL(gone.url).port);
    await gone.kill('SIGKILL');
    await waitFor(
      'query1 marked down',
      async () => (await balancer.stat('query', 'query1')).status?.startsWith('DOWN') === true,
      budget(30_000),
    );
    const keptBefore = await readsOf(kept);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${balancer.url}/api/rooms?limit=999&offset=0&sort=order:ASC`).then((r) => r.status),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
    expect((await readsOf(kept)) - keptBefore).toBeGreaterThanOrEqual(20);

    // Started again on its port, it is taken back in.
    extra.push(await spawnService('query', { ...env, TRUST_PROXY: 'loopback' }, { port }));
    await waitFor(
      'query1 back up',
      async () => (await balancer.stat('query', 'query1')).status === 'UP',
      budget(30_000),
    );
  });
});
