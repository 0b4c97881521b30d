import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalData, releaseNoShows } from '@rr/command-service';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import type { TestIdp } from '../support/saml-idp.ts';
import {
  bookSlotAs,
  openVisitorSignInSuite,
  SAML_ATTRIBUTES as A,
  VISITOR_SP as SP,
  visitorOidcSignIn,
  visitorSamlSignIn,
  type VisitorSignInSuite,
} from '../support/visitor-sign-in.ts';

/**
 * One person, one set of limits (docs/product.md#one-person-one-set-of-limits): a visitor signed
 * in with the campus identity (the test's OpenID provider and SAML identity provider) is counted
 * by their subject, whatever address they give: the per-day limit, the no-show rule. A guest is
 * counted by the address, apart from the subject. The blacklist stays by the address, signed in
 * or not. The subject is the booking's personal data and goes with it. One ticket a day (MAX_TICKETS_PER_DAY=1); two no-shows within 30 days block for
 * 14. Monday 23 Nov 2026, 10:00 in Vienna.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let suite: AdminSuite;
let app: TestApp;
let admin: Client;
let signIn: VisitorSignInSuite;
let idp: TestIdp;

type Problem = { error: string; payload: string[] };
const owner = {
  salutation: 'MS',
  firstName: 'Sina',
  lastName: 'Subjekt',
  phone: '+436641234567',
  language: 'de',
};

const bookAs = (v: Client, timeSlotId: string, email: string) =>
  bookSlotAs(v, timeSlotId, owner, email);
async function booked(v: Client, timeSlotId: string, email: string): Promise<string> {
  const r = await bookAs(v, timeSlotId, email);
  expect(r.status, await r.clone().text()).toBe(200);
  return ((await r.json()) as { ownerId: string }).ownerId;
}
async function signedIn(login: string): Promise<Client> {
  const c = new Client(app.baseUrl);
  await visitorOidcSignIn(c, login);
  return c;
}
const check = (c: Client, email: string) =>
  c.request('POST', '/api/email-check', { json: { email } });
const eventCount = async () =>
  (await suite.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
const subjectOf = async (ownerId: string) =>
  (
    await suite.db.pool.query<{ subject: string | null }>(
      'SELECT subject FROM personal_data WHERE owner_id = $1',
      [ownerId],
    )
  ).rows[0]?.subject;

beforeAll(async () => {
  const person = (email: string) => ({ email, eduperson_affiliation: ['student'] });
  signIn = await openVisitorSignInSuite(
    clock,
    {
      limited: person('limited@uni-x.de'),
      absent: person('absent@uni-x.de'),
      erased: person('erased@uni-x.de'),
      reader: person('reader@uni-x.de'),
      barred: person('barred@uni-x.de'),
    },
    {
      MAX_TICKETS_PER_DAY: '1',
      NO_SHOW_LIMIT: '2',
      NO_SHOW_WINDOW_DAYS: '30',
      NO_SHOW_BLOCK_DAYS: '14',
    },
  );
  ({ suite, idp } = signIn);
  ({ app, admin } = suite);
});
afterAll(async () => {
  await signIn?.close();
});

describe('one person, one set of limits', () => {
  it('counts two addresses of one subject as one visitor; a guest of the same address, and another provider, apart', async () => {
    const room = await createRoom(admin, 'Subject limits');
    const slot = (from: string, to: string) => createSlot(admin, room, '2026-12-01', from, to, 5);
    const [nine, eleven, one, three] = [
      await slot('09:00', '10:00'),
      await slot('11:00', '12:00'),
      await slot('13:00', '14:00'),
      await slot('15:00', '16:00'),
    ];
    const visitor = await signedIn('limited');
    const ownerId = await booked(visitor, nine, 'limited@uni-x.de');

    // Another address of the same subject: the day's one ticket is taken.
    const refused = await bookAs(visitor, eleven, 'private.reader@example.org');
    expect(refused.status).toBe(409);
    const problem = (await refused.json()) as Problem;
    expect(problem.error).toBe('ticket__validation_error');
    expect(problem.payload).toContain('max_tickets_per_day_reached');

    // A guest with the subject's address is not the subject: counted by the address alone.
    await booked(new Client(app.baseUrl), eleven, 'limited@uni-x.de');
    // Nor is a visitor of another identity provider with that address.
    const { client: samlVisitor } = await visitorSamlSignIn(app.baseUrl, idp, SP, clock, {
      [A.pairwiseId]: ['limited@uni-x.de'],
      [A.affiliation]: ['student'],
    });
    await booked(samlVisitor, one, 'limited@uni-x.de');
    // The guest's address is now at its own limit; the subject still at theirs.
    const guestAgain = await bookAs(new Client(app.baseUrl), three, 'Limited+x@uni-x.de');
    expect(guestAgain.status).toBe(409);
    expect(await bookAs(visitor, three, 'third@example.org')).toHaveProperty('status', 409);

    // The booking's event names the subject's key, never the subject; the subject is kept
    // beside the log with the booking's personal data.
    const subject = await subjectOf(ownerId);
    expect(subject).toMatch(/!limited$/);
    const event = await suite.db.pool.query<{ data: { visitorKey: string; subjectKey: string } }>(
      `SELECT data FROM events WHERE event_type = 'TransactionBooked' AND data->>'ownerId' = $1`,
      [ownerId],
    );
    expect(event.rows[0]!.data).toMatchObject({
      visitorKey: app.deps.emailKey('limited@uni-x.de'),
      subjectKey: app.deps.subjectKey(subject!),
    });
    const inLog = await suite.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE strpos(data::text, $1) > 0`,
      [subject!],
    );
    expect(inLog.rows[0]!.n).toBe(0);
  });

  it('lets a no-show block follow the subject to another address, not a guest of its addresses', async () => {
    const room = await createRoom(admin, 'Subject no-shows');
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20, waitlistOfferMinutes: 30 },
    });
    expect(set.status).toBe(200);
    const first = await createSlot(admin, room, '2026-11-25', '09:00', '10:00', 5);
    const second = await createSlot(admin, room, '2026-11-26', '09:00', '10:00', 5);
    const later = await createSlot(admin, room, '2026-12-02', '09:00', '10:00', 5);
    const full = await createSlot(admin, room, '2026-12-03', '09:00', '10:00', 1);
    const visitor = await signedIn('absent');
    const ownerId = await booked(visitor, first, 'absent@uni-x.de');
    await booked(visitor, second, 'absent.private@example.org');
    await booked(new Client(app.baseUrl), full, 'someone@uni.example');

    clock.set(new Date('2026-11-25T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    clock.set(new Date('2026-11-26T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    const key = app.deps.subjectKey((await subjectOf(ownerId))!);
    const releases = await suite.db.pool.query<{ visitor_key: string }>(
      `SELECT DISTINCT n.visitor_key FROM visitor_no_shows n
         JOIN ticket_state t ON t.ticket_id = n.ticket_id JOIN bookings b ON b.owner_id = t.owner_id
        WHERE b.subject_key = $1`,
      [key],
    );
    expect(releases.rows).toEqual([{ visitor_key: key }]);

    // A third address of the subject (signed in anew: a sign-in lasts 8 hours): blocked at the
    // address check, the booking, the waitlist.
    const visitorNow = await signedIn('absent');
    const blocked = { error: 'booking__no_show_blocked', payload: ['until', '2026-12-09'] };
    const checked = await check(visitorNow, 'absent.third@example.org');
    expect(checked.status).toBe(403);
    expect(await checked.json()).toMatchObject(blocked);
    const booking = await bookAs(visitorNow, later, 'absent.third@example.org');
    expect(booking.status).toBe(403);
    expect(await booking.json()).toMatchObject(blocked);
    const join = await visitorNow.request('POST', `/api/timeslots/${full}/waitlist`, {
      json: { email: 'absent.third@example.org', language: 'de' },
    });
    expect(join.status).toBe(403);
    expect(await join.json()).toMatchObject(blocked);

    // A guest with the addresses the subject booked with is not blocked.
    expect((await check(new Client(app.baseUrl), 'absent@uni-x.de')).status).toBe(204);
    await booked(new Client(app.baseUrl), later, 'absent.private@example.org');

    // Staff see the block with the address of the subject's latest booking.
    const list = await admin.get('/api/admin/no-show-blocks');
    expect(list.status).toBe(200);
    expect(JSON.stringify(await list.json())).toContain(key);
  });

  it('moves and cancels a booking made signed in on the subject’s count', async () => {
    clock.set(new Date('2026-11-27T09:00:00Z'));
    const room = await createRoom(admin, 'Subject moves');
    const slot = (day: string, from: string, to: string) =>
      createSlot(admin, room, day, from, to, 5);
    const dayOneNine = await slot('2026-12-14', '09:00', '10:00');
    const dayOneEleven = await slot('2026-12-14', '11:00', '12:00');
    const dayTwoNine = await slot('2026-12-15', '09:00', '10:00');
    const dayTwoEleven = await slot('2026-12-15', '11:00', '12:00');
    const visitor = await signedIn('limited');
    const bookedTicket = async (timeSlotId: string, email: string) => {
      const r = await bookAs(visitor, timeSlotId, email);
      expect(r.status, await r.clone().text()).toBe(200);
      const b = (await r.json()) as { ownerId: string; tickets: { id: string }[] };
      return { ownerId: b.ownerId, ticketId: b.tickets[0]!.id };
    };
    const first = await bookedTicket(dayOneNine, 'limited@uni-x.de');

    // Moved to the second day: the subject now holds that day, and the first day is free.
    const moved = await visitor.request(
      'POST',
      `/api/owners/${first.ownerId}/tickets/${first.ticketId}/move`,
      { json: { timeSlotId: dayTwoNine } },
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await bookAs(visitor, dayTwoEleven, 'private.reader@example.org')).status).toBe(409);
    const second = await bookedTicket(dayOneEleven, 'private.reader@example.org');

    // Cancelled: the first day is the subject's to book again, with a third address.
    expect((await bookAs(visitor, dayOneNine, 'third@example.org')).status).toBe(409);
    const cancel = await visitor.request(
      'DELETE',
      `/api/owners/${second.ownerId}/tickets?ids=${second.ticketId}`,
    );
    expect(cancel.status, await cancel.clone().text()).toBeLessThan(300);
    await booked(visitor, dayOneNine, 'third@example.org');
  });

  it('lets one subject wait once in a slot’s line, whatever address; a guest of that address apart', async () => {
    clock.set(new Date('2026-11-27T09:00:00Z'));
    const room = await createRoom(admin, 'Subject waitlist');
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(set.status).toBe(200);
    const full = await createSlot(admin, room, '2026-12-07', '09:00', '10:00', 1);
    await booked(new Client(app.baseUrl), full, 'first@uni.example');
    const join = (c: Client, email: string) =>
      c.request('POST', `/api/timeslots/${full}/waitlist`, { json: { email, language: 'de' } });
    const visitor = await signedIn('limited');
    expect((await join(visitor, 'limited@uni-x.de')).status).toBe(201);
    const again = await join(visitor, 'private.reader@example.org');
    expect(again.status).toBe(409);
    expect(((await again.json()) as Problem).error).toBe('waitlist__already_joined');
    expect((await join(new Client(app.baseUrl), 'limited@uni-x.de')).status).toBe(201);
  });

  it('refuses a signed-in visitor whose address is blacklisted at the booking and the waitlist, storing nothing; another address of the subject books', async () => {
    clock.set(new Date('2026-11-23T09:00:00Z'));
    const room = await createRoom(admin, 'Subject blacklist');
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(set.status).toBe(200);
    const open = await createSlot(admin, room, '2026-12-09', '09:00', '10:00', 5);
    const full = await createSlot(admin, room, '2026-12-09', '11:00', '12:00', 1);
    await booked(new Client(app.baseUrl), full, 'first.in.line@uni.example');
    const entry = await admin.request('POST', '/api/admin/blacklist', {
      json: { email: 'barred@uni-x.de', expiredAt: '2027-06-30' },
    });
    expect(entry.status).toBe(201);

    // Signed in, the visitor is counted by the subject, but the blacklist knows the address: the
    // subject's own key has no entry, so only the address's entry can refuse her.
    const visitor = await signedIn('barred');
    const refusal = { error: 'booking__email_blacklisted' };
    const checked = await check(visitor, 'barred@uni-x.de');
    expect(checked.status).toBe(403);
    expect(await checked.json()).toMatchObject(refusal);
    const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: open } });
    expect(cart.status).toBe(201);
    const tx = ((await cart.json()) as { transactionId: string }).transactionId;
    const before = await eventCount();
    const booking = await visitor.request('PUT', `/api/transactions/${tx}/booking`, {
      json: { ...owner, email: 'barred@uni-x.de' },
    });
    expect(booking.status).toBe(403);
    expect(await booking.json()).toMatchObject(refusal);
    const join = await visitor.request('POST', `/api/timeslots/${full}/waitlist`, {
      json: { email: 'barred@uni-x.de', language: 'de' },
    });
    expect(join.status).toBe(403);
    expect(await join.json()).toMatchObject(refusal);
    expect(await eventCount()).toBe(before);
    const stored = await suite.db.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM personal_data WHERE email = $1)
            + (SELECT count(*) FROM waitlist_entries WHERE email = $1) AS n`,
      ['barred@uni-x.de'],
    );
    expect(Number(stored.rows[0]!.n)).toBe(0);

    // The entry is the address's, not the subject's: another address of hers books.
    await booked(visitor, open, 'barred.private@example.org');
  });

  it('erases the subject with the booking’s personal data', async () => {
    clock.set(new Date('2026-11-27T09:00:00Z'));
    const room = await createRoom(admin, 'Subject erasure');
    const slot = await createSlot(admin, room, '2026-12-04', '09:00', '10:00', 5);
    const ownerId = await booked(await signedIn('erased'), slot, 'erased@uni-x.de');
    const subject = await subjectOf(ownerId);
    expect(subject).toMatch(/!erased$/);

    clock.set(new Date('2026-12-05T07:00:00Z'));
    await erasePersonalData(app.deps);
    const left = await suite.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM personal_data WHERE subject = $1 OR owner_id = $2',
      [subject, ownerId],
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('lists the bookings the visitor made signed in on "my bookings" without a mail, whatever their address; a guest booking of the address is not hers', async () => {
    // Back to the file's first day: the test provider signs its tokens by the machine's time,
    // which the sign-in reads against the clock (a token must not have expired by it).
    clock.set(new Date('2026-11-23T09:00:00Z'));
    const room = await createRoom(admin, 'Signed-in bookings');
    const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
    const first = await createSlot(admin, room, day(3), '09:00', '10:00', 5);
    const second = await createSlot(admin, room, day(4), '09:00', '10:00', 5);
    const anonymous = new Client(app.baseUrl);
    expect((await anonymous.get('/api/my-bookings')).status).toBe(401);

    const reader = await signedIn('reader');
    const mine = [
      await booked(reader, first, 'reader@uni-x.de'),
      await booked(reader, second, 'private.reader@example.net'),
    ];
    // A guest giving her campus address: the address's booking, not the subject's.
    const guests = await booked(anonymous, second, 'reader@uni-x.de');
    const listed = async () => {
      const r = await reader.get('/api/my-bookings');
      expect(r.status, await r.clone().text()).toBe(200);
      return ((await r.json()) as { tickets: { id: string; ownerId: string }[] }).tickets;
    };
    expect((await listed()).map((t) => t.ownerId)).toEqual(mine);
    expect((await listed()).map((t) => t.ownerId)).not.toContain(guests);
    expect((await anonymous.get('/api/my-bookings')).status).toBe(401);

    // Cancelled by its owner id, as the page does: gone from the list.
    const firstTicket = (await listed()).find((t) => t.ownerId === mine[0])!;
    const cancelled = await reader.request(
      'DELETE',
      `/api/owners/${mine[0]}/tickets?ids=${firstTicket.id}`,
    );
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    await expect.poll(async () => (await listed()).map((t) => t.ownerId)).toEqual([mine[1]]);

    // Signed out: no list.
    expect((await reader.request('POST', '/api/visitor-auth/logout')).status).toBeLessThan(300);
    expect((await reader.get('/api/my-bookings')).status).toBe(401);
  });
});
