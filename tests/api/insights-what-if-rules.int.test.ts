import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, joinWaitlist, WAITLIST_OWNER } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The what-if replay's rules (docs/product.md#insights): a changed `cartHoldMinutes` moves the
 * end of every replayed hold, so a shorter hold frees a seat a later visitor was refused, and a
 * booking after its replayed hold ended is not made (its seat is freed); a waitlist join while
 * no seat is free counts as waitlisted, one while a seat is free as served; the changes' bounds
 * are validation problems. Every time is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), 'Europe/Vienna');
const MINUTE = 60_000;
let suite: AdminSuite;

interface Outcome {
  served: number;
  refused: number;
  waitlisted: number;
}
interface WhatIf {
  actual: Outcome;
  whatIf: Outcome;
  slots: { timeSlotId: string; actual: Outcome; whatIf: Outcome }[];
}

const whatIf = (json: Record<string, unknown>) =>
  suite.admin.request('POST', '/api/admin/insights/what-if', { json });

/** The replay of the room's day under `change`, answered 200. */
async function replayed(roomId: string, date: string, change: Record<string, number>) {
  const r = await whatIf({ roomId, fromDate: date, untilDate: date, change });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as WhatIf;
}

/** A new cart asks for a seat of the slot: its client and cart when it got one. */
async function ask(slotId: string): Promise<{ client: Client; cart: string } | null> {
  const client = new Client(suite.app.baseUrl);
  const r = await client.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  if (r.status === 201)
    return { client, cart: ((await r.json()) as { transactionId: string }).transactionId };
  expect(r.status).toBe(409);
  expect(((await r.json()) as { payload?: string[] }).payload?.[0]).toBe(
    'timeslot_no_tickets_left',
  );
  return null;
}

let visitors = 0;
async function book(asked: { client: Client; cart: string }) {
  visitors += 1;
  const r = await asked.client.request('PUT', `/api/transactions/${asked.cart}/booking`, {
    json: {
      salutation: 'NONE',
      firstName: 'Hedda',
      lastName: 'Halten',
      phone: '+43 1 234',
      accessibility: false,
      email: `what-if-rules${visitors}@example.at`,
      language: 'de',
    },
  });
  expect(r.status, await r.clone().text()).toBe(200);
}

/** Waits until the slot's refused requests are recorded (they are written beside the answers). */
async function refusalsRecorded(slotId: string, n: number) {
  await waitFor(
    `${n} refusals of the slot recorded`,
    async () =>
      (
        await suite.db.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM cart_refusals WHERE time_slot_id = $1',
          [slotId],
        )
      ).rows[0]!.n === n,
    budget(5000),
  );
}

beforeAll(async () => {
  // The app's carts hold their seats 15 minutes (CART_HOLD_MINUTES).
  suite = await openAdminSuite(clock, { env: { CART_HOLD_MINUTES: '15' } });
});
afterAll(async () => {
  await suite.close();
});

describe('a changed cart hold time', () => {
  it('moves the end of every replayed hold: a shorter one frees the seat for visitors refused', async () => {
    const roomId = await createRoom(suite.admin, 'Hold time room', { openStartValue: 0 });
    const date = addDays(today(), 3);
    const slot = await createSlot(suite.admin, roomId, date, '10:00', '12:00', 1);
    // Minute 0: A holds the only seat. Minute 10: B is refused. Minute 14: A books, within its
    // 15 minutes. Minute 20: C is refused (A booked the seat).
    const a = await ask(slot);
    expect(a).not.toBeNull();
    clock.advance(10 * MINUTE);
    expect(await ask(slot)).toBeNull();
    clock.advance(4 * MINUTE);
    await book(a!);
    clock.advance(6 * MINUTE);
    expect(await ask(slot)).toBeNull();
    await refusalsRecorded(slot, 2);
    const actual = { served: 1, refused: 2, waitlisted: 0 };

    // The actual hold time replays what happened.
    const same = await replayed(roomId, date, { cartHoldMinutes: 15 });
    expect([same.actual, same.whatIf]).toEqual([actual, actual]);

    // 12 minutes: A's hold still holds the seat at minute 10 (B refused), but it ended before
    // A's booking at minute 14, so that booking is not made and C, at minute 20, gets the seat.
    const twelve = await replayed(roomId, date, { cartHoldMinutes: 12 });
    expect(twelve.actual).toEqual(actual);
    expect(twelve.whatIf).toEqual({ served: 2, refused: 1, waitlisted: 0 });

    // 5 minutes: A's hold ends at minute 5, B gets the seat at minute 10 (held until minute 15),
    // A's booking is not made, and C gets the seat at minute 20: every request served.
    const five = await replayed(roomId, date, { cartHoldMinutes: 5 });
    expect(five.actual).toEqual(actual);
    expect(five.whatIf).toEqual({ served: 3, refused: 0, waitlisted: 0 });
    expect(five.slots).toEqual([
      expect.objectContaining({
        timeSlotId: slot,
        actual,
        whatIf: { served: 3, refused: 0, waitlisted: 0 },
      }),
    ]);
  });
});

