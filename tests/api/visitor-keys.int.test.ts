import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalData, rekeyStoredAddresses } from '@rr/command-service';
import { normalizeEmail } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import {
  Client,
  openAdminSuite,
  startTestApp,
  TEST_KEY_SECRET,
  type AdminSuite,
  type TestApp,
} from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

// One person, one key (docs/product.md#one-person-one-key). Monday 23 Nov 2026, 10:00 in Vienna.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let db: TestDatabase;
let app: TestApp;
let admin: Client;
let suite: AdminSuite;

const owner = {
  salutation: 'MS',
  firstName: 'Anna',
  lastName: 'Musterfrau',
  email: 'reader@uni.example',
  phone: '+436641234567',
  language: 'de',
};
type Problem = { error: string; payload: string[] };

/** The key as the previous release made it: the address trimmed and lower-cased, nothing folded. */
const previousKey = (email: string) =>
  createHmac('sha256', TEST_KEY_SECRET).update(normalizeEmail(email)).digest('hex').slice(0, 40);

async function cartOf(c: Client, timeSlotId: string): Promise<string> {
  const r = await c.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(r.status).toBe(201);
  return ((await r.json()) as { transactionId: string }).transactionId;
}
const book = (c: Client, tx: string, email: string) =>
  c.request('PUT', `/api/transactions/${tx}/booking`, { json: { ...owner, email } });
const check = (email: string) =>
  new Client(app.baseUrl).request('POST', '/api/email-check', { json: { email } });
