import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePosition } from '@rr/events';
import { ManualClock } from '@rr/platform';
import { MAIL_LEASE_MS, type MailSender } from '@rr/projections';
import { projectionsReached } from '@rr/query-service';
import { readModelNames } from '../../server/src/runtime.ts';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, testMailSender } from '../support/fixtures.ts';
import { SmtpSink, spawnSmtpSink, type SmtpSinkProcess } from '../support/smtp-sink.ts';
import { freePort } from '../support/ports.ts';
import { budget } from '../support/time-budget.ts';
import { sleep } from '../support/wait-for.ts';

/**
 * The mail sender talks to SMTP outside any transaction: the read models' gap-safe subscriptions
 * wait behind the oldest open transaction of the cluster, so a sender holding one (a row lock)
 * while an SMTP server hangs froze every read model. The sink runs in a process of its own so
 * the test can freeze it (SIGSTOP: the kernel accepts the connection, nobody greets).
 */
const START = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(START);
let suite: AdminSuite;
let roomId: string;

/** Books one seat of a slot for an address; answers the owner id and the command's position. */
async function book(slotId: string, email: string) {
  const v = new Client(suite.app.baseUrl);
  const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MR',
      firstName: 'Fritz',
      lastName: 'Frost',
      email,
      phone: '+43111222',
      accessibility: false,
      language: 'de',
    },
  });
  expect(res.status).toBe(200);
  const { ownerId } = (await res.json()) as { ownerId: string };
  return { client: v, ownerId, position: v.lastPosition! };
}

/**
 * Milliseconds until every read model has applied the position, or null when they had not after
 * limitMs.
 */
async function catchUpMs(position: string, limitMs: number): Promise<number | null> {
  const target = parsePosition(position)!;
  const t0 = performance.now();
  while (!(await projectionsReached(suite.db.pool, readModelNames, target))) {
    if (performance.now() - t0 > limitMs) return null;
    await sleep(5);
  }
  return performance.now() - t0;
}

async function outboxRows(): Promise<number> {
  return (await suite.db.pool.query('SELECT 1 FROM mail_outbox')).rowCount ?? 0;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Frostsaal', { capacity: 500 });
});
afterAll(async () => {
  await suite.close();
});

describe('mail sending and the read models', () => {
  let sink: SmtpSinkProcess;
  let sender: MailSender | null = null;
  afterAll(async () => {
    await sink?.stop();
    await sender?.stop();
  });

  it('a frozen SMTP server holds up no read model; thawed, every mail arrives exactly once', async () => {
    sink = await spawnSmtpSink();
    const slotId = await createSlot(suite.admin, roomId, '2026-12-01', '09:00', '10:00', 500);
    const emails: string[] = [];
    const before = await outboxRows();
    sink.freeze();
    const frozenAt = performance.now();
    for (let i = 0; i < 3; i++) {
      emails.push(`frozen${i}@example.at`);
      await book(slotId, emails[i]!);
    }
    await expect.poll(outboxRows).toBe(before + 3);
    sender = testMailSender(suite.db, clock, { smtpUrl: sink.url });
    let settled = false;
    const sending = sender.sendDue().finally(() => (settled = true));
    await sleep(300); // the sender has connected and waits for a greeting that does not come

    // Visitors go on booking while the SMTP server is frozen: each booking's read models catch up.
    // A read model held up by the frozen server would not catch up before the thaw at all: each
    // booking's must, while the sender still waits (the bound only ends a stuck test).
    const lags: (number | null)[] = [];
    let i = 3;
    while (performance.now() - frozenAt < 4000) {
      emails.push(`frozen${i}@example.at`);
      const b = await book(slotId, emails[i]!);
      lags.push(await catchUpMs(b.position, budget(30_000)));
      const read = await b.client.get(`/api/owners/${b.ownerId}/tickets`);
      expect(read.status).toBe(200);
      expect(read.headers.get('x-read-stale')).toBeNull();
      i += 1;
      await sleep(100);
    }
    const frozenMs = performance.now() - frozenAt;
    const caughtUp = lags.filter((lag): lag is number => lag !== null).sort((a, b) => a - b);
    console.log(
      `projection lag with SMTP frozen for ${Math.round(frozenMs)} ms: ` +
        `max ${Math.round(caughtUp.at(-1) ?? 0)} ms, median ${Math.round(caughtUp[caughtUp.length >> 1] ?? 0)} ms over ${lags.length} bookings`,
    );
    expect(settled).toBe(false); // the sender was stuck all along
    expect(sink.messages).toEqual([]);
    expect(caughtUp.length).toBe(lags.length);

    sink.thaw();
    await sending;
    await expect.poll(outboxRows).toBe(before + emails.length);
    // Mails whose attempt timed out while frozen are due again after their back-off.
    for (let round = 0; round < 5; round++) {
      await sender.sendDue();
      const pending = await suite.db.pool.query(
        `SELECT 1 FROM mail_outbox WHERE status = 'pending'`,
      );
      if (!pending.rowCount) break;
      clock.advance(10 * 60_000);
    }
    clock.set(START);
    await sleep(200); // nothing arrives late
    expect(sink.messages.map((m) => m.to).sort()).toEqual([...emails].sort());
    expect(new Set(sink.messages.map((m) => m.messageId)).size).toBe(emails.length);
    const rows = await suite.db.pool.query<{ status: string; lease_owner: string | null }>(
      'SELECT status, lease_owner FROM mail_outbox',
    );
    expect(rows.rows.every((r) => r.status === 'sent' && r.lease_owner === null)).toBe(true);
  });
});

