import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseNoShows } from '@rr/command-service';
import { addDays } from '@rr/domain';
import { checkInCodes, ManualClock } from '@rr/platform';
import {
  addUser,
  Client,
  openAdminSuite,
  TEST_KEY_SECRET,
  type AdminSuite,
} from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  type NewVisitorBooking,
} from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';

/**
 * Check-in and no-show release, by the injected clock: the time window, undo, the
 * check-in role, check-in by QR reference and booking number, the release job and its race
 * against a check-in at the release minute. All dates follow the clock.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // 09:00 in Vienna (UTC+1 in November)
const clock = new ManualClock(BASE);
const TODAY = BASE.toISOString().slice(0, 10);
const DAY = addDays(TODAY, 3);
/** The instant of a local time (Vienna, UTC+1 in November and December) of a day. */
const local = (date: string, time: string) => new Date(`${date}T${time}:00+01:00`);

let suite: AdminSuite;
let desk: Client;
let checkInRoom: string;
let plainRoom: string;
let slot: string;
let plainSlot: string;
const codes = checkInCodes(TEST_KEY_SECRET);

type Booked = NewVisitorBooking;

/** Books one ticket of a slot as a new visitor (own e-mail: no per-visitor limit meets another). */
const book = (timeSlotId: string, language: 'de' | 'en' = 'de'): Promise<Booked> =>
  bookAsNewVisitor(suite.app.baseUrl, [timeSlotId], language);

async function refusal(
  res: Response,
): Promise<{ status: number; error: string; payload: string[] }> {
  const body = (await res.json()) as { error: string; payload?: string[] };
  return { status: res.status, error: body.error, payload: body.payload ?? [] };
}

const checkIn = (c: Client, ticketId: string) =>
  c.request('POST', `/api/admin/tickets/${ticketId}/check-in`);
const undo = (c: Client, ticketId: string) =>
  c.request('DELETE', `/api/admin/tickets/${ticketId}/check-in`);