const blacklist = (email: string, expiredAt = '2027-06-30', description?: string) =>
  admin.request('POST', '/api/admin/blacklist', { json: { email, expiredAt, description } });

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: { LIBRARY_CONTACT_EMAIL: 'lesesaal@uni.example' } });
  ({ db, app, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('one person, one key', () => {
  it('blocks the sub-addresses and, at Gmail, the dotted spellings of a blocked address', async () => {
    expect((await blacklist('blocked.reader@uni.example')).status).toBe(201);
    expect((await blacklist('Ex.Ample@gmail.com')).status).toBe(201);
    const r = await createRoom(admin, 'Key room');
    const s = await createSlot(admin, r, '2026-12-01', '09:00', '10:00', 5);
    for (const email of [
      'Blocked.Reader+tag@uni.example',
      'blocked.reader+a+b@UNI.example',
      'example+x@googlemail.com',
      'e.x.a.m.p.l.e@gmail.com',
    ]) {
      const refused = await book(
        new Client(app.baseUrl),
        await cartOf(new Client(app.baseUrl), s),
        email,
      );
      expect(refused.status, email).toBe(403);
      expect(((await refused.json()) as Problem).error).toBe('booking__email_blacklisted');
    }
    // Dots count elsewhere: another mailbox, another person.
    const other = new Client(app.baseUrl);
    expect((await book(other, await cartOf(other, s), 'blockedreader@uni.example')).status).toBe(
      200,
    );
  });

  it('refuses a blocked address when it is entered, and names whom to write to', async () => {
    const refused = await check(' Blocked.Reader+Desk@uni.example ');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    expect(((await refused.json()) as Problem).error).toBe('booking__email_blacklisted');
    expect((await check('someone.else@uni.example')).status).toBe(204);
    expect((await check('not an address')).status).toBe(400);
    const library = (await (await new Client(app.baseUrl).get('/api/library')).json()) as {
      contactEmail?: string;
    };
    expect(library).toEqual({ contactEmail: 'lesesaal@uni.example' });
  });

  it('counts the per-visitor limits once over all spellings; mails go to the address as typed', async () => {
    const r = await createRoom(admin, 'Limit room');
    const day = '2026-12-02';
    const slots = [
      await createSlot(admin, r, day, '09:00', '10:00', 5),
      await createSlot(admin, r, day, '11:00', '12:00', 5),
      await createSlot(admin, r, day, '13:00', '14:00', 5),
    ];
    const spellings = [
      'Mia.Leser+one@gmail.com',
      'mialeser+two@googlemail.com',
      'mia.leser@gmail.com',
    ];
    const answers: number[] = [];
    for (const [i, email] of spellings.entries()) {
      const v = new Client(app.baseUrl);
      const res = await book(v, await cartOf(v, slots[i]!), email);
      answers.push(res.status);
      if (res.status !== 200)
        expect(((await res.json()) as Problem).payload).toEqual([
          'max_tickets_per_day_reached',
          day,
          '2',
        ]);
    }
    // MAX_TICKETS_PER_DAY is 2: the third spelling is the same person's third ticket that day.
    expect(answers).toEqual([200, 200, 409]);
    const stored = await db.pool.query<{ email: string }>(
      `SELECT email FROM personal_data WHERE email LIKE '%leser%' ORDER BY email`,
    );
    expect(stored.rows.map((x) => x.email)).toEqual([
      'mia.leser+one@gmail.com',
      'mialeser+two@googlemail.com',
    ]);
  });
});

describe('re-keying what an earlier release stored', () => {
  it('moves blacklist entries, bookings and waitlist entries to the folded key, once', async () => {
    // The previous release on the same database, keying without the fold (a rolling upgrade).
    const previous = await startTestApp(db, clock, { emailKey: previousKey });
    try {
      const staff = new Client(previous.baseUrl);
      expect((await staff.login('boss', 'correct horse')).status).toBe(200);
      const add = (email: string, expiredAt: string, description: string) =>
        staff.request('POST', '/api/admin/blacklist', { json: { email, expiredAt, description } });
      expect((await add('old.entry+x@uni.example', '2027-03-31', 'Moved alone')).status).toBe(201);
      // Two spellings of one person: after the move one entry, with the later expiry.
      expect((await add('twice@gmail.com', '2027-01-31', 'Earlier')).status).toBe(201);
      expect((await add('t.w.i.c.e@gmail.com', '2027-05-31', 'Later')).status).toBe(201);

      const r = await createRoom(admin, 'Rekey room');
      const s1 = await createSlot(admin, r, '2026-12-03', '09:00', '10:00', 5);
      const s2 = await createSlot(admin, r, '2026-12-03', '11:00', '12:00', 5);
      const s3 = await createSlot(admin, r, '2026-12-03', '13:00', '14:00', 5);
      const v = new Client(previous.baseUrl);
      const old = await book(v, await cartOf(v, s1), 'Jo.Reader+old@uni.example');
      expect(old.status).toBe(200);
      const { ownerId } = (await old.json()) as { ownerId: string };
      expect(
        (await db.pool.query('SELECT visitor_key FROM bookings WHERE owner_id = $1', [ownerId]))
          .rows[0],
      ).toEqual({ visitor_key: previousKey('jo.reader+old@uni.example') });
      // A no-show release of the booking, as the rule keeps it (under the key of its booking).
      await db.pool.query(
        `INSERT INTO visitor_no_shows (ticket_id, visitor_key, date)
         SELECT ticket_id, $2, '2026-12-03' FROM ticket_state WHERE owner_id = $1`,
        [ownerId, previousKey('jo.reader+old@uni.example')],
      );
      // A waitlist entry as the previous release's join kept it (under the key of its address).
      const entryId = '00000000-0000-4000-8000-000000000001';
      await db.pool.query(
        `INSERT INTO waitlist_entries (entry_id, time_slot_id, visitor_key, email, language, erase_after)
         VALUES ($1, $2, $3, 'Wait.Er+x@uni.example', 'de', '2026-12-04')`,
        [entryId, s1, previousKey('wait.er+x@uni.example')],
      );
      // Before the move, this release does not know the old spelling's entry.
      expect((await check('old.entry@uni.example')).status).toBe(204);

      // The sub-addressed entry, the dotted spelling's entry, the booking and the waitlist entry
      // ('twice@gmail.com' keeps its key: nothing of it folds).
      expect(await rekeyStoredAddresses(app.deps)).toBe(4);
      // Idempotent: a second run (another process, the next round) finds nothing.
      expect(await rekeyStoredAddresses(app.deps)).toBe(0);

      expect((await check('old.entry@uni.example')).status).toBe(403);
      expect((await check('twice+y@googlemail.com')).status).toBe(403);
      expect(
        (await db.pool.query('SELECT visitor_key FROM bookings WHERE owner_id = $1', [ownerId]))
          .rows[0],
      ).toEqual({ visitor_key: app.deps.emailKey('jo.reader@uni.example') });
      expect((await db.pool.query('SELECT visitor_key FROM visitor_no_shows')).rows).toEqual([
        { visitor_key: app.deps.emailKey('jo.reader@uni.example') },
      ]);
      expect(
        (
          await db.pool.query('SELECT visitor_key FROM waitlist_entries WHERE entry_id = $1', [
            entryId,
          ])
        ).rows[0],
      ).toEqual({ visitor_key: app.deps.emailKey('wait.er@uni.example') });
      // The rows moved by the job's events on the old keys' re-keying streams: keys, never the
      // address.
      expect(
        (
          await db.pool.query<{
            stream_id: string;
            event_type: string;
            data: unknown;
            actor: unknown;
          }>(
            `SELECT stream_id, event_type, data, metadata->'actor' AS actor FROM events
              WHERE stream_id LIKE 'rekeying-%' ORDER BY global_position`,
          )
        ).rows,
      ).toEqual([
        {
          stream_id: `rekeying-${previousKey('jo.reader+old@uni.example')}`,
          event_type: 'BookingRekeyed',
          data: { ownerId, visitorKey: app.deps.emailKey('jo.reader@uni.example') },
          actor: { kind: 'system', job: 'visitor-rekeying' },
        },
        {
          stream_id: `rekeying-${previousKey('wait.er+x@uni.example')}`,
          event_type: 'WaitlistEntryRekeyed',
          data: { entryId, visitorKey: app.deps.emailKey('wait.er@uni.example') },
          actor: { kind: 'system', job: 'visitor-rekeying' },
        },
      ]);
      // Staff see the entries by their addresses; the person's two became one, with the later
      // day and that entry's note. The re-keying ran beside the API (no position to wait for):
      // the list shows it once the projection has caught up.
      const listed = async () =>
        (
          (await (await admin.get('/api/admin/blacklist?term=twice')).json()) as {
            content: { email: string; expiredAt: string; description?: string }[];
          }
        ).content;
      await expect.poll(listed).toEqual([
        expect.objectContaining({
          email: 'twice@gmail.com',
          expiredAt: '2027-05-31',
          description: 'Later',
        }),
      ]);
      const moved = async () =>
        (await (
          await admin.get(`/api/admin/blacklist/${encodeURIComponent('old.entry+x@uni.example')}`)
        ).json()) as { expiredAt: string; description?: string };
      await expect
        .poll(moved)
        .toMatchObject({ expiredAt: '2027-03-31', description: 'Moved alone' });

      // The moved booking counts for the person: a second spelling books the day's second
      // ticket, a third one is refused (MAX_TICKETS_PER_DAY 2).
      const w = new Client(app.baseUrl);
      expect((await book(w, await cartOf(w, s2), 'jo.reader@uni.example')).status).toBe(200);
      const x = new Client(app.baseUrl);
      expect((await book(x, await cartOf(x, s3), 'jo.reader+new@uni.example')).status).toBe(409);

      // The erasure round re-keys too, before it erases: nothing is left to move.
      await erasePersonalData(app.deps);
      expect(await rekeyStoredAddresses(app.deps)).toBe(0);
    } finally {
      await previous.close();
    }
  });
});
