import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { matchWaitlists } from '@rr/command-service';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * What the waitlist promises a visitor beyond a place in line: offers only to those the
 * per-visitor limits let take the seat. Every time step is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const advance = (minutes: number) => clock.advance(minutes * 60_000);
let suite: AdminSuite;
let roomId: string;
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);

const owner = {
  salutation: 'MS',
  firstName: 'Wanda',
  lastName: 'Warte',
  phone: '+43 1 234',
  accessibility: false,
};

const join = (c: Client, slotId: string, json: Record<string, unknown>) =>
  c.request('POST', `/api/timeslots/${slotId}/waitlist`, { json });

/** Fills the slot with carts' holds (answers the carts' ids). */
async function fill(slotId: string, seats: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < seats; i++) {
    const r = await new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: slotId },
    });
    expect(r.status).toBe(201);
    ids.push(((await r.json()) as { transactionId: string }).transactionId);
  }
  return ids;
}

/** The entries offered a seat (by the offers' events) with the address each entry joined with. */
async function offeredAddresses(slotIds: string[]) {
  const r = await suite.db.pool.query<{ time_slot_id: string; email: string; status: string }>(
    `SELECT w.time_slot_id, w.email, w.status FROM waitlist_entries w
      WHERE w.time_slot_id = ANY($1::uuid[])`,
    [slotIds],
  );
  const offered = await suite.db.pool.query<{ entry_id: string }>(
    `SELECT data->>'entryId' AS entry_id FROM events WHERE event_type = 'SeatOffered'
      AND data->>'timeSlotId' = ANY($1::text[])`,
    [slotIds],
  );
  return { rows: r.rows, offers: offered.rows.length };
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Waitlist promises room');
  const set = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await suite.close();
});

describe('offers respect the per-visitor limits', () => {
  it('one address waiting on six slots of a day is offered only as many as it may book that day; the others go to the next in line', async () => {
    const date = day(5);
    const v = new Client(suite.app.baseUrl);
    // The first reader booked a seat that day already: one more is all the day's limit (2) lets.
    const booked = await createSlot(suite.admin, roomId, date, '07:00', '07:30', 1);
    const [cart] = await fill(booked, 1);
    const booking = await v.request('PUT', `/api/transactions/${cart}/booking`, {
      json: { ...owner, email: 'first@example.at', language: 'de' },
    });
    expect(booking.status).toBe(200);

    const starts = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00'];
    const slots: string[] = [];
    for (const start of starts)
      slots.push(await createSlot(suite.admin, roomId, date, start, `${start.slice(0, 2)}:45`, 1));
    for (const slot of slots) await fill(slot, 1);
    const readers = ['first', 'second', 'third', 'fourth'].map((n) => `${n}@example.at`);
    for (const slot of slots)
      for (const email of readers)
        expect((await join(v, slot, { email, language: 'en' })).status).toBe(201);

    // The carts' holds end: a seat frees in each of the six slots.
    advance(16);
    expect(await matchWaitlists(suite.app.deps)).toBe(6);
    const { rows, offers } = await offeredAddresses(slots);
    expect(offers).toBe(6);
    const offeredTo = (email: string) =>
      rows.filter((r) => r.email === email && r.status === 'offered').length;
    // Whatever order the matcher visits the slots in: the first reader one (a booking counts),
    // the second and third two each (the day's limit), the fourth the one left.
    expect(readers.map(offeredTo)).toEqual([1, 2, 2, 1]);
    // Those passed over keep their place in line.
    expect(rows.filter((r) => r.email === readers[0] && r.status === 'waiting')).toHaveLength(5);
    // Another round offers nothing more: nobody left in line may take another seat of the day.
    expect(await matchWaitlists(suite.app.deps)).toBe(0);
  });
});
