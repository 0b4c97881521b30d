// A small opening rush through the API: more visitors than seats, each walking the SPA's
// journey (tests/support/rush.ts). Not timed; `npm run bench:rush` measures the large one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { runRush, type RushSend } from '../support/rush.ts';

// Monday 23 Nov 2026, 10:00 in Vienna; the seats are on Thursday, inside the rooms' window.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const DAY = '2026-11-26';
const VISITORS = 100;
const ROOMS = 2;
const SLOTS_PER_ROOM = 2;
const CAPACITY = 5;
const SEATS = ROOMS * SLOTS_PER_ROOM * CAPACITY;

let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(() => suite.close());

describe('the opening rush', () => {
  it('books exactly the seats there are, answers every visitor and no 5xx', async () => {
    const slots: string[] = [];
    for (let r = 0; r < ROOMS; r++) {
      const roomId = await createRoom(suite.admin, `Rush room ${r + 1}`, { capacity: CAPACITY });
      slots.push(await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', CAPACITY));
      slots.push(await createSlot(suite.admin, roomId, DAY, '12:00', '14:00', CAPACITY));
    }
    const send: RushSend = async (method, path, body, headers = {}) => {
      const res = await fetch(suite.app.baseUrl + path, {
        method,
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as unknown) : null,
        retryAfter: res.headers.get('retry-after'),
        stale: res.headers.get('x-read-stale') === 'true',
      };
    };
    const rush = await runRush({
      visitors: VISITORS,
      seconds: 2,
      fromDate: '2026-11-01',
      untilDate: '2026-11-30',
      day: DAY,
      send,
    });

    expect(rush.answered).toBe(VISITORS);
    expect(rush.serverErrors).toBe(0);
    expect(rush.otherErrors).toBe(0);
    expect(rush.seatsBooked).toBe(SEATS);
    // More visitors than seats: some found nothing free.
    expect(rush.gaveUp).toBeGreaterThan(0);
    // The log agrees with the answers: each seat booked once, none held beyond its capacity.
    const booked = await suite.db.pool.query<{ stream_id: string; n: number }>(
      `SELECT stream_id, count(*)::int AS n FROM events
        WHERE event_type = 'TicketBooked' AND stream_id = ANY($1) GROUP BY stream_id`,
      [slots.map((id) => `timeslot-${id}`)],
    );
    expect(booked.rows.reduce((sum, r) => sum + r.n, 0)).toBe(SEATS);
    expect(booked.rows.every((r) => r.n === CAPACITY)).toBe(true);
  });
});
