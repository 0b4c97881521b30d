import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseNoShows } from '@rr/command-service';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * A staff booking into a slot that has started is the reader standing at the desk
 * (docs/product.md#check-in-and-no-show-release): checked in with the booking, so the release job
 * does not release it as a no-show, and staff see it checked in. A booking before the start is
 * checked in as any other. Every time is the injected clock's.
 */
const DAY = '2026-11-23';
/** The instant of a local time (Vienna, UTC+1 in November). */
const local = (time: string) => new Date(`${DAY}T${time}:00+01:00`);
const clock = new ManualClock(local('20:00'));

let suite: AdminSuite;
let roomId: string;

async function staffBook(timeSlotId: string) {
  const r = await suite.admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/timeslots/${timeSlotId}/booking`,
    {
      json: {
        salutation: 'MS',
        firstName: 'Walk',
        lastName: 'In',
        phone: '+43111222',
        accessibility: false,
        confirmOverbooking: true,
      },
    },
  );
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json()) as { ticketId: string; checkedInAt: string | null; position: string };
}

async function staffTicket(ticketId: string, position: string) {
  const r = await suite.admin.get(`/api/admin/tickets/${ticketId}`, {
    'X-Min-Position': position,
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { status: string; checkedInAt: string | null; noShow: boolean };
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Abendsaal');
  const set = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await suite.close();
});

describe('a walk-in booked at the desk', () => {
  it('into a running slot is checked in with the booking and never released as a no-show', async () => {
    const late = await createSlot(suite.admin, roomId, DAY, '23:00', '23:59', 5);
    const early = await createSlot(suite.admin, roomId, DAY, '21:00', '22:00', 5);
    // 20:30: the 21:00 slot has not started; its booking waits for a check-in as any other.
    clock.set(local('20:30'));
    const ahead = await staffBook(early);
    // 23:35: the 23:00 slot is running (its release minute, 23:20, has passed).
    clock.set(local('23:35'));
    const walkIn = await staffBook(late);

    // 23:55: the release job releases the early booking nobody checked in, not the walk-in.
    clock.set(local('23:55'));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    // The desk's answers said so too: the walk-in checked in, the earlier booking not.
    expect(walkIn.checkedInAt).toBe(local('23:35').toISOString());
    expect(ahead.checkedInAt).toBeNull();
    const events = await suite.db.pool.query<{ ticket: string }>(
      `SELECT data->>'ticketId' AS ticket FROM events WHERE event_type = 'TicketNoShowReleased'`,
    );
    expect(events.rows.map((e) => e.ticket)).toEqual([ahead.ticketId]);
    expect(await staffTicket(walkIn.ticketId, walkIn.position)).toMatchObject({
      status: 'BOOKED',
      checkedInAt: local('23:35').toISOString(),
      noShow: false,
    });
  });
});
