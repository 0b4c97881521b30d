import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, keptPlans, type TestDatabase } from '../../tests/support/db.ts';
import { roomStates, roomsWithHolidays, storedRoomStates } from './write-state.ts';

let db: TestDatabase;
const rooms = [randomUUID(), randomUUID(), randomUUID()];
const today = '2030-03-01';

beforeAll(async () => {
  db = await createTestDatabase();
  // A few rooms and no statistics of room_state: what a library of a few rooms has, as
  // autovacuum analyses a table only from 50 changed rows on.
  await db.pool.query(
    `INSERT INTO room_state (room_id, version, name, has_image, sort_order)
     SELECT id, 1, 'Room ' || n, false, n FROM unnest($1::uuid[]) WITH ORDINALITY AS r(id, n)`,
    [rooms],
  );
  await db.pool.query(
    `INSERT INTO holiday_state (holiday_id, date, name, version) VALUES ($1, '2030-03-05', 'Closed', 1)`,
    [randomUUID()],
  );
});
afterAll(async () => {
  await db.drop();
});

describe("the seat decision's reads of rooms", () => {
  it('plan the read of one room once per connection and keep it', async () => {
    const client = await db.pool.connect();
    try {
      for (let i = 0; i < 8; i++) {
        const { rooms: found, holidays } = await roomsWithHolidays(client, [rooms[0]!], today);
        expect([...found.keys()]).toEqual([rooms[0]]);
        expect([...holidays.get(rooms[0]!)!]).toEqual(['2030-03-05']);
        expect([...(await roomStates(client, [rooms[0]!, rooms[0]!])).keys()]).toEqual([rooms[0]]);
        expect([...(await storedRoomStates(client, [rooms[0]!])).keys()]).toEqual([rooms[0]]);
      }
      // PostgreSQL plans a prepared statement for its first five runs and then keeps a generic
      // plan when that looks no dearer than the ones it made: from then on it plans no more.
      expect(await keptPlans(client, 'rr_rooms_with_holidays_one')).toBeGreaterThanOrEqual(2);
      expect(await keptPlans(client, 'rr_room_states_one')).toBeGreaterThanOrEqual(2);
      expect(await keptPlans(client, 'rr_stored_room_states_one')).toBeGreaterThanOrEqual(2);
    } finally {
      client.release();
    }
  });

  it('read several rooms at once, each once, and none that does not exist', async () => {
    const client = await db.pool.connect();
    try {
      const asked = [rooms[2]!, rooms[0]!, rooms[2]!, randomUUID()];
      const { rooms: found } = await roomsWithHolidays(client, asked, today);
      expect([...found.keys()].sort()).toEqual([rooms[0]!, rooms[2]!].sort());
      expect([...(await roomStates(client, asked)).keys()].sort()).toEqual(
        [rooms[0]!, rooms[2]!].sort(),
      );
      expect((await roomStates(client, [randomUUID()])).size).toBe(0);
    } finally {
      client.release();
    }
  });
});
