import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ensureDatabase,
  makeClusterDir,
  startEmbeddedPostgres,
  type EmbeddedCluster,
} from '@rr/platform';
import { readModelProjections, rebuildProjection } from '@rr/projections';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { Client } from '../support/app.ts';
import { freePort } from '../support/ports.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { budget } from '../support/time-budget.ts';
import { sleep, waitFor } from '../support/wait-for.ts';

const procs: ServiceProcess[] = [];
const dbs: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill('SIGKILL')));
  for (const db of dbs) await db.drop();
});

const env = (url: string) => ({
  DATABASE_URL: url,
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'reliability-password',
  RATE_LIMIT_CARTS: '100000',
  RATE_LIMIT_OWNER_LOOKUPS: '100000',
  SEED_DEMO_DATA: 'false',
});
const inDays = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);

/** Creates a room with one slot through the writer; reads through the reader (a query-service). */
async function roomWithSlot(
  c: Client,
  capacity: number,
  reader: Client = c,
): Promise<{ roomId: string; slotId: string }> {
  const r = await c.request('POST', '/api/admin/rooms', {
    json: {
      name: 'Reliability room',
      description: 'Faults',
      capacity,
      openStartValue: 2,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'DAY',
    },
  });
  expect(r.status).toBe(201);
  const roomId = ((await r.json()) as { id: string }).id;
  const date = inDays(3);
  await c.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
    json: {
      startTime: '09:00',
      endTime: '10:00',
      startDate: date,
      repeatUntil: date,
      daysOfWeek: [],
      includeHolidays: true,
      capacity,
    },
  });
  reader.lastPosition = c.lastPosition;
  // Read-your-writes waits a while for the projector; on a loaded machine it may answer stale.
  for (let attempt = 0; ; attempt++) {
    const list = (await (await reader.get(`/api/admin/rooms/${roomId}/timeslots`)).json()) as {
      content: { id: string }[];
    };
    if (list.content[0]) return { roomId, slotId: list.content[0].id };
    if (attempt >= 50) throw new Error('the new time slot never showed in the read model');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function snapshot(db: TestDatabase): Promise<string> {
  const out: string[] = [];
  for (const p of readModelProjections) {
    for (const table of p.tables)
      out.push(JSON.stringify((await db.pool.query(`SELECT * FROM ${table} ORDER BY 1`)).rows));
  }
  return out.join('\n');
}

describe('reliability of the real processes', () => {
  it('kill -9 of the projector while bookings run: after restart nothing is lost and read models equal a rebuild', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const command = await spawnService('command', env(db.url));
    const query = await spawnService('query', env(db.url));
    let projector = await spawnService('projector', { ...env(db.url), PROJECTION_BATCH_SIZE: '5' });
    procs.push(command, query, projector);
    const admin = new Client(command.url);
    await admin.login('admin', 'reliability-password');
    const adminReader = new Client(query.url).shareSession(admin);
    const { slotId } = await roomWithSlot(admin, 200, adminReader);
    const bookings: Promise<number>[] = [];
    for (let i = 0; i < 60; i++) {
      bookings.push(
        (async () => {
          const v = new Client(command.url);
          const cart = await v.request('POST', '/api/transactions', {
            json: { timeSlotId: slotId },
          });
          if (cart.status !== 201) return cart.status;
          const { transactionId } = (await cart.json()) as { transactionId: string };
          const b = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
            json: {
              salutation: 'NONE',
              firstName: 'Kill',
              lastName: `Nine${i}`,
              email: `k${i}@example.at`,
              phone: '+431',
              accessibility: false,
              language: 'de',
            },
          });
          return b.status;
        })(),
      );
      if (i === 20) await projector.kill('SIGKILL');
    }
    const statuses = await Promise.all(bookings);
    expect(statuses.every((s) => s === 200)).toBe(true);
    projector = await spawnService('projector', env(db.url));
    procs.push(projector);
    // Wait until every read model has reached the head of the log.
    const reader = new Client(query.url);
    for (let i = 0; i < 200; i++) {
      const ready = (await (await reader.get('/api/readyz')).json()) as {
        projections: { lag: number }[];
      };
      if (
        ready.projections.length === readModelProjections.length &&
        ready.projections.every((p) => p.lag === 0)
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const booked = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM rm_tickets WHERE status = 'BOOKED'`,
    );
    expect(Number(booked.rows[0]!.n)).toBe(60);
    await projector.kill('SIGTERM');
    const live = await snapshot(db);
    for (const p of readModelProjections) await rebuildProjection(db.pool, db.store, p);
    expect(await snapshot(db)).toBe(live);
  });

  it('no hold outlives its expiry across a kill -9 of the command-service', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    // Holds of 3 seconds; the expiry job runs in the projector process.
    const short = { ...env(db.url), CART_HOLD_MINUTES: '0.05', EXPIRY_JOB_INTERVAL_MS: '200' };
    let command = await spawnService('command', short);
    const query = await spawnService('query', short);
    const projector = await spawnService('projector', short);
    procs.push(command, query, projector);
    const admin = new Client(command.url);
    await admin.login('admin', 'reliability-password');
    const { slotId } = await roomWithSlot(admin, 1, new Client(query.url).shareSession(admin));
    const first = await new Client(command.url).request('POST', '/api/transactions', {
      json: { timeSlotId: slotId },
    });
    expect(first.status).toBe(201);
    const { transactionId } = (await first.json()) as { transactionId: string };
    expect(
      (
        await new Client(command.url).request('POST', '/api/transactions', {
          json: { timeSlotId: slotId },
        })
      ).status,
    ).toBe(409);
    await command.kill('SIGKILL');
    command = await spawnService('command', short);
    procs.push(command);
    await new Promise((r) => setTimeout(r, 4000));
    // The seat is free again, and the job has written the expiry into the history.
    expect(
      (
        await new Client(command.url).request('POST', '/api/transactions', {
          json: { timeSlotId: slotId },
        })
      ).status,
    ).toBe(201);
    const history = await db.pool.query<{ event_type: string }>(
      `SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version`,
      [`transaction-${transactionId}`],
    );
    expect(history.rows.map((e) => e.event_type)).toEqual([
      'TransactionStarted',
      'TicketAddedToTransaction',
      'TransactionExpired',
    ]);
  });

  it('the jobs go on in the second projector when the first is killed: a cart still expires, its seat is offered to the waitlist and the mails go out, each once', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const sink = new SmtpSink(await freePort());
    await sink.start();
    try {
      // Every projector runs the jobs; the read models and outboxes run in the one holding their
      // locks. Holds of 6 seconds, and mails sent within a fifth of a second.
      const jobs = {
        ...env(db.url),
        CART_HOLD_MINUTES: '0.1',
        EXPIRY_JOB_INTERVAL_MS: '200',
        SMTP_URL: sink.url,
        MAIL_INTERVAL_MS: '200',
      };
      const command = await spawnService('command', jobs);
      const query = await spawnService('query', jobs);
      const first = await spawnService('projector', jobs);
      procs.push(command, query, first);
      // The second starts once the first holds the locks, so it is the one standing by.
      await sleep(1500);
      const second = await spawnService('projector', jobs);
      procs.push(second);
      const admin = new Client(command.url);
      await admin.login('admin', 'reliability-password');
      const { roomId, slotId } = await roomWithSlot(
        admin,
        2,
        new Client(query.url).shareSession(admin),
      );
      const waitlist = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
        json: { waitlistOfferMinutes: 30 },
      });
      expect(waitlist.status).toBe(200);
      await first.kill('SIGKILL');

      const held = await new Client(command.url).request('POST', '/api/transactions', {
        json: { timeSlotId: slotId },
      });
      expect(held.status).toBe(201);
      const expiring = ((await held.json()) as { transactionId: string }).transactionId;
      const visitor = new Client(command.url);
      const cart = await visitor.request('POST', '/api/transactions', {
        json: { timeSlotId: slotId },
      });
      const { transactionId } = (await cart.json()) as { transactionId: string };
      const email = 'nach.dem.ausfall@example.at';
      const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
        json: {
          salutation: 'NONE',
          firstName: 'Nach',
          lastName: 'Ausfall',
          email,
          phone: '+431',
          accessibility: false,
          language: 'de',
        },
      });
      expect(booked.status, await booked.clone().text()).toBe(200);
      // The slot is full: a reader joins its waitlist, and is offered the seat the cart frees.
      const waiting = 'warte.auf.platz@example.at';
      const joined = await new Client(command.url).request(
        'POST',
        `/api/timeslots/${slotId}/waitlist`,
        {
          json: {
            salutation: 'MS',
            firstName: 'Wanda',
            lastName: 'Warte',
            phone: '+43 1 234',
            accessibility: false,
            email: waiting,
            language: 'de',
          },
        },
      );
      expect(joined.status, await joined.clone().text()).toBe(201);

      const historyOf = async (id: string) =>
        (
          await db.pool.query<{ event_type: string }>(
            'SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version',
            [`transaction-${id}`],
          )
        ).rows.map((e) => e.event_type);
      const mailsTo = (address: string) =>
        sink.messages.filter((m) => JSON.stringify(m.to ?? '').includes(address)).length;
      const offers = async () =>
        (
          await db.pool.query(
            `SELECT 1 FROM events WHERE stream_id = $1 AND event_type = 'SeatOffered'`,
            [`timeslot-${slotId}`],
          )
        ).rowCount;
      await waitFor(
        'the expiry of the cart left alone',
        async () => (await historyOf(expiring)).includes('TransactionExpired'),
        budget(30_000),
      );
      await waitFor('the confirmation mail', () => mailsTo(email) > 0, budget(30_000));
      await waitFor('the waitlist offer', async () => (await offers()) === 1, budget(30_000));
      // The offer's mail, and the joining mail before it.
      await waitFor('the offer mail', () => mailsTo(waiting) === 2, budget(30_000));
      // A while longer: none of them is done twice.
      await sleep(1500);
      expect(await historyOf(expiring)).toEqual([
        'TransactionStarted',
        'TicketAddedToTransaction',
        'TransactionExpired',
      ]);
      expect(mailsTo(email)).toBe(1);
      expect(await offers()).toBe(1);
      expect(mailsTo(waiting)).toBe(2);
      expect(
        (await db.pool.query(`SELECT 1 FROM mail_outbox WHERE status <> 'sent'`)).rowCount,
      ).toBe(0);
    } finally {
      await sink.stop();
    }
  });

  it('SIGTERM lets a request in flight finish, then the process exits cleanly', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const service = await spawnService('all', {
      ...env(db.url),
      READ_YOUR_WRITES_TIMEOUT_MS: '1500',
    });
    procs.push(service);
    // A read waiting for a position far ahead is in flight for 1.5 s.
    const pending = fetch(`${service.url}/api/rooms`, {
      headers: { 'X-Min-Position': '99999999_99999999' },
    });
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise<number | null>((r) => service.child.once('exit', (code) => r(code)));
    service.child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-read-stale')).toBe('true');
    expect(await exited).toBe(0);
  });

  it('PostgreSQL restarted under load: 503 problem+json during the outage, then the service recovers by itself', async () => {
    const dir = await makeClusterDir('rr-restart-pg-');
    const port = await freePort();
    let cluster: EmbeddedCluster = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'data'),
      port,
    });
    try {
      const url = await ensureDatabase(cluster.url, 'restart_test');
      const service = await spawnService('all', env(url));
      procs.push(service);
      const admin = new Client(service.url);
      await admin.login('admin', 'reliability-password');
      const { slotId } = await roomWithSlot(admin, 50);
      await cluster.stop();
      const during = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const started = Date.now();
          const res = await new Client(service.url).request('POST', '/api/transactions', {
            json: { timeSlotId: slotId },
          });
          return {
            status: res.status,
            type: res.headers.get('content-type'),
            ms: Date.now() - started,
          };
        }),
      );
      for (const r of during) {
        expect(r.status).toBe(503);
        expect(r.type).toMatch(/problem\+json/);
        expect(r.ms).toBeLessThan(10_000);
      }
      cluster = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port });
      let recovered = 0;
      for (let i = 0; i < 100 && recovered === 0; i++) {
        const res = await new Client(service.url).request('POST', '/api/transactions', {
          json: { timeSlotId: slotId },
        });
        if (res.status === 201) recovered = 1;
        else await new Promise((r) => setTimeout(r, 200));
      }
      expect(recovered).toBe(1);
      // Projections resume too: a new cart is readable at once.
      const v = new Client(service.url);
      const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
      const { transactionId } = (await cart.json()) as { transactionId: string };
      const read = await v.get(`/api/transactions/${transactionId}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('x-read-stale')).toBeNull();
      await service.kill('SIGTERM');
    } finally {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
