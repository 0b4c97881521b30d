import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { bookAsNewVisitor, createRoom, createSlot } from '../support/fixtures.ts';
import { fakeTimeFromFile } from '../support/fake-time.ts';
import { freePort } from '../support/ports.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { budget } from '../support/time-budget.ts';
import { sleep, waitFor } from '../support/wait-for.ts';

/**
 * The reminders go on in the projector standing by when the active one is killed. A reminder is
 * due only once the clock reaches its time before the slot, and only for a ticket booked before
 * that time, so the surviving projector's clock is moved there after the booking (libfaketime,
 * its offset read from a file). The first projector never reaches the reminder time.
 */
const procs: ServiceProcess[] = [];
let db: TestDatabase | undefined;
const dir = mkdtempSync(path.join(os.tmpdir(), 'rr-reminder-clock-'));
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill('SIGKILL')));
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

it('the standing-by projector sends a reminder once the active one is killed: once, at its time', async () => {
  db = await createTestDatabase();
  const sink = new SmtpSink(await freePort());
  await sink.start();
  try {
    const env = {
      DATABASE_URL: db.url,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'reminder-password',
      SEED_DEMO_DATA: 'false',
      // Slot times and the reminder's window read in UTC, as the test computes them.
      TIME_ZONE: 'UTC',
      SMTP_URL: sink.url,
      MAIL_INTERVAL_MS: '200',
      REMINDER_JOB_INTERVAL_MS: '200',
    };
    const offset = path.join(dir, 'offset');
    writeFileSync(offset, '+0\n');
    const command = await spawnService('command', env);
    const query = await spawnService('query', env);
    const first = await spawnService('projector', env);
    procs.push(command, query, first);
    // The second starts once the first holds the read models' locks, so it is the one standing by.
    await sleep(1500);
    const second = await spawnService('projector', { ...env, ...fakeTimeFromFile(offset) });
    procs.push(second);

    const admin = new Client(command.url);
    await admin.login('admin', 'reminder-password');
    const roomId = await createRoom(admin, 'Reminder room', { capacity: 4 });
    const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { reminderHoursBefore: 1 },
    });
    expect(services.status).toBe(200);
    const date = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
    const reader = new Client(query.url).shareSession(admin);
    const slotId = await createSlot(admin, roomId, date, '09:00', '10:00', 4, reader);

    const email = 'erinnerung.nach.ausfall@example.at';
    const { ownerId, bookingNumber } = await bookAsNewVisitor(
      command.url,
      [slotId],
      'de',
      { email },
      query.url,
    );
    const subjects = () =>
      sink.messages
        .filter((m) => JSON.stringify(m.to ?? '').includes(email))
        .map((m) => m.subject ?? '');
    const reminders = () => subjects().filter((s) => s.startsWith('Erinnerung')).length;
    await waitFor('the confirmation mail', () => subjects().length === 1, budget(30_000));
    await waitFor(
      'the booked ticket in the read model',
      async () =>
        (await db!.pool.query(`SELECT 1 FROM rm_tickets WHERE status = 'BOOKED'`)).rowCount === 1,
      budget(30_000),
    );
    await first.kill('SIGKILL');
    // Nothing is due yet: the reminder's time is an hour before the slot, three days ahead.
    await sleep(1000);
    expect(reminders()).toBe(0);

    // The survivor's clock half an hour before the slot: past the reminder's time, before the start.
    const startsAt = Date.parse(`${date}T09:00:00Z`);
    writeFileSync(offset, `+${Math.floor((startsAt - 30 * 60_000 - Date.now()) / 1000)}\n`);
    await waitFor('the reminder mail', () => reminders() === 1, budget(30_000));
    // A while longer: it is not sent twice.
    await sleep(1500);
    expect(subjects()).toEqual([
      expect.stringContaining(bookingNumber),
      `Erinnerung an Ihre Buchung ${bookingNumber}`,
    ]);
    const rows = await db.pool.query<{ id: string; status: string }>(
      `SELECT id, status FROM mail_outbox WHERE kind = 'reminder'`,
    );
    expect(rows.rows).toEqual([{ id: `reminder:${ownerId}:${date}`, status: 'sent' }]);
  } finally {
    await sink.stop();
  }
});
