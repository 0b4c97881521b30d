import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalData, releaseNoShows } from '@rr/command-service';
import { ManualClock } from '@rr/platform';
import { addUser, Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';

// The no-show rule (docs/product.md#no-show-rule): two no-shows within 30 days block for 14.
// Monday 23 Nov 2026, 10:00 in Vienna.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let suite: AdminSuite;
let app: TestApp;
let admin: Client;

const owner = {
  salutation: 'MS',
  firstName: 'Nora',
  lastName: 'Nichtda',
  phone: '+436641234567',
  language: 'de',
};
const ADDRESS = 'noshow.reader@uni.example';

async function cartOf(c: Client, timeSlotId: string): Promise<string> {
  const r = await c.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(r.status, await r.clone().text()).toBe(201);
  return ((await r.json()) as { transactionId: string }).transactionId;
}
async function bookAs(timeSlotId: string, email: string): Promise<Response> {
  const v = new Client(app.baseUrl);
  const tx = await cartOf(v, timeSlotId);
  return v.request('PUT', `/api/transactions/${tx}/booking`, { json: { ...owner, email } });
}
const check = (email: string) =>
  new Client(app.baseUrl).request('POST', '/api/email-check', { json: { email } });
const rows = async () =>
  (
    await suite.db.pool.query<{ visitor_key: string; date: string }>(
      `SELECT visitor_key, to_char(date, 'YYYY-MM-DD') AS date FROM visitor_no_shows ORDER BY date`,
    )
  ).rows;

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: { NO_SHOW_LIMIT: '2', NO_SHOW_WINDOW_DAYS: '30', NO_SHOW_BLOCK_DAYS: '14' },
  });
  ({ app, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('the no-show rule', () => {
  it('blocks an address with two no-show releases in 30 days for 14 days, then forgets them', async () => {
    const room = await createRoom(admin, 'No-show room');
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20, waitlistOfferMinutes: 30 },
    });
    expect(set.status).toBe(200);
    const first = await createSlot(admin, room, '2026-11-25', '09:00', '10:00', 5);
    const second = await createSlot(admin, room, '2026-11-26', '09:00', '10:00', 5);
    const later = await createSlot(admin, room, '2026-12-10', '09:00', '10:00', 5);
    const full = await createSlot(admin, room, '2026-12-11', '09:00', '10:00', 1);
    expect((await bookAs(first, ADDRESS)).status).toBe(200);
    expect((await bookAs(second, 'NoShow.Reader+zwei@uni.example')).status).toBe(200);
    expect((await bookAs(full, 'someone@uni.example')).status).toBe(200);

    // Wednesday 09:30: the first slot's ticket was not checked in by 09:20.
    clock.set(new Date('2026-11-25T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    expect(await rows()).toEqual([{ visitor_key: app.deps.emailKey(ADDRESS), date: '2026-11-25' }]);
    expect((await check(ADDRESS)).status).toBe(204);

    // Thursday: the second one, of the same person by another spelling.
    clock.set(new Date('2026-11-26T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    expect((await rows()).map((r) => r.date)).toEqual(['2026-11-25', '2026-11-26']);
    const blocked = { error: 'booking__no_show_blocked', payload: ['until', '2026-12-09'] };
    const refused = await check('noshow.reader+neu@uni.example');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject(blocked);
    const booking = await bookAs(later, ADDRESS);
    expect(booking.status).toBe(403);
    expect(await booking.json()).toMatchObject(blocked);
    const join = await new Client(app.baseUrl).request('POST', `/api/timeslots/${full}/waitlist`, {
      json: { email: ADDRESS, language: 'de' },
    });
    expect(join.status).toBe(403);
    expect(await join.json()).toMatchObject(blocked);
    expect((await bookAs(later, 'other.reader@uni.example')).status).toBe(200);

    // The block's last day, then the day after.
    clock.set(new Date('2026-12-09T07:00:00Z'));
    expect((await check(ADDRESS)).status).toBe(403);
    clock.set(new Date('2026-12-10T07:00:00Z'));
    expect((await check(ADDRESS)).status).toBe(204);

    // Kept while the window and a block from it may last (30 + 14 days), then erased.
    clock.set(new Date('2027-01-07T07:00:00Z'));
    await erasePersonalData(app.deps);
    expect((await rows()).map((r) => r.date)).toEqual(['2026-11-25', '2026-11-26']);
    clock.set(new Date('2027-01-08T07:00:00Z'));
    await erasePersonalData(app.deps);
    expect((await rows()).map((r) => r.date)).toEqual(['2026-11-26']);
    clock.set(new Date('2027-01-09T07:00:00Z'));
    await erasePersonalData(app.deps);
    expect(await rows()).toEqual([]);
  });

  it('lists the blocked addresses to staff, and an admin lifts a block with the lift recorded', async () => {
    // Monday 1 February 2027.
    clock.set(new Date('2027-02-01T09:00:00Z'));
    const LIFTED = 'lift.reader@uni.example';
    const key = app.deps.emailKey(LIFTED);
    const room = await createRoom(admin, 'Lift room');
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
    });
    expect(set.status).toBe(200);
    const first = await createSlot(admin, room, '2027-02-03', '09:00', '10:00', 5);
    const second = await createSlot(admin, room, '2027-02-04', '09:00', '10:00', 5);
    const after = await createSlot(admin, room, '2027-02-10', '09:00', '10:00', 5);
    const again = await createSlot(admin, room, '2027-02-11', '09:00', '10:00', 5);
    expect((await bookAs(first, LIFTED)).status).toBe(200);
    expect((await bookAs(second, LIFTED)).status).toBe(200);
    clock.set(new Date('2027-02-03T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    clock.set(new Date('2027-02-04T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);

    // Staff see the address as the booking stored it, the counted days and the last blocked day.
    const list = await admin.get('/api/admin/no-show-blocks');
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({
      content: [
        {
          key,
          email: LIFTED,
          noShowDays: ['2027-02-03', '2027-02-04'],
          blockedUntil: '2027-02-17',
        },
      ],
    });

    // Who may: reports read, only admins lift; check-in staff and the public neither.
    await addUser(suite.db, 'reader', 'correct horse', ['reports']);
    await addUser(suite.db, 'desk', 'correct horse', ['checkin']);
    const reports = new Client(app.baseUrl);
    expect((await reports.login('reader', 'correct horse')).status).toBe(200);
    const desk = new Client(app.baseUrl);
    expect((await desk.login('desk', 'correct horse')).status).toBe(200);
    const anonymous = new Client(app.baseUrl);
    expect((await reports.get('/api/admin/no-show-blocks')).status).toBe(200);
    expect((await reports.request('DELETE', `/api/admin/no-show-blocks/${key}`)).status).toBe(403);
    expect((await desk.get('/api/admin/no-show-blocks')).status).toBe(403);
    expect((await desk.request('DELETE', `/api/admin/no-show-blocks/${key}`)).status).toBe(403);
    expect((await anonymous.get('/api/admin/no-show-blocks')).status).toBe(401);
    expect((await anonymous.request('DELETE', `/api/admin/no-show-blocks/${key}`)).status).toBe(
      401,
    );

    // A malformed key is bad input; a key that is not blocked is unknown.
    const bad = await admin.request('DELETE', '/api/admin/no-show-blocks/not-a-key');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const unknown = await admin.request(
      'DELETE',
      `/api/admin/no-show-blocks/${app.deps.emailKey('never.absent@uni.example')}`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');

    // The lift, with its actor and time; the address books again and leaves the list.
    clock.set(new Date('2027-02-05T10:00:00Z'));
    expect((await bookAs(after, LIFTED)).status).toBe(403);
    const lift = await admin.request('DELETE', `/api/admin/no-show-blocks/${key}`);
    expect(lift.status).toBe(200);
    expect(await lift.json()).toEqual({ liftedThrough: '2027-02-04' });
    const recorded = await suite.db.pool.query<{
      lifted_through: string;
      actor: unknown;
      lifted_at: Date;
    }>(
      `SELECT to_char(lifted_through, 'YYYY-MM-DD') AS lifted_through, actor, lifted_at
         FROM visitor_no_show_lifts WHERE visitor_key = $1`,
      [key],
    );
    expect(recorded.rows).toEqual([
      {
        lifted_through: '2027-02-04',
        actor: { kind: 'admin', username: 'boss' },
        lifted_at: new Date('2027-02-05T10:00:00Z'),
      },
    ]);
    // The lift is the admin's event on the key's no-show stream: the key, never the address.
    const lifted = await suite.db.pool.query<{ event_type: string; data: unknown; actor: unknown }>(
      `SELECT event_type, data, metadata->'actor' AS actor FROM events WHERE stream_id = $1`,
      [`no-shows-${key}`],
    );
    expect(lifted.rows).toEqual([
      {
        event_type: 'NoShowBlockLifted',
        data: { visitorKey: key, liftedThrough: '2027-02-04' },
        actor: { kind: 'admin', username: 'boss' },
      },
    ]);
    expect(await (await admin.get('/api/admin/no-show-blocks')).json()).toEqual({ content: [] });
    expect((await admin.request('DELETE', `/api/admin/no-show-blocks/${key}`)).status).toBe(404);
    expect((await check(LIFTED)).status).toBe(204);
    expect((await bookAs(after, LIFTED)).status).toBe(200);
    expect((await bookAs(again, LIFTED)).status).toBe(200);

    // Later releases count from none: one is below the limit, a second blocks again.
    clock.set(new Date('2027-02-10T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    expect((await check(LIFTED)).status).toBe(204);
    clock.set(new Date('2027-02-11T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    expect((await check(LIFTED)).status).toBe(403);

    // The lift goes with the releases it covers (30 + 14 days after its last day).
    const lifts = async () =>
      (await suite.db.pool.query('SELECT 1 FROM visitor_no_show_lifts')).rowCount;
    clock.set(new Date('2027-03-19T07:00:00Z'));
    await erasePersonalData(app.deps);
    expect(await lifts()).toBe(1);
    clock.set(new Date('2027-03-20T07:00:00Z'));
    await erasePersonalData(app.deps);
    expect(await lifts()).toBe(0);
    expect((await rows()).map((r) => r.date)).toEqual(['2027-02-10', '2027-02-11']);
  });
});

describe('a ticket released as a no-show', () => {
  it("still counts for its visitor's tickets of that day", async () => {
    // Monday 30 Nov 2026, 08:00 in Vienna.
    clock.set(new Date('2026-11-30T07:00:00Z'));
    const room = await createRoom(admin, 'Day limit room', OPEN_FROM_TODAY);
    const set = await admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
    });
    expect(set.status).toBe(200);
    const missed = await createSlot(admin, room, '2026-11-30', '09:00', '10:00', 5);
    const noon = await createSlot(admin, room, '2026-11-30', '12:00', '13:00', 5);
    const evening = await createSlot(admin, room, '2026-11-30', '17:00', '18:00', 5);
    const email = 'day.limit@uni.example';
    expect((await bookAs(missed, email)).status).toBe(200);

    // 09:30: not checked in by 09:20, released; one release does not block (the rule needs two).
    clock.set(new Date('2026-11-30T08:30:00Z'));
    expect(await releaseNoShows(app.deps)).toBe(1);
    const v = new Client(app.baseUrl);
    const tx = await cartOf(v, noon);
    const added = await v.request('POST', `/api/transactions/${tx}/tickets`, {
      json: { timeSlotId: evening },
    });
    expect(added.status, await added.clone().text()).toBe(201);
    // The day's limit is 2: the released ticket and the two of the cart are three.
    const refused = await v.request('PUT', `/api/transactions/${tx}/booking`, {
      json: { ...owner, email },
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['max_tickets_per_day_reached', '2026-11-30', '2'],
    });
    expect((await bookAs(noon, email)).status).toBe(200);
  });
});
