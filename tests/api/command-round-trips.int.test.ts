// What a cart command costs in round trips to the database, counted through a proxy that holds
// the server's answers until the client is quiet (tests/support/round-trip-proxy.ts): on the
// pipelined connections of the server, a new cart on a slot the process knows and a second
// add to a known cart are two round trips each; one statement after the other, seven.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore, validateEvent } from '@rr/events';
import { createPool, ManualClock, type PoolOptions } from '@rr/platform';
import { cartCommands } from '../../command-service/src/booking/cart-commands.ts';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { roundTripProxy, type RoundTripProxy } from '../support/round-trip-proxy.ts';

// Monday 23 Nov 2026, 10:00 in Vienna; the slots are on Thursday, inside the room's window.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const DAY = '2026-11-26';

let suite: AdminSuite;
let proxy: RoundTripProxy;
const slots: string[] = [];

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  proxy = await roundTripProxy(suite.db.url);
  const roomId = await createRoom(suite.admin, 'Round trips', { capacity: 20 });
  for (const [start, end] of [
    ['09:00', '10:00'],
    ['10:00', '11:00'],
  ] as const)
    slots.push(await createSlot(suite.admin, roomId, DAY, start, end, 20));
});
afterAll(async () => {
  await proxy.close();
  await suite.close();
});

/** The cart commands of a process whose one connection goes through the proxy. */
function commandsThroughProxy(options: PoolOptions) {
  const pool = createPool(proxy.url, 1, options);
  const store = new EventStore(pool, { validate: validateEvent, clock });
  return { carts: cartCommands({ ...suite.app.deps, store, pool }), pool };
}

async function roundTripsOf(run: () => Promise<unknown>): Promise<number> {
  proxy.reset();
  await run();
  return proxy.roundTrips();
}

describe('round trips of the cart commands', () => {
  it('a new cart and a second add: two each on a pipelined connection, seven one by one', async () => {
    for (const [options, expected] of [
      [{}, 2],
      [{ pipeline: false }, 7],
    ] as const) {
      const { carts, pool } = commandsThroughProxy(options);
      try {
        // The process learns both slots (their states and rooms) and prepares its statements.
        const first = await carts.newCart(slots[0]!);
        await carts.addTicket(first.transactionId, slots[1]!);

        let cart: { transactionId: string } | undefined;
        expect(
          await roundTripsOf(async () => {
            cart = await carts.newCart(slots[0]!);
          }),
          `a new cart, ${JSON.stringify(options)}`,
        ).toBe(expected);
        expect(
          await roundTripsOf(() => carts.addTicket(cart!.transactionId, slots[1]!)),
          `a second add, ${JSON.stringify(options)}`,
        ).toBe(expected);
        const held = await suite.db.pool.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM ticket_state WHERE transaction_id = $1 AND status = 'NEW'`,
          [cart!.transactionId],
        );
        expect(held.rows[0]!.n).toBe('2');
      } finally {
        await pool.end();
      }
    }
  });
});