describe('mail leases', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = new SmtpSink(await freePort());
    await sink.start();
  });
  afterAll(async () => {
    await sink.stop();
  });

  it('lets no two senders send the same mail', async () => {
    const slotId = await createSlot(suite.admin, roomId, '2026-12-02', '09:00', '10:00', 500);
    const before = await outboxRows();
    const first = sink.messages.length;
    for (let i = 0; i < 12; i++) await book(slotId, `pair${i}@example.at`);
    await expect.poll(outboxRows).toBe(before + 12);
    const senders = [0, 1, 2].map(() => testMailSender(suite.db, clock, { smtpUrl: sink.url }));
    try {
      const counts = await Promise.all(senders.map((s) => s.sendDue()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    } finally {
      await Promise.all(senders.map((s) => s.stop()));
    }
    const got = sink.messages.slice(first);
    expect(got).toHaveLength(12);
    expect(new Set(got.map((m) => m.messageId)).size).toBe(12);
    const attempts = await suite.db.pool.query<{ attempts: number }>(
      `SELECT attempts FROM mail_outbox WHERE status = 'sent' AND owner_id IN
         (SELECT owner_id FROM personal_data WHERE email LIKE 'pair%')`,
    );
    expect(attempts.rows.map((r) => r.attempts)).toEqual(Array(12).fill(1));
  });

  it('tries a mail again once the lease of a sender that never finished has run out, and keeps the late result out', async () => {
    const slotId = await createSlot(suite.admin, roomId, '2026-12-03', '09:00', '10:00', 500);
    const before = await outboxRows();
    const first = sink.messages.length;
    const { ownerId } = await book(slotId, 'lease@example.at');
    await expect.poll(outboxRows).toBe(before + 1);

    // The first sender claims the mail and hangs on a frozen SMTP server.
    const frozen = await spawnSmtpSink();
    frozen.freeze();
    const hung = testMailSender(suite.db, clock, { smtpUrl: frozen.url });
    const other = testMailSender(suite.db, clock, { smtpUrl: sink.url });
    try {
      const hanging = hung.sendDue();
      await expect
        .poll(
          async () =>
            (
              await suite.db.pool.query(
                'SELECT 1 FROM mail_outbox WHERE owner_id = $1 AND lease_owner IS NOT NULL',
                [ownerId],
              )
            ).rowCount,
        )
        .toBe(1);
      // While the lease holds, nobody else sends it.
      expect(await other.sendDue()).toBe(0);
      clock.advance(MAIL_LEASE_MS - 1000);
      expect(await other.sendDue()).toBe(0);
      // The lease runs out (the clock moved on): another sender sends it.
      clock.advance(1001);
      expect(await other.sendDue()).toBe(1);
      expect(sink.messages.slice(first)).toHaveLength(1);
      // The hung attempt fails at last (its server dies): its result changes nothing.
      await frozen.stop();
      expect(await hanging).toBe(0);
      const row = await suite.db.pool.query<{
        status: string;
        attempts: number;
        last_error: string | null;
        lease_owner: string | null;
      }>('SELECT status, attempts, last_error, lease_owner FROM mail_outbox WHERE owner_id = $1', [
        ownerId,
      ]);
      expect(row.rows).toEqual([
        { status: 'sent', attempts: 1, last_error: null, lease_owner: null },
      ]);
      expect(await other.sendDue()).toBe(0);
    } finally {
      clock.set(START);
      await frozen.stop();
      await hung.stop();
      await other.stop();
    }
  });
});
