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
 * happened, served and refused per slot; more seats serve the refused; a period with more events
 * than the cap is refused with insights__replay_too_large. Every time is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), 'Europe/Vienna');
const MAX_EVENTS = 200;
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

let visitor = 0;
async function book(client: Client, cart: string) {
  visitor += 1;
  const r = await client.request('PUT', `/api/transactions/${cart}/booking`, {
    json: {
      salutation: 'NONE',
      firstName: 'Wim',
      lastName: `Whatif${visitor}`,
      phone: '+43 1 234',
      accessibility: false,
      email: `whatif${visitor}@example.at`,
      language: 'de',
    },
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
  suite = await openAdminSuite(clock, { env: { WHAT_IF_MAX_EVENTS: String(MAX_EVENTS) } });
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
