import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolClient } from '@rr/platform';
import { createTestDatabase, keptPlans, type TestDatabase } from '../../../tests/support/db.ts';
import { holdOpenCarts } from './open-carts.ts';

let db: TestDatabase;
/** A cart that was booked. */
const booked = randomUUID();
const expiresAt = '2030-03-01T10:15:00.000Z';

beforeAll(async () => {
  db = await createTestDatabase();
  // A library's bookings of some months, with their statistics: a plan kept for any number of
  // carts then looks far dearer than one made for the one cart at hand.
  await db.pool.query(
    `INSERT INTO bookings (owner_id, transaction_id, visitor_key, booking_number, language, created_at)
     SELECT 'owner-' || i, CASE WHEN i = 1 THEN $1::uuid ELSE gen_random_uuid() END, 'key-' || i,
            'B-' || i, 'de', now()
       FROM generate_series(1, 5000) i`,
    [booked],
  );
  await db.pool.query('ANALYZE bookings');
});
afterAll(async () => {
  await db.drop();
});

async function hold(client: PoolClient, carts: string[]): Promise<void> {
  const { statement, values } = holdOpenCarts(
    carts.map((id) => ({ transactionId: id, expiresAt })),
  );
  await client.query({ ...statement, values });
}

const openCarts = async (ids: string[]) =>
  (
    await db.pool.query<{ id: string; expires_at: Date }>(
      'SELECT transaction_id::text AS id, expires_at FROM open_carts WHERE transaction_id = ANY($1)',
      [ids],
    )
  ).rows;

describe("the open carts' expiries a command writes", () => {
  it('one cart: a connection plans the write once and keeps the plan', async () => {
    const client = await db.pool.connect();
    try {
      for (let i = 0; i < 8; i++) await hold(client, [randomUUID()]);
      // PostgreSQL plans a prepared statement for its first five runs and then keeps a generic
      // plan when that looks no dearer than the ones it made: from then on it plans no more.
      expect(await keptPlans(client, 'rr_open_cart_hold')).toBeGreaterThanOrEqual(2);
    } finally {
      client.release(true);
    }
  });

  it("the arrays of a commit group's carts, given one cart, would be planned every time", async () => {
    const client = await db.pool.connect();
    try {
      const { statement } = holdOpenCarts([
        { transactionId: randomUUID(), expiresAt },
        { transactionId: randomUUID(), expiresAt },
      ]);
      for (let i = 0; i < 8; i++)
        await client.query({ ...statement, values: [[randomUUID()], [expiresAt]] });
      expect(await keptPlans(client, statement.name)).toBe(0);
    } finally {
      client.release(true);
    }
  });

  it('one cart or several: a booked cart stays closed, an open one takes its last expiry', async () => {
    const client = await db.pool.connect();
    try {
      const [a, b] = [randomUUID(), randomUUID()];
      await hold(client, [booked]);
      await hold(client, [a, booked, b]);
      expect((await openCarts([a, b, booked])).map((r) => r.id).sort()).toEqual([a, b].sort());
      const later = '2030-03-01T10:30:00.000Z';
      const { statement, values } = holdOpenCarts([{ transactionId: a, expiresAt: later }]);
      await client.query({ ...statement, values });
      const rows = await openCarts([a]);
      expect(rows.map((r) => r.expires_at.toISOString())).toEqual([later]);
    } finally {
      client.release(true);
    }
  });
});
