import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, erasePersonalData } from '@rr/command-service';
import { emailKey } from '@rr/domain';
import { createLogger, ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let db: TestDatabase;
let app: TestApp;
let admin: Client;
let logs = '';
const logSink = new Writable({
  write(chunk: Buffer, _enc, done) {
    logs += chunk.toString();
    done();
  },
});

const person = {
  salutation: 'MS',
  title: 'Mag.',
  firstName: 'Eleonore',
  lastName: 'Quirinstaller',
  organisation: 'Quirin Stiftung',
  email: 'eleonore.quirinstaller@example.at',
  phone: '+4366499887766',
  accessibility: false,
  language: 'de',
};
const traces = ['eleonore', 'quirinstaller', '66499887766', 'quirin stiftung'];

async function allReadModelText(): Promise<string> {
  const tables = await db.pool.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'rm\\_%'`,
  );
  let text = '';
  for (const { tablename } of tables.rows) {
    const r = await db.pool.query(`SELECT * FROM ${tablename}`);
    text += JSON.stringify(r.rows);
  }
  return text.toLowerCase();
}
const eventText = async () =>
  JSON.stringify((await db.pool.query('SELECT data, metadata FROM events')).rows).toLowerCase();

let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock, { logTo: logSink });
  ({ db, app, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('personal data erasure', () => {
  it('erases the day after the booked day, keeps the counts, and leaves no trace in events, read models or logs', async () => {
    const r = await admin.request('POST', '/api/admin/rooms', {
      json: {
        name: 'Erasure room',
        description: 'Privacy tests',
        capacity: 10,
        openStartValue: 2,
        openStartType: 'DAY',
        openEndValue: 30,
        openEndType: 'WORKING_DAY',
      },
    });
    const roomId = ((await r.json()) as { id: string }).id;
    for (const date of ['2026-12-01', '2026-12-02']) {
      await admin.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
        json: {
          startTime: '09:00',
          endTime: '10:00',
          startDate: date,
          repeatUntil: date,
          daysOfWeek: [],
          includeHolidays: true,
          capacity: 10,
        },
      });
    }
    const slots = (
      (await (await admin.get(`/api/admin/rooms/${roomId}/timeslots`)).json()) as {
        content: { id: string }[];
      }
    ).content;
    const v = new Client(app.baseUrl);
    const tx = (
      (await (
        await v.request('POST', '/api/transactions', { json: { timeSlotId: slots[0]!.id } })
      ).json()) as { transactionId: string }
    ).transactionId;
    await v.request('POST', `/api/transactions/${tx}/tickets`, {
      json: { timeSlotId: slots[1]!.id },
    });
    const booked = await v.request('PUT', `/api/transactions/${tx}/booking`, { json: person });
    expect(booked.status).toBe(200);
    const { ownerId } = (await booked.json()) as { ownerId: string };
    const before = (await (await v.get(`/api/owners/${ownerId}/tickets`)).json()) as {
      lastName: string | null;
    }[];
    expect(before[0]!.lastName).toBe('Quirinstaller');

    const deps = {
      store: db.store,
      pool: db.pool,
      clock,
      logger: createLogger('info', 'erasure', logSink),
      timeZone: 'Europe/Vienna',
      emailKey: (e: string) => emailKey('test-secret', e),
      limits: defaultLimits,
      verifyHuman: () => Promise.resolve(true),
    };
    // On the last booked day (2 Dec) the data is still needed.
    clock.set(new Date('2026-12-02T20:00:00Z'));
    expect(await erasePersonalData(deps)).toBe(0);
    // The day after, it goes.
    clock.set(new Date('2026-12-02T23:30:00Z')); // 00:30 on 3 Dec in Vienna
    expect(await erasePersonalData(deps)).toBe(1);
    expect(await erasePersonalData(deps)).toBe(0);
    clock.set(new Date('2026-11-23T09:00:00Z'));

    expect(
      (await db.pool.query('SELECT 1 FROM personal_data WHERE owner_id = $1', [ownerId])).rowCount,
    ).toBe(0);
    const erasedEvent = await db.pool.query<{ event_type: string }>(
      `SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`,
      [`transaction-${tx}`],
    );
    expect(erasedEvent.rows[0]!.event_type).toBe('PersonalDataErased');

    v.lastPosition = null;
    const after = (await (await v.get(`/api/owners/${ownerId}/tickets`)).json()) as {
      status: string;
      lastName: string | null;
      email: string | null;
    }[];
    expect(after.map((t) => t.status)).toEqual(['BOOKED', 'BOOKED']);
    expect(after.every((t) => t.lastName === null && t.email === null)).toBe(true);
    const counts = (
      (await (await admin.get(`/api/admin/rooms/${roomId}/timeslots`)).json()) as {
        content: { ticketCount: number }[];
      }
    ).content;
    expect(counts.map((c) => c.ticketCount)).toEqual([1, 1]);

    const everywhere = [await eventText(), await allReadModelText(), logs.toLowerCase()];
    for (const trace of traces) for (const text of everywhere) expect(text).not.toContain(trace);
    expect(logs.length).toBeGreaterThan(0);
  });
});