describe('waitlist joins in the replay', () => {
  it('count as waitlisted while no seat is free, as served when the replay has one', async () => {
    const roomId = await createRoom(suite.admin, 'Waitlist replay room', { openStartValue: 0 });
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(services.status).toBe(200);
    const date = addDays(today(), 4);
    const slot = await createSlot(suite.admin, roomId, date, '14:00', '16:00', 1);
    const a = await ask(slot);
    expect(a).not.toBeNull();
    await book(a!);
    // Two readers join the full slot's line.
    for (const email of ['line1@example.at', 'line2@example.at']) {
      clock.advance(MINUTE);
      const joined = await joinWaitlist(new Client(suite.app.baseUrl), slot, {
        ...WAITLIST_OWNER,
        email,
        language: 'de',
      });
      expect(joined.status, await joined.clone().text()).toBe(201);
    }
    const actual = { served: 1, refused: 0, waitlisted: 2 };
    const same = await replayed(roomId, date, { capacity: 1 });
    expect([same.actual, same.whatIf]).toEqual([actual, actual]);
    // With a second seat the first joiner would have had it, the second still waits.
    const two = await replayed(roomId, date, { capacity: 2 });
    expect(two.actual).toEqual(actual);
    expect(two.whatIf).toEqual({ served: 2, refused: 0, waitlisted: 1 });
  });
});

describe('the changes', () => {
  it('refuse a hold time outside 1-1440 minutes and a capacity over 99999 as validation problems', async () => {
    const roomId = await createRoom(suite.admin, 'Bounds room', { openStartValue: 0 });
    const date = addDays(today(), 5);
    await createSlot(suite.admin, roomId, date, '08:00', '09:00', 3);
    const body = (change: Record<string, number>) => ({
      roomId,
      fromDate: date,
      untilDate: date,
      change,
    });
    for (const [change, field] of [
      [{ cartHoldMinutes: 0 }, 'cartHoldMinutes'],
      [{ cartHoldMinutes: 1441 }, 'cartHoldMinutes'],
      [{ cartHoldMinutes: 2.5 }, 'cartHoldMinutes'],
      [{ capacity: 100_000 }, 'capacity'],
      [{ capacity: 5, cartHoldMinutes: 1441 }, 'cartHoldMinutes'],
    ] as const) {
      const r = await whatIf(body(change));
      expect(r.status, JSON.stringify(change)).toBe(400);
      const problem = (await r.json()) as { error: string; errors: { field: string }[] };
      expect(problem.error).toBe('validation__error');
      expect(problem.errors.map((e) => e.field)).toEqual([`change.${field}`]);
    }
    // The bounds themselves are taken.
    const bounds: Record<string, number>[] = [
      { cartHoldMinutes: 1 },
      { cartHoldMinutes: 1440 },
      { capacity: 99999 },
    ];
    for (const change of bounds)
      expect((await whatIf(body(change))).status, JSON.stringify(change)).toBe(200);
  });
});
