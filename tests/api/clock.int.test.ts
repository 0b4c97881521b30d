import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import type { MailSender } from '@rr/projections';
import { erasePersonalData, expireDueTransactions } from '@rr/command-service';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { freePort } from '../support/ports.ts';
import { createRoom, createSlot, testMailSender } from '../support/fixtures.ts';

/**
 * Time has one source: every rule compares times of the injected clock (or compares inside the
 * database alone). Here the clock is a day away from the database's own time, in both directions;
 * a rule that mixed them (a column defaulting to now() compared with the clock) would break:
 * a due mail would never be sent, a hold would never be released, data never erased.
 */
const DAY = 86_400_000;
const ZONE = 'Europe/Vienna';

async function databaseNow(): Promise<Date> {
  const c = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await c.connect();
  try {
    return (await c.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
  } finally {
    await c.end();
  }
}

const owner = {
  salutation: 'MS',
  firstName: 'Clara',
  lastName: 'Uhr',
  email: 'clara.uhr@example.at',
  phone: '+43111222',
  accessibility: false,
  language: 'de',
};

describe.each([
  ['a day ahead of', 1],
  ['a day behind', -1],
])('with the clock %s the database', (_label, direction) => {
  let clock: ManualClock;
  let suite: AdminSuite;
  let sink: SmtpSink;
  let sender: MailSender;
  let roomId: string;
  let slotDate: string;

  // What the app's jobs run with: its store records at the test's clock.
  const deps = () => suite.app.deps;

  const slot = (startTime: string, endTime: string, capacity: number) =>
    createSlot(suite.admin, roomId, slotDate, startTime, endTime, capacity);

  async function ticketCount(slotId: string): Promise<number> {
    const v = new Client(suite.app.baseUrl);
    const r = await v.get(
      `/api/rooms/${roomId}/booking?fromDate=${slotDate}&untilDate=${slotDate}`,
    );
    const days = (await r.json()) as { id: string; ticketCount: number }[];
    return days.find((s) => s.id === slotId)!.ticketCount;
  }

  beforeAll(async () => {
    const now = await databaseNow();
    clock = new ManualClock(new Date(now.getTime() + direction * DAY));
    suite = await openAdminSuite(clock);
    sink = new SmtpSink(await freePort());
    await sink.start();
    sender = testMailSender(suite.db, clock, { smtpUrl: sink.url });
    roomId = await createRoom(suite.admin, 'Uhrensaal');
    slotDate = addDays(todayIn(clock.now(), ZONE), 5);
  });

  afterAll(async () => {
    await sender.stop();
    await sink.stop();
    await suite.close();
  });

  it('sends a due mail at once and records the events at the clock’s time', async () => {
    const s = await slot('09:00', '10:00', 5);
    const v = new Client(suite.app.baseUrl);
    const cart = (await (
      await v.request('POST', '/api/transactions', { json: { timeSlotId: s } })
    ).json()) as { transactionId: string };
    const booked = await v.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
      json: owner,
    });
    expect(booked.status).toBe(200);
    await expect
      .poll(async () => (await suite.db.pool.query('SELECT 1 FROM mail_outbox')).rowCount)
      .toBe(1);
    expect(await sender.sendDue()).toBe(1);
    expect(sink.messages.map((m) => m.to && 'text' in m.to && m.to.text)).toEqual([
      'clara.uhr@example.at',
    ]);
    const times = await suite.db.pool.query<{ at: Date }>(
      'SELECT DISTINCT created_at AS at FROM events WHERE stream_id = $1',
      [`transaction-${cart.transactionId}`],
    );
    expect(times.rows.map((r) => r.at.getTime())).toEqual([clock.now().getTime()]);
  });

  it('releases an expired hold: the expiry job frees the seat for the next visitor', async () => {
    const s = await slot('11:00', '12:00', 1);
    const first = new Client(suite.app.baseUrl);
    expect(
      (await first.request('POST', '/api/transactions', { json: { timeSlotId: s } })).status,
    ).toBe(201);
    const late = new Client(suite.app.baseUrl);
    expect(
      (await late.request('POST', '/api/transactions', { json: { timeSlotId: s } })).status,
    ).toBe(409);
    clock.advance(15 * 60_000 + 1);
    // The job finds due carts in the read model (which may lag a moment), and decides on the stream.
    await expect.poll(() => expireDueTransactions(deps())).toBe(1);
    await expect.poll(() => ticketCount(s)).toBe(0);
    expect(
      (await late.request('POST', '/api/transactions', { json: { timeSlotId: s } })).status,
    ).toBe(201);
  });

  it('erases personal data on the day after the booked day, not before', async () => {
    const before = await erasePersonalData(deps());
    expect(before).toBe(0);
    clock.set(new Date(clock.now().getTime() + 6 * DAY));
    expect(await erasePersonalData(deps())).toBe(1);
    const left = await suite.db.pool.query('SELECT 1 FROM personal_data');
    expect(left.rowCount).toBe(0);
  });
});

describe('the schema', () => {
  it('lets the database’s time into no column a rule reads, and into no function', async () => {
    const suite = await openAdminSuite();
    try {
      const columns = await suite.db.pool.query<{ col: string }>(
        `SELECT table_name || '.' || column_name AS col FROM information_schema.columns
          WHERE table_schema = 'public'
            AND column_default ~* '(now|clock_timestamp|statement_timestamp|transaction_timestamp)\\(|current_(date|time)|localtime'
          ORDER BY 1`,
      );
      // Records of when something happened to the installation; no rule compares them.
      // (knex_migrations.migration_time, the migrations' history, has no default: knex writes it.)
      expect(columns.rows.map((r) => r.col)).toEqual([
        'admin_users.created_at',
        'projection_checkpoints.updated_at',
        'room_images.created_at',
      ]);
      const functions = await suite.db.pool.query<{ proname: string }>(
        `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'public'
            AND p.prosrc ~* '(now|clock_timestamp|statement_timestamp|transaction_timestamp)\\(|current_(date|time)|localtime'`,
      );
      expect(functions.rows).toEqual([]);
    } finally {
      await suite.close();
    }
  });
});
