import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueTransactions } from '@rr/command-service';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { seededRandom } from '../support/random.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The what-if replay (docs/product.md#insights): with the actual rules it reproduces what
 * happened, served and refused per slot; more seats serve the refused; fewer tickets per visitor
 * and day refuse the adds and bookings the test counts; a period with more events than the cap
 * is refused with insights__replay_too_large. Every time is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), 'Europe/Vienna');
const MAX_EVENTS = 300;
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

/** A new cart asks for a seat of the slot: true when it got one. */
async function ask(slotId: string): Promise<{ ok: boolean; client: Client; cart?: string }> {
  const client = new Client(suite.app.baseUrl);
  const r = await client.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  if (r.status === 201)
    return {
      ok: true,
      client,
      cart: ((await r.json()) as { transactionId: string }).transactionId,
    };
  expect(r.status).toBe(409);
  const problem = (await r.json()) as { error: string; payload?: string[] };
  expect(problem.payload?.[0]).toBe('timeslot_no_tickets_left');
  return { ok: false, client };
}

const ownerData = {
  salutation: 'NONE',
  firstName: 'Wim',
  lastName: 'Whatif',
  phone: '+43 1 234',
  accessibility: false,
  language: 'de',
};

let visitor = 0;
async function book(client: Client, cart: string) {
  visitor += 1;
  const r = await client.request('PUT', `/api/transactions/${cart}/booking`, {
    json: { ...ownerData, email: `whatif${visitor}@example.at` },
  });
  expect(r.status).toBe(200);
}

