import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

// Monday 23 Nov 2026 in Vienna; the room is open from two days ahead.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

describe('rm_ticket_counts', () => {
  it('equals a count of rm_tickets (what a rebuild writes), also after the last ticket of a status left it', async () => {
    const { admin, app, db } = suite;
    const roomId = await createRoom(admin, 'Zählsaal');
    const slotId = await createSlot(admin, roomId, '2026-11-30', '09:00', '10:00', 5);
    const v = new Client(app.baseUrl);
    const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
    expect(cart.status).toBe(201);
    const { transactionId, ticket } = (await cart.json()) as {
      transactionId: string;
      ticket: { id: string };
    };
    // The cart's only ticket leaves it again: its status's count on that day goes back to none.
    const removed = await v.request(
      'DELETE',
      `/api/transactions/${transactionId}/tickets/${ticket.id}`,
    );
    expect(removed.status).toBe(200);
    // The visitor's read waits for every read model to reach the removal (X-Min-Position).
    expect(v.lastPosition).not.toBeNull();
    const read = await v.get(
      `/api/rooms/${roomId}/booking?fromDate=2026-11-30&untilDate=2026-11-30`,
    );
    expect(read.headers.get('x-read-stale')).toBeNull();
    const kept = await db.pool.query('SELECT 1 FROM rm_tickets');
    expect(kept.rowCount).toBeGreaterThan(0); // the removed ticket stays, in another status
    const counts = await db.pool.query<{ status: string; n: string }>(
      `SELECT status, date::text, room_id::text, n::text FROM rm_ticket_counts ORDER BY 1, 2, 3`,
    );
    const grouped = await db.pool.query<{ status: string; n: string }>(
      `SELECT status, date::text, room_id::text, count(*)::text AS n FROM rm_tickets
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    expect(counts.rows).toEqual(grouped.rows);
  });
});
