// Over 300 lines: one file per API area; the cases share one app, its database and its log sink.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalData, releaseNoShows, releaseUnconfirmed } from '@rr/command-service';
import { createLogger, ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot, testMailSender } from '../support/fixtures.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { freePort } from '../support/ports.ts';

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

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Every text-like column (text, varchar, json, arrays, ...) of every table of the database, the
 * event log included, searched for each word (case-insensitive): answers `table.column: word`
 * for each hit, and the tables searched.
 */
async function databaseHits(words: string[]): Promise<{ hits: string[]; tables: Set<string> }> {
  const columns = await db.pool.query<{ schema: string; table: string; column: string }>(
    `SELECT c.table_schema AS schema, c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
        AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY',
                            'USER-DEFINED', 'xml', 'tsvector')
      ORDER BY 1, 2, 3`,
  );
  const hits: string[] = [];
  const tables = new Set<string>();
  for (const { schema, table, column } of columns.rows) {
    tables.add(table);
    for (const word of words) {
      const r = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${quoteIdent(schema)}.${quoteIdent(table)}
          WHERE strpos(lower(${quoteIdent(column)}::text), $1) > 0`,
        [word.toLowerCase()],
      );
      if (r.rows[0]!.n > 0) hits.push(`${table}.${column}: ${word}`);
    }
  }
  return { hits, tables };
}

/** Every file under dir (names, raw bytes and the decoded mail), searched for each word. */
async function fileHits(dir: string, words: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = await readFile(file);
    const mail = await simpleParser(raw);
    const text = [
      file,
      raw.toString('utf8'),
      mail.subject ?? '',
      mail.text ?? '',
      typeof mail.html === 'string' ? mail.html : '',
      JSON.stringify(mail.to ?? ''),
      ...mail.attachments.map((a) => a.content.toString('utf8')),
    ]
      .join('\n')
      .toLowerCase();
    for (const word of words) if (text.includes(word.toLowerCase())) hits.push(`${file}: ${word}`);
  }
  return hits;
}

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

    const deps = { ...app.deps, logger: createLogger('info', 'erasure', logSink) };
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

  describe('mail traces', () => {
    let roomId: string;
    let mailDir: string;
    const date = '2026-12-04';
    const dayAfter = new Date('2026-12-04T23:30:00Z'); // 00:30 on 5 Dec in Vienna

    /** Books a slot of `date` for a person; answers the owner id once its mail is queued. */
    async function book(who: Record<string, unknown>, startTime: string): Promise<string> {
      const slotId = await createSlot(
        admin,
        roomId,
        date,
        startTime,
        `${startTime.slice(0, 2)}:45`,
        5,
      );
      const v = new Client(app.baseUrl);
      const cart = (await (
        await v.request('POST', '/api/transactions', { json: { timeSlotId: slotId } })
      ).json()) as { transactionId: string };
      const booked = await v.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
        json: who,
      });
      expect(booked.status).toBe(200);
      const { ownerId } = (await booked.json()) as { ownerId: string };
      await expect
        .poll(
          async () =>
            (await db.pool.query('SELECT 1 FROM mail_outbox WHERE owner_id = $1', [ownerId]))
              .rowCount,
        )
        .toBe(1);
      return ownerId;
    }

    /** Asks for the "my bookings" link of an address (202 for every address). */
    async function askForMyBookings(email: string): Promise<void> {
      const res = await new Client(app.baseUrl).request('POST', '/api/my-bookings/link', {
        json: { email, language: 'de' },
      });
      expect(res.status).toBe(202);
    }

    beforeAll(async () => {
      roomId = await createRoom(admin, 'Mail trace room');
      mailDir = await mkdtemp(path.join(os.tmpdir(), 'rr-erasure-mail-'));
    });
    afterAll(async () => {
      clock.set(new Date('2026-11-23T09:00:00Z'));
      await rm(mailDir, { recursive: true, force: true });
    });

    // A recipient the SMTP server refuses with a 550 that quotes the address.
    const rejected = {
      ...person,
      firstName: 'Waltraud',
      lastName: 'Zwirnbichler',
      organisation: 'Zwirnerei KG',
      email: 'reject.me@example.org',
      phone: '+4366012345678',
    };
    const rejectedTraces = [
      'waltraud',
      'zwirnbichler',
      'zwirnerei',
      'reject.me@example.org',
      '66012345678',
    ];
    // A recipient whose mail was written as an .eml file (no SMTP_URL).
    const filed = {
      ...person,
      firstName: 'Hieronymus',
      lastName: 'Pfeffersack',
      organisation: 'Pfeffer OG',
      email: 'h.pfeffersack@example.com',
      phone: '+4315558877',
    };
    const filedTraces = [
      'hieronymus',
      'pfeffersack',
      'pfeffer og',
      'h.pfeffersack@example.com',
      '4315558877',
    ];

    it('leaves no trace in any table or mail file: an SMTP 550 naming the address, and .eml files without SMTP', async () => {
      const sink = new SmtpSink(await freePort(), { rejectRecipients: [rejected.email] });
      await sink.start();
      const smtp = testMailSender(db, clock, { smtpUrl: sink.url });
      const files = testMailSender(db, clock, { mailDir });
      try {
        // The SMTP server rejects the first recipient (the mail stays pending, not due again at
        // this clock); the second one's mail goes into the folder.
        const rejectedOwner = await book(rejected, '09:00');
        // Each also asks for its "my bookings" link: the request keeps the address until the
        // link has expired, its mail goes like the others.
        await askForMyBookings(rejected.email);
        expect(await smtp.sendDue()).toBe(0);
        const failed = await db.pool.query<{ last_error: string | null; attempts: number }>(
          'SELECT last_error, attempts FROM mail_outbox WHERE owner_id = $1',
          [rejectedOwner],
        );
        expect(failed.rows[0]!.attempts).toBe(1);
        expect(failed.rows[0]!.last_error).toContain('550');
        // Not even before the erasure does the outbox keep the address the reply quoted.
        expect(failed.rows[0]!.last_error).not.toContain(rejected.email);

        await book(filed, '10:00');
        await askForMyBookings(filed.email);
        expect(await files.sendDue()).toBe(2);
        expect(await fileHits(mailDir, filedTraces)).not.toEqual([]);
      } finally {
        await smtp.stop();
        await files.stop();
        await sink.stop();
      }
      // The search sees personal data where it is, before the erasure.
      const before = await databaseHits([...rejectedTraces, ...filedTraces]);
      expect(before.hits).toContain('personal_data.last_name: zwirnbichler');
      expect(before.hits).toContain('personal_data.email: h.pfeffersack@example.com');
      expect(before.hits).toContain('my_bookings_requests.email: reject.me@example.org');
      expect(before.hits).toContain('my_bookings_requests.email: h.pfeffersack@example.com');

      clock.set(dayAfter);
      expect(await erasePersonalData(app.deps, { mailDir })).toBe(2);

      const words = [...traces, ...rejectedTraces, ...filedTraces];
      const after = await databaseHits(words);
      for (const table of [
        'events',
        'mail_outbox',
        'personal_data',
        'bookings',
        'rm_tickets',
        'visitor_no_shows',
        'my_bookings_requests',
      ])
        expect(after.tables).toContain(table);
      expect(after.hits).toEqual([]);
      expect(await fileHits(mailDir, words)).toEqual([]);
      expect(logs.toLowerCase()).not.toMatch(/waltraud|zwirnbichler|reject\.me|pfeffersack/);
    });

    it('deletes the .eml files of an erasure that stopped after its commit on the next round', async () => {
      clock.set(new Date('2026-11-23T09:00:00Z'));
      const files = testMailSender(db, clock, { mailDir });
      const again = { ...filed, email: 'h.pfeffersack.2@example.com' };
      let ownerId: string;
      try {
        ownerId = await book(again, '11:00');
        expect(await files.sendDue()).toBe(1);
      } finally {
        await files.stop();
      }
      // A copy under the name files had before they were named by owner (the outbox id alone).
      const outboxId = (
        await db.pool.query<{ id: string }>('SELECT id FROM mail_outbox WHERE owner_id = $1', [
          ownerId,
        ])
      ).rows[0]!.id;
      await writeFile(
        path.join(mailDir, `${outboxId.replace(/[^A-Za-z0-9.-]/g, '_')}.eml`),
        'To: Hieronymus Pfeffersack <h.pfeffersack.2@example.com>\r\n\r\nGuten Tag',
      );
      expect(await fileHits(mailDir, ['pfeffersack'])).toHaveLength(2);
      clock.set(dayAfter);
      // The erasure commits, and its process stops before the files are deleted ...
      expect(await erasePersonalData(app.deps)).toBe(1);
      expect(await fileHits(mailDir, ['pfeffersack'])).toHaveLength(2);
      // ... a file of another kind in the folder is none of the erasure's business ...
      await writeFile(path.join(mailDir, 'README.txt'), 'not a mail');
      // ... and the next round, with nobody left to erase, deletes them (twice changes nothing).
      expect(await erasePersonalData(app.deps, { mailDir })).toBe(0);
      expect(await erasePersonalData(app.deps, { mailDir })).toBe(0);
      expect(await fileHits(mailDir, ['pfeffersack', 'hieronymus'])).toEqual([]);
      expect(await readdir(mailDir)).toEqual(['README.txt']);
    });

    it('erases a booking released unconfirmed: its confirmation and release mails, its link tokens, no trace in any table', async () => {
      // docs/product.md#confirmed-addresses: the erasure rules of any booking apply.
      clock.set(new Date('2026-11-23T09:00:00Z'));
      const room = await createRoom(admin, 'Confirmation erasure room');
      const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
        json: { confirmBookingMinutes: 30 },
      });
      expect(set.status).toBe(200);
      const slotId = await createSlot(admin, room, date, '12:00', '12:45', 5);
      const unconfirmed = {
        ...person,
        firstName: 'Kunigunde',
        lastName: 'Unbestaetigt',
        organisation: 'Saumselig GmbH',
        email: 'k.unbestaetigt@example.net',
        phone: '+4369912121212',
      };
      const unconfirmedTraces = [
        'kunigunde',
        'unbestaetigt',
        'saumselig',
        'k.unbestaetigt@example.net',
        '69912121212',
      ];
      const v = new Client(app.baseUrl);
      const cart = (await (
        await v.request('POST', '/api/transactions', { json: { timeSlotId: slotId } })
      ).json()) as { transactionId: string };
      const booked = await v.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
        json: unconfirmed,
      });
      expect(booked.status).toBe(200);
      const { ownerId } = (await booked.json()) as { ownerId: string };
      const outbox = (kind: string) =>
        db.pool.query('SELECT 1 FROM mail_outbox WHERE owner_id = $1 AND kind = $2', [
          ownerId,
          kind,
        ]);
      const files = testMailSender(db, clock, { mailDir });
      try {
        await expect.poll(async () => (await outbox('confirmation')).rowCount).toBe(1);
        expect(await files.sendDue()).toBe(1);
        // Unconfirmed at the deadline: released, with the short mail.
        clock.set(new Date('2026-11-23T09:30:00Z'));
        expect(await releaseUnconfirmed(app.deps)).toBe(1);
        await expect.poll(async () => (await outbox('unconfirmed')).rowCount).toBe(1);
        expect(await files.sendDue()).toBe(1);
      } finally {
        await files.stop();
      }
      expect(await fileHits(mailDir, unconfirmedTraces)).not.toEqual([]);
      const before = await databaseHits(unconfirmedTraces);
      expect(before.hits).toContain('personal_data.last_name: unbestaetigt');
      // The hash of the confirmation link's token (the mailbox's secret) goes with the data.
      const tokens = () =>
        db.pool.query('SELECT 1 FROM confirmation_tokens WHERE owner_id = $1', [ownerId]);
      expect((await tokens()).rowCount).toBe(1);

      clock.set(dayAfter);
      expect(await erasePersonalData(app.deps, { mailDir })).toBe(1);
      const after = await databaseHits(unconfirmedTraces);
      for (const table of ['events', 'mail_outbox', 'personal_data', 'ticket_state', 'rm_tickets'])
        expect(after.tables).toContain(table);
      expect(after.hits).toEqual([]);
      expect((await tokens()).rowCount).toBe(0);
      expect(await fileHits(mailDir, unconfirmedTraces)).toEqual([]);
      // The released ticket stays (it never held personal data), marked unconfirmed.
      await expect
        .poll(
          async () =>
            (
              await db.pool.query<{ status: string; unconfirmed: boolean }>(
                `SELECT s.status, t.unconfirmed FROM ticket_state s JOIN rm_tickets t ON t.id = s.ticket_id
                  WHERE t.owner_id = $1`,
                [ownerId],
              )
            ).rows,
        )
        .toEqual([{ status: 'INVALID', unconfirmed: true }]);
    });
  });

  it("erases the no-show rule's record of an address: at once without the rule", async () => {
    clock.set(new Date('2026-11-23T09:00:00Z'));
    const room = await createRoom(admin, 'No-show erasure room');
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
    });
    expect(set.status).toBe(200);
    const slot = await createSlot(admin, room, '2026-12-07', '09:00', '10:00', 5);
    const v = new Client(app.baseUrl);
    const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slot } });
    const { transactionId } = (await cart.json()) as { transactionId: string };
    const booked = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: { ...person, email: 'absent.reader@example.at' },
    });
    expect(booked.status).toBe(200);
    clock.set(new Date('2026-12-07T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    const key = app.deps.emailKey('absent.reader@example.at');
    const kept = () =>
      db.pool.query('SELECT 1 FROM visitor_no_shows WHERE visitor_key = $1', [key]);
    expect((await kept()).rowCount).toBe(1);
    // A staff lift of the key, as one made while the rule was on (docs/product.md#no-show-rule).
    const lift = () =>
      db.pool.query('SELECT 1 FROM visitor_no_show_lifts WHERE visitor_key = $1', [key]);
    await db.pool.query(
      `INSERT INTO visitor_no_show_lifts (visitor_key, lifted_through, actor, lifted_at)
       VALUES ($1, '2026-12-07', '{"kind":"admin","username":"boss"}', $2)`,
      [key, clock.now()],
    );
    // This app runs without NO_SHOW_LIMIT: nothing needs the record, the next round erases it
    // (with the rule, after its window and block: tests/api/no-show-rule.int.test.ts).
    await erasePersonalData(app.deps);
    expect((await kept()).rowCount).toBe(0);
    expect((await lift()).rowCount).toBe(0);
    // The key stays where the log and the bookings carry it (a keyed hash, no address); the
    // rule's own table holds it no longer.
    const after = await databaseHits([key]);
    expect(after.tables).toContain('visitor_no_shows');
    expect(after.tables).toContain('visitor_no_show_lifts');
    expect(after.hits.filter((hit) => hit.startsWith('visitor_no_show'))).toEqual([]);
  });
});