/** Waits until every refusal the test made is recorded (they are written beside the answers). */
async function refusalsRecorded(n: number) {
  await waitFor(
    `${n} refusals recorded`,
    async () =>
      Number(
        (await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM cart_refusals'))
          .rows[0]!.n,
      ) >= n,
    budget(5000),
  );
}

beforeAll(async () => {
  // Batches of 5 events: the worker reads every history here in many, commits split across them.
  suite = await openAdminSuite(clock, {
    env: { WHAT_IF_MAX_EVENTS: String(MAX_EVENTS), WHAT_IF_BATCH_SIZE: '5' },
  });
});
afterAll(async () => {
  await suite.close();
});

describe('the what-if replay', () => {
  let refusedSoFar = 0;

  it('with the actual rules reproduces served and refused per slot on a generated history', async () => {
    const random = seededRandom(51);
    const roomId = await createRoom(suite.admin, 'What-if room', { openStartValue: 0 });
    const first = today();
    const slots: string[] = [];
    for (let d = 2; d <= 5; d++)
      slots.push(await createSlot(suite.admin, roomId, addDays(first, d), '10:00', '12:00', 2));
    const counted = new Map(slots.map((s) => [s, { served: 0, refused: 0 }]));
    // Carts come and go: some book, some let their hold expire, some give up; full slots refuse.
    const open: { client: Client; cart: string }[] = [];
    for (let i = 0; i < 40; i++) {
      clock.advance(Math.floor(random() * 9 * 60_000) + 60_000);
      if (random() < 0.3) await expireDueTransactions(suite.app.deps);
      const slot = slots[Math.floor(random() * slots.length)]!;
      const asked = await ask(slot);
      const c = counted.get(slot)!;
      if (!asked.ok) {
        c.refused += 1;
        refusedSoFar += 1;
        continue;
      }
      c.served += 1;
      const fate = random();
      if (fate < 0.4) await book(asked.client, asked.cart!);
      else if (fate < 0.6)
        expect(
          (await asked.client.request('DELETE', `/api/transactions/${asked.cart!}`)).status,
        ).toBe(200);
      else open.push({ client: asked.client, cart: asked.cart! });
    }
    expect([...counted.values()].some((c) => c.refused > 0)).toBe(true);
    await refusalsRecorded(refusedSoFar);

    const r = await whatIf({
      roomId,
      fromDate: first,
      untilDate: addDays(first, 10),
      change: { cartHoldMinutes: 15 },
    });
    expect(r.status).toBe(200);
    const got = (await r.json()) as WhatIf;
    expect(got.slots.map((s) => s.timeSlotId).sort()).toEqual([...slots].sort());
    for (const s of got.slots) {
      const c = counted.get(s.timeSlotId)!;
      expect(s.actual).toEqual({ ...c, waitlisted: 0 });
      expect(s.whatIf).toEqual(s.actual);
    }
    expect(got.whatIf).toEqual(got.actual);
    // With the actual tickets per visitor and day (the carts' and visitors' streams read too).
    const perDay = await whatIf({
      roomId,
      fromDate: first,
      untilDate: addDays(first, 10),
      change: { maxTicketsPerDay: 2 },
    });
    expect(perDay.status).toBe(200);
    const same = (await perDay.json()) as WhatIf;
    for (const s of same.slots) expect(s.whatIf).toEqual(s.actual);
    expect(same.actual).toEqual(got.actual);
  });

  it('with 5 more seats on a slot where 6 were refused serves 5 more and refuses 1', async () => {
    const roomId = await createRoom(suite.admin, 'Capacity room', { openStartValue: 0 });
    const date = addDays(today(), 3);
    const slot = await createSlot(suite.admin, roomId, date, '14:00', '16:00', 2);
    for (let i = 0; i < 2; i++) {
      clock.advance(60_000);
      const asked = await ask(slot);
      expect(asked.ok).toBe(true);
      await book(asked.client, asked.cart!);
    }
    for (let i = 0; i < 6; i++) {
      clock.advance(60_000);
      expect((await ask(slot)).ok).toBe(false);
    }
    refusedSoFar += 6;
    await refusalsRecorded(refusedSoFar);
    const r = await whatIf({ roomId, fromDate: date, untilDate: date, change: { capacity: 7 } });
    expect(r.status).toBe(200);
    const got = (await r.json()) as WhatIf;
    expect(got.actual).toEqual({ served: 2, refused: 6, waitlisted: 0 });
    expect(got.whatIf).toEqual({ served: 7, refused: 1, waitlisted: 0 });
    // Fewer seats than booked: the bookings stay (they were made), later requests are refused.
    const fewer = (await (
      await whatIf({ roomId, fromDate: date, untilDate: date, change: { capacity: 1 } })
    ).json()) as WhatIf;
    expect(fewer.whatIf).toEqual({ served: 1, refused: 7, waitlisted: 0 });
  });

  it('with fewer tickets per visitor and day refuses as many more as the test counts', async () => {
    // The test app's rule: at most 2 tickets per visitor and day (MAX_TICKETS_PER_DAY).
    const random = seededRandom(58);
    const roomId = await createRoom(suite.admin, 'Per-day room', { openStartValue: 0 });
    const otherRoomId = await createRoom(suite.admin, 'Per-day other room', { openStartValue: 0 });
    const first = addDays(today(), 2);
    const days = [0, 1, 2, 3].map((d) => addDays(first, d));
    const times: [string, string][] = [
      ['08:00', '10:00'],
      ['10:00', '12:00'],
      ['13:00', '15:00'],
    ];
    const slotsOf = new Map<string, string[]>();
    for (const date of days) {
      const ids: string[] = [];
      for (const [start, end] of times)
        ids.push(await createSlot(suite.admin, roomId, date, start, end, 20));
      slotsOf.set(date, ids);
    }
    const elsewhere = await createSlot(suite.admin, otherRoomId, days[0]!, '16:00', '18:00', 20);
    const slotIds = [...slotsOf.values()].flat();
    // What the test counts: per slot, the seats served and the requests a limit of 1 refuses more.
    const served = new Map<string, number>(slotIds.map((id) => [id, 0]));
    const refusedMore = new Map<string, number>(slotIds.map((id) => [id, 0]));
    const inc = (map: Map<string, number>, id: string) => map.set(id, map.get(id)! + 1);
    let group = 0;
    const cartOf = async (client: Client, ids: string[]) => {
      const r = await client.request('POST', '/api/transactions', { json: { timeSlotId: ids[0] } });
      expect(r.status).toBe(201);
      const cart = ((await r.json()) as { transactionId: string }).transactionId;
      for (const id of ids.slice(1)) {
        clock.advance(30_000);
        const added = await client.request('POST', `/api/transactions/${cart}/tickets`, {
          json: { timeSlotId: id },
        });
        expect(added.status).toBe(201);
      }
      return cart;
    };
    const bookAs = async (client: Client, cart: string, email: string) => {
      const r = await client.request('PUT', `/api/transactions/${cart}/booking`, {
        json: { ...ownerData, email },
      });
      expect(r.status).toBe(200);
      return (await r.json()) as { ownerId: string; tickets: { id: string }[] };
    };
    for (const date of days)
      for (let k = 0; k < 3; k++) {
        clock.advance(Math.floor(random() * 20 * 60_000) + 60_000);
        group += 1;
        const email = `perday${group}@example.at`;
        const [a, b] = [...slotsOf.get(date)!].sort(() => random() - 0.5);
        const shape = Math.floor(random() * 5);
        if (shape === 0) {
          // Two carts of one ticket each, both booked: a limit of 1 refuses the second booking.
          const c1 = new Client(suite.app.baseUrl);
          await bookAs(c1, await cartOf(c1, [a!]), email);
          clock.advance(5 * 60_000);
          const c2 = new Client(suite.app.baseUrl);
          await bookAs(c2, await cartOf(c2, [b!]), email);
          inc(served, a!);
          inc(served, b!);
          inc(refusedMore, b!);
        } else if (shape === 1) {
          // The first booking cancelled before the second: a limit of 1 refuses nothing.
          const c1 = new Client(suite.app.baseUrl);
          const booked = await bookAs(c1, await cartOf(c1, [a!]), email);
          clock.advance(60_000);
          const cancel = await c1.request(
            'DELETE',
            `/api/owners/${booked.ownerId}/tickets?ids=${booked.tickets[0]!.id}`,
          );
          expect(cancel.status).toBe(200);
          clock.advance(60_000);
          const c2 = new Client(suite.app.baseUrl);
          await bookAs(c2, await cartOf(c2, [b!]), email);
          inc(served, a!);
          inc(served, b!);
        } else if (shape === 2 || shape === 3) {
          // One cart with two tickets of the day, booked (2) or removed (3): a limit of 1
          // refuses its second add; the booking of the one left is allowed.
          const c = new Client(suite.app.baseUrl);
          const cart = await cartOf(c, [a!, b!]);
          if (shape === 2) await bookAs(c, cart, email);
          else expect((await c.request('DELETE', `/api/transactions/${cart}`)).status).toBe(200);
          inc(served, a!);
          inc(served, b!);
          inc(refusedMore, b!);
        } else {
          // A booking of the day in another room first: a limit of 1 refuses this room's.
          if (date !== days[0]) {
            const c = new Client(suite.app.baseUrl);
            await bookAs(c, await cartOf(c, [a!]), email);
            inc(served, a!);
            continue;
          }
          const o = new Client(suite.app.baseUrl);
          await bookAs(o, await cartOf(o, [elsewhere]), email);
          clock.advance(60_000);
          const c = new Client(suite.app.baseUrl);
          await bookAs(c, await cartOf(c, [a!]), email);
          inc(served, a!);
          inc(refusedMore, a!);
        }
      }
    const more = [...refusedMore.values()].reduce((n, x) => n + x, 0);
    expect(more).toBeGreaterThan(3);

    const replayWith = async (maxTicketsPerDay: number) => {
      const r = await whatIf({
        roomId,
        fromDate: days[0],
        untilDate: days[3],
        change: { maxTicketsPerDay },
      });
      expect(r.status).toBe(200);
      return (await r.json()) as WhatIf;
    };
    // The actual rule reproduces what happened, slot by slot.
    const actual = await replayWith(2);
    expect(actual.slots.map((s) => s.timeSlotId).sort()).toEqual([...slotIds].sort());
    for (const s of actual.slots) {
      expect(s.actual).toEqual({ served: served.get(s.timeSlotId), refused: 0, waitlisted: 0 });
      expect(s.whatIf).toEqual(s.actual);
    }
    // One ticket per visitor and day: the requests the test counted are refused, slot by slot.
    const lower = await replayWith(1);
    for (const s of lower.slots) {
      const n = refusedMore.get(s.timeSlotId)!;
      expect(s.whatIf).toEqual({
        served: served.get(s.timeSlotId)! - n,
        refused: n,
        waitlisted: 0,
      });
    }
    expect(lower.whatIf.refused).toBe(more);
  });

  it(`refuses a period with more than ${MAX_EVENTS} events, and bad input`, async () => {
    const roomId = await createRoom(suite.admin, 'Busy room', { openStartValue: 0 });
    const date = addDays(today(), 4);
    const slot = await createSlot(suite.admin, roomId, date, '08:00', '20:00', 500);
    // Each cart writes a hold to the slot's stream, after its creation.
    for (let i = 0; i < MAX_EVENTS; i++) expect((await ask(slot)).ok).toBe(true);
    const r = await whatIf({ roomId, fromDate: date, untilDate: date, change: { capacity: 600 } });
    expect(r.status).toBe(400);
    const problem = (await r.json()) as { error: string; payload: string[] };
    expect(problem.error).toBe('insights__replay_too_large');
    expect(problem.payload).toEqual([String(MAX_EVENTS)]);

    for (const body of [
      { roomId, fromDate: date, untilDate: date, change: {} },
      { roomId, fromDate: date, untilDate: date, change: { capacity: -1 } },
      { roomId, fromDate: date, untilDate: date, change: { maxTicketsPerDay: 0 } },
      { roomId, fromDate: date, untilDate: date, change: { maxTicketsPerDay: 101 } },
      { roomId: 'nope', fromDate: date, untilDate: date, change: { capacity: 1 } },
      { roomId, fromDate: date, untilDate: addDays(date, -1), change: { capacity: 1 } },
    ]) {
      const bad = await whatIf(body);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBe('validation__error');
    }
    const unknown = await whatIf({
      roomId: '00000000-0000-4000-8000-000000000000',
      fromDate: date,
      untilDate: date,
      change: { capacity: 1 },
    });
    expect(unknown.status).toBe(404);
  });
});