/** A ticket as staff see it, after the last write of the desk's client (read your writes). */
async function staffTicket(ticketId: string) {
  if (desk.lastPosition) suite.admin.lastPosition = desk.lastPosition;
  const res = await suite.admin.get(`/api/admin/tickets/${ticketId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    status: string;
    checkIn: boolean;
    checkedInAt: string | null;
    noShow: boolean;
    noShowCount: number;
  };
}

async function services(roomId: string, body: Record<string, number | null>) {
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: body,
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  await addUser(suite.db, 'desk', 'check them in', ['checkin']);
  desk = new Client(suite.app.baseUrl);
  expect((await desk.login('desk', 'check them in')).status).toBe(200);
  const open = { openStartValue: 0, openStartType: 'DAY', openEndValue: 365, openEndType: 'DAY' };
  checkInRoom = await createRoom(suite.admin, 'Check-in room', open);
  await services(checkInRoom, { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 });
  plainRoom = await createRoom(suite.admin, 'Plain room', open);
  slot = await createSlot(suite.admin, checkInRoom, DAY, '10:00', '12:00', 20);
  plainSlot = await createSlot(suite.admin, plainRoom, DAY, '10:00', '12:00', 20);
});
afterAll(async () => {
  await suite.close();
});

describe('check-in', () => {
  it('is open from checkInMinutesBefore before the start until the release minute, by the clock', async () => {
    const t = await book(slot);
    clock.set(local(DAY, '09:44'));
    const early = await refusal(await checkIn(desk, t.ticketId));
    expect(early).toEqual({
      status: 409,
      error: 'check_in__not_open',
      payload: ['window', `${DAY} 09:45`, `${DAY} 10:20`],
    });
    clock.set(local(DAY, '09:45'));
    const ok = await checkIn(desk, t.ticketId);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      ticketId: t.ticketId,
      status: 'BOOKED',
      checkedInAt: local(DAY, '09:45').toISOString(),
    });
    expect(await refusal(await checkIn(desk, t.ticketId))).toEqual({
      status: 409,
      error: 'check_in__already_checked_in',
      payload: ['at', local(DAY, '09:45').toISOString()],
    });
    // Staff and the owner's confirmation see it.
    expect(await staffTicket(t.ticketId)).toMatchObject({
      checkIn: true,
      checkedInAt: local(DAY, '09:45').toISOString(),
      noShow: false,
    });
    const mine = (await (await t.client.get(`/api/owners/${t.ownerId}/tickets`)).json()) as {
      checkedInAt: string | null;
      checkIn: boolean;
    }[];
    expect(mine[0]).toMatchObject({
      checkIn: true,
      checkedInAt: local(DAY, '09:45').toISOString(),
    });

    const late = await book(slot);
    clock.set(local(DAY, '10:21'));
    expect((await refusal(await checkIn(desk, late.ticketId))).error).toBe('check_in__not_open');
    clock.set(BASE);
  });

  it('can be undone within 10 minutes, then checked in again', async () => {
    const t = await book(slot);
    clock.set(local(DAY, '10:00'));
    expect((await checkIn(desk, t.ticketId)).status).toBe(200);
    clock.set(local(DAY, '10:10'));
    const undone = await undo(desk, t.ticketId);
    expect(undone.status).toBe(200);
    expect(await undone.json()).toMatchObject({ checkedInAt: null, status: 'BOOKED' });
    expect((await staffTicket(t.ticketId)).checkedInAt).toBeNull();
    expect((await refusal(await undo(desk, t.ticketId))).error).toBe('check_in__not_checked_in');
    expect((await checkIn(desk, t.ticketId)).status).toBe(200);
    clock.set(local(DAY, '10:21'));
    clock.advance(1);
    expect(await refusal(await undo(desk, t.ticketId))).toEqual({
      status: 409,
      error: 'check_in__undo_expired',
      payload: ['minutes', '10'],
    });
    clock.set(BASE);
  });

  it('is refused in a room without check-in, whose tickets answer as before (checkedInAt null)', async () => {
    const t = await book(plainSlot);
    clock.set(local(DAY, '10:00'));
    expect((await refusal(await checkIn(suite.admin, t.ticketId))).error).toBe(
      'check_in__not_offered',
    );
    expect(await staffTicket(t.ticketId)).toMatchObject({
      status: 'BOOKED',
      checkIn: false,
      checkedInAt: null,
      noShow: false,
    });
    const qr = await t.client.get(`/api/owners/${t.ownerId}/tickets/${t.ticketId}/check-in.svg`);
    expect(qr.status).toBe(404);
    clock.set(BASE);
  });

  it('works by QR reference or by a booking number of today, case-insensitive', async () => {
    const byRef = await book(slot);
    const byNumber = await book(slot);
    clock.set(local(DAY, '09:50'));
    const scan = await desk.request('POST', '/api/admin/check-in', {
      json: { code: codes.codeOf(byRef.ticketId) },
    });
    expect(scan.status).toBe(200);
    expect(((await scan.json()) as { ticketId: string }).ticketId).toBe(byRef.ticketId);
    const typed = await desk.request('POST', '/api/admin/check-in', {
      json: { code: ` ${byNumber.bookingNumber.toLowerCase()} ` },
    });
    expect(typed.status).toBe(200);
    expect(((await typed.json()) as { ticketId: string }).ticketId).toBe(byNumber.ticketId);
    for (const code of ['R-NOPE00', `${byRef.ticketId}.AAAAAAAAAAAAAAAAAAAAAA`, byRef.ticketId]) {
      const res = await desk.request('POST', '/api/admin/check-in', { json: { code } });
      expect(res.status, code).toBe(404);
    }
    expect((await desk.request('POST', '/api/admin/check-in', { json: { code: '' } })).status).toBe(
      400,
    );
    // A booking number of another day is not today's.
    clock.set(local(addDays(DAY, 1), '09:50'));
    const otherDay = await desk.request('POST', '/api/admin/check-in', {
      json: { code: byNumber.bookingNumber },
    });
    expect(otherDay.status).toBe(404);
    clock.set(BASE);
  });

  it("the owner's confirmation link serves each check-in ticket's QR code as SVG", async () => {
    const t = await book(slot);
    const qr = await new Client(suite.app.baseUrl).get(
      `/api/owners/${t.ownerId}/tickets/${t.ticketId}/check-in.svg`,
    );
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toContain('image/svg+xml');
    expect(await qr.text()).toContain('<svg');
    const wrongOwner = await new Client(suite.app.baseUrl).get(
      `/api/owners/${'0'.repeat(32)}/tickets/${t.ticketId}/check-in.svg`,
    );
    expect(wrongOwner.status).toBe(404);
  });
});

describe('the check-in role', () => {
  it('may check in and read the check-in list, and nothing else of the staff API', async () => {
    const t = await book(slot);
    clock.set(local(DAY, '09:55'));
    const day = await desk.get('/api/admin/check-in');
    expect(day.status).toBe(200);
    const body = (await day.json()) as {
      date: string;
      rooms: { roomId: string; tickets: { id: string; lastName: string | null }[] }[];
    };
    expect(body.date).toBe(DAY);
    expect(body.rooms.map((r) => r.roomId)).toEqual([checkInRoom]);
    expect(body.rooms[0]!.tickets.map((x) => x.id)).toContain(t.ticketId);
    expect((await checkIn(desk, t.ticketId)).status).toBe(200);
    expect((await undo(desk, t.ticketId)).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/admin/tickets'],
      ['GET', `/api/admin/tickets/${t.ticketId}`],
      ['GET', '/api/admin/rooms'],
      ['GET', '/api/admin/tickets/report?roomId=' + checkInRoom],
      ['DELETE', `/api/admin/tickets?ids=${t.ticketId}`],
      ['PUT', `/api/admin/rooms/${checkInRoom}/services`],
    ] as const) {
      const res = await desk.request(method, path, method === 'PUT' ? { json: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const me = (await (await desk.get('/api/auth/me')).json()) as { roles: string[] };
    expect(me.roles).toEqual(['checkin']);
    // A reports-only user may read the list (as every staff list) but not check in.
    await addUser(suite.db, 'reporter', 'reports only', ['reports']);
    const reporter = new Client(suite.app.baseUrl);
    await reporter.login('reporter', 'reports only');
    expect((await checkIn(reporter, t.ticketId)).status).toBe(403);
    expect((await reporter.get('/api/admin/check-in')).status).toBe(200);
    clock.set(BASE);
  });
});

describe('no-show release', () => {
  it('releases booked tickets not checked in from start + noShowReleaseMinutes on, as system', async () => {
    // Far from the other tests' days: the job also releases yesterday's tickets.
    const day = addDays(DAY, 5);
    const s = await createSlot(suite.admin, checkInRoom, day, '10:00', '12:00', 3);
    const plain = await createSlot(suite.admin, plainRoom, day, '10:00', '12:00', 3);
    const noShow = await book(s, 'en');
    const present = await book(s);
    const elsewhere = await book(plain);
    clock.set(local(day, '10:05'));
    expect((await checkIn(desk, present.ticketId)).status).toBe(200);
    clock.set(local(day, '10:19'));
    expect(await releaseNoShows(suite.app.deps)).toBe(0);
    clock.set(local(day, '10:20'));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    expect(await releaseNoShows(suite.app.deps)).toBe(0);

    // The job answers no position: the read model follows shortly.
    await expect
      .poll(() => staffTicket(noShow.ticketId), { timeout: budget(5000) })
      .toMatchObject({ status: 'INVALID', noShow: true, noShowCount: 1 });
    expect(await staffTicket(present.ticketId)).toMatchObject({ status: 'BOOKED', noShow: false });
    expect(await staffTicket(elsewhere.ticketId)).toMatchObject({
      status: 'BOOKED',
      noShow: false,
    });
    const events = await suite.db.pool.query<{ metadata: { actor: unknown } }>(
      `SELECT metadata FROM events WHERE event_type = 'TicketNoShowReleased' AND data->>'ticketId' = $1`,
      [noShow.ticketId],
    );
    expect(events.rows.map((r) => r.metadata.actor)).toEqual([
      { kind: 'system', job: 'no-show-release' },
    ]);
    // Staff see the no-show in the reservations list (status filter NO_SHOW, with the
    // visitor's count) and in the occupancy report (a column per slot; the rate of the slot's
    // booked tickets).
    const list = (await (
      await suite.admin.get(`/api/admin/tickets?status=NO_SHOW&fromDate=${day}&untilDate=${day}`)
    ).json()) as {
      content: { id: string; noShow: boolean; noShowCount: number }[];
      totalCount: number;
    };
    expect(list.totalCount).toBe(1);
    expect(list.content[0]).toMatchObject({ id: noShow.ticketId, noShow: true, noShowCount: 1 });
    const report = (await (
      await suite.admin.get(
        `/api/admin/tickets/report?roomId=${checkInRoom}&fromDate=${day}&untilDate=${day}&status=BOOKED`,
      )
    ).json()) as {
      timeSlotId: string;
      count: number;
      noShows: number;
      noShowRate: number | null;
    }[];
    expect(report.find((x) => x.timeSlotId === s)).toMatchObject({
      count: 1,
      noShows: 1,
      noShowRate: 50,
    });
    // Too late to check in a released ticket.
    expect(await refusal(await checkIn(desk, noShow.ticketId))).toEqual({
      status: 409,
      error: 'ticket__not_booked',
      payload: ['INVALID'],
    });
    // The seat is free again in the calendar (1 of 3 taken), and bookable in this room (its
    // booking window starts today), for the rest of the slot.
    const cal = (await (
      await new Client(suite.app.baseUrl).get(
        `/api/rooms/${checkInRoom}/booking?fromDate=${day}&untilDate=${day}`,
      )
    ).json()) as { id: string; ticketCount: number }[];
    expect(cal.find((x) => x.id === s)?.ticketCount).toBe(1);
    const again = await book(s);
    expect(again.ticketId).toBeTruthy();
    clock.set(BASE);
  });
});

describe('a check-in and a release racing at the release minute', () => {
  it('leave each ticket either checked in or released, never both', async () => {
    const days = 10;
    const perDay = 5;
    const outcomes = { checkedIn: 0, released: 0 };
    for (let d = 0; d < days; d++) {
      const day = addDays(DAY, 10 + d);
      clock.set(BASE);
      const s = await createSlot(suite.admin, checkInRoom, day, '10:00', '12:00', perDay);
      const tickets: Booked[] = [];
      for (let i = 0; i < perDay; i++) tickets.push(await book(s));
      clock.set(local(day, '10:20'));
      const [answers] = await Promise.all([
        Promise.all(tickets.map((t) => checkIn(desk, t.ticketId))),
        // Two job rounds at once (two processes, or a round overrunning its interval).
        releaseNoShows(suite.app.deps),
        releaseNoShows(suite.app.deps),
      ]);
      for (const [i, t] of tickets.entries()) {
        const r = await suite.db.pool.query<{ event_type: string }>(
          `SELECT event_type FROM events WHERE stream_id = $1 AND data->>'ticketId' = $2
              AND event_type IN ('TicketCheckedIn', 'TicketNoShowReleased')`,
          [`timeslot-${s}`, t.ticketId],
        );
        const types = r.rows.map((x) => x.event_type);
        expect(types, t.ticketId).toHaveLength(1);
        const answer = answers[i]!;
        if (types[0] === 'TicketCheckedIn') {
          expect(answer.status).toBe(200);
          outcomes.checkedIn += 1;
        } else {
          expect(await refusal(answer)).toEqual({
            status: 409,
            error: 'ticket__not_booked',
            payload: ['INVALID'],
          });
          outcomes.released += 1;
        }
      }
    }
    expect(outcomes.checkedIn + outcomes.released).toBe(days * perDay);
    console.log(
      `check-in vs release at the release minute: ${days * perDay} races, ${outcomes.checkedIn} checked in first, ${outcomes.released} released first, 0 both`,
    );
    clock.set(BASE);
  });
});
