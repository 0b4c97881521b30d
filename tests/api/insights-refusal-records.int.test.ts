import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The records of refused cart requests beside the log (docs/product.md#insights, privacy):
 * `cart_refusals` (refused as full) and `cart_seat_refusals` (refused for the seat wish) know a
 * cart only by a one-way hash of its id, which tells one cart's retries apart from another cart's
 * request: never the cart's id itself, nor the key of the visitor who booked it later, nor
 * anything of the personal data. Every time is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;

const EMAIL = 'refused.reader@example.at';
const person = {
  salutation: 'NONE',
  firstName: 'Rita',
  lastName: 'Refusa',
  phone: '+43 1 98765',
  accessibility: false,
  language: 'de',
};

/** A new cart of its own client holding a ticket as wished; answers the client and the cart. */
async function newCart(json: Record<string, unknown>) {
  const client = new Client(suite.app.baseUrl);
  const r = await client.request('POST', '/api/transactions', { json });
  expect(r.status, await r.clone().text()).toBe(201);
  return { client, cart: ((await r.json()) as { transactionId: string }).transactionId };
}

async function bookCart(c: { client: Client; cart: string }, email: string) {
  const r = await c.client.request('PUT', `/api/transactions/${c.cart}/booking`, {
    json: { ...person, email },
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as { ownerId: string; bookingNumber: string };
}

/** Every recorded refusal of the room, each row with all its columns. */
async function rowsOf(table: 'cart_refusals' | 'cart_seat_refusals', roomId: string) {
  return (
    await suite.db.pool.query<Record<string, unknown> & { cart_key: string; attempts: number }>(
      `SELECT * FROM ${table} WHERE room_id = $1 ORDER BY rule, attempts`,
      [roomId],
    )
  ).rows;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

describe('the refused requests recorded', () => {
  it('keep a hash of the cart, never its id nor the key of the visitor who booked it', async () => {
    const roomId = await createRoom(suite.admin, 'Refusal record room', {
      ...OPEN_FROM_TODAY,
      capacity: 10,
    });
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: {
        seats: [
          { label: 'W', attributes: ['window'], x: 10, y: 10 },
          { label: 'P', attributes: ['power'], x: 20, y: 10 },
          { label: 'N', attributes: [], x: 30, y: 10 },
        ],
      },
    });
    expect(plan.status).toBe(200);
    const seats = ((await plan.json()) as { seats: { id: string; label: string }[] }).seats;
    const w = seats.find((s) => s.label === 'W')!.id;
    const seatsDay = await createSlot(suite.admin, roomId, day(3), '09:00', '11:00', 3);
    const full = await createSlot(suite.admin, roomId, day(3), '13:00', '14:00', 1);
    const own = await createSlot(suite.admin, roomId, day(4), '09:00', '11:00', 3);
    // Another visitor books the window seat of one slot and the only seat of the other.
    await bookCart(await newCart({ timeSlotId: seatsDay, seatId: w }), 'first@example.at');
    await bookCart(await newCart({ timeSlotId: full }), 'second@example.at');

    // The cart under test holds a seat of another day, then asks three times in vain: the full
    // slot (twice), the taken window seat (twice), and any window seat.
    const k = await newCart({ timeSlotId: own });
    const add = async (json: Record<string, unknown>, error: string) => {
      clock.advance(60_000);
      const r = await k.client.request('POST', `/api/transactions/${k.cart}/tickets`, { json });
      expect(r.status).toBe(409);
      expect(((await r.json()) as { error: string }).error).toBe(error);
    };
    for (let i = 0; i < 2; i++) {
      await add({ timeSlotId: full }, 'ticket__validation_error');
      await add({ timeSlotId: seatsDay, seatId: w }, 'seat__taken');
    }
    await add({ timeSlotId: seatsDay, seatAttributes: ['window'] }, 'seat__none_matching');
    // Another cart asks for the full slot once.
    const other = await new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: full },
    });
    expect(other.status).toBe(409);
    // Then the cart is booked: the log now names its visitor by the address's key.
    const booked = await bookCart(k, EMAIL);
    const visitorKey = (
      await suite.db.pool.query<{ key: string }>(
        `SELECT data->>'visitorKey' AS key FROM events
          WHERE stream_id = $1 AND event_type = 'TransactionBooked'`,
        [`transaction-${k.cart}`],
      )
    ).rows[0]!.key;
    expect(visitorKey).toMatch(/\S{16,}/);

    await waitFor(
      'every refusal recorded with its tries',
      async () => {
        const byFull = await rowsOf('cart_refusals', roomId);
        const bySeat = await rowsOf('cart_seat_refusals', roomId);
        const tries = [...byFull, ...bySeat].reduce((n, r) => n + r.attempts, 0);
        return byFull.length === 2 && bySeat.length === 2 && tries === 6;
      },
      budget(5000),
    );
    const byFull = await rowsOf('cart_refusals', roomId);
    const bySeat = await rowsOf('cart_seat_refusals', roomId);
    expect(byFull.map((r) => [r.time_slot_id, r.rule, r.attempts])).toEqual([
      [full, 'timeslot_no_tickets_left', 1],
      [full, 'timeslot_no_tickets_left', 2],
    ]);
    expect(bySeat.map((r) => [r.rule, r.wish, r.attempts])).toEqual([
      ['seat__none_matching', 'attributes:window', 1],
      ['seat__taken', `seat:${w}`, 2],
    ]);

    // One cart, one key in both tables; the other cart's is another.
    const mine = [byFull[1]!, ...bySeat].map((r) => r.cart_key);
    expect(new Set(mine).size).toBe(1);
    expect(byFull[0]!.cart_key).not.toBe(mine[0]);
    // Nothing in any row is the cart's id (in any spelling), the visitor's key, or personal data.
    const id = k.cart.toLowerCase();
    const never = [
      id,
      id.toUpperCase(),
      id.replaceAll('-', ''),
      visitorKey,
      EMAIL,
      'Refusa',
      booked.ownerId,
      booked.bookingNumber,
    ];
    for (const row of [...byFull, ...bySeat]) {
      expect(row.cart_key).not.toBe(id.replaceAll('-', ''));
      const text = JSON.stringify(row);
      for (const word of never) expect(text.toLowerCase()).not.toContain(word.toLowerCase());
    }
  });
});
