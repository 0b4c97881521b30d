import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { timeSlotStreamId } from '@rr/events';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';

/**
 * A closure and the seats held in carts (docs/product.md#closures): the closure ends the holds of
 * its slots, and a cart holding a seat of a closed slot is not booked, whether it books after the
 * closure or races it. The race's verdict is read from the slots' event streams, not from the
 * answers: after a slot's `TimeSlotClosed`, its stream has no `TicketBooked`.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let roomId: string;

type Problem = { error: string; payload: string[] };

const owner = (n: number) => ({
  salutation: 'MS',
  firstName: 'Hanna',
  lastName: `Halterin${n}`,
  phone: '+43 1 234',
  accessibility: false,
  email: `holder${n}@example.at`,
  language: 'de',
});

/** A new visitor holds a seat of the slot; answers the client and the cart's id. */
async function hold(slotId: string): Promise<{ client: Client; transactionId: string }> {
  const client = new Client(suite.app.baseUrl);
  const r = await client.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(r.status, await r.clone().text()).toBe(201);
  return { client, transactionId: ((await r.json()) as { transactionId: string }).transactionId };
}

const bookCart = (c: { client: Client; transactionId: string }, n: number) =>
  c.client.request('PUT', `/api/transactions/${c.transactionId}/booking`, { json: owner(n) });

const close = (date: string, cancelBookings: boolean) =>
  suite.admin.request('POST', '/api/admin/closures', {
    json: {
      roomIds: [roomId],
      fromDate: date,
      untilDate: date,
      reason: 'Stromausfall',
      cancelBookings,
    },
  });

/** The slot's stream as written, in order. */
async function slotEvents(slotId: string): Promise<{ type: string; ticketId?: string }[]> {
  const r = await suite.db.pool.query<{ event_type: string; data: { ticketId?: string } }>(
    'SELECT event_type, data FROM events WHERE stream_id = $1 ORDER BY stream_version',
    [timeSlotStreamId(slotId)],
  );
  return r.rows.map((e) => ({ type: e.event_type, ticketId: e.data.ticketId }));
}

/** The ticket events after the slot's closure (none may book or hold a seat). */
async function afterClosure(slotId: string) {
  const events = await slotEvents(slotId);
  const closedAt = events.findIndex((e) => e.type === 'TimeSlotClosed');
  expect(closedAt, 'the slot was closed').toBeGreaterThanOrEqual(0);
  return { before: events.slice(0, closedAt), after: events.slice(closedAt + 1) };
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Closure holds room');
});
afterAll(async () => {
  await suite.close();
});

describe('a seat held when the slot is closed', () => {
  for (const cancelBookings of [false, true]) {
    it(`is not booked afterwards (cancelBookings: ${cancelBookings}); the cart shows the hold was ended by the closure`, async () => {
      const date = day(cancelBookings ? 4 : 3);
      const slot = await createSlot(suite.admin, roomId, date, '09:00', '12:00', 5);
      const cart = await hold(slot);
      const ticketId = (
        (await (await cart.client.get(`/api/transactions/${cart.transactionId}`)).json()) as {
          tickets: { id: string }[];
        }
      ).tickets[0]!.id;

      expect((await close(date, cancelBookings)).status).toBe(200);
      const booked = await bookCart(cart, 1);
      expect(booked.status, await booked.clone().text()).toBe(409);
      expect((await booked.json()) as Problem).toMatchObject({
        error: 'ticket__validation_error',
        payload: ['timeslot_not_open'],
      });

      // The closure ended the hold (on the slot's stream, with its reason), and nothing booked.
      const { after } = await afterClosure(slot);
      expect(after).toEqual([{ type: 'TicketReleased', ticketId }]);
      const released = await suite.db.pool.query<{ data: { reason: string } }>(
        `SELECT data FROM events WHERE event_type = 'TicketReleased' AND data->>'ticketId' = $1`,
        [ticketId],
      );
      expect(released.rows.map((r) => r.data.reason)).toEqual(['closed']);
      const state = await suite.db.pool.query<{ status: string }>(
        'SELECT status FROM ticket_state WHERE time_slot_id = $1',
        [slot],
      );
      expect(state.rows.map((r) => r.status)).toEqual(['INVALID']);

      // The cart's owner sees why: the hold is listed as ended by the closure, with its reason
      // (once the read models have caught up with the closure).
      type Seen = {
        tickets: unknown[];
        closedTickets: { id: string; status: string; closedReason: string }[];
      };
      const seen = async () =>
        (await (await cart.client.get(`/api/transactions/${cart.transactionId}`)).json()) as Seen;
      await expect
        .poll(async () => (await seen()).closedTickets.length, { timeout: budget(5000) })
        .toBe(1);
      const answer = await seen();
      expect(answer.tickets).toEqual([]);
      expect(answer.closedTickets).toEqual([
        expect.objectContaining({ id: ticketId, status: 'INVALID', closedReason: 'Stromausfall' }),
      ]);
    });
  }
});

describe('carts racing a closure', () => {
  it('25 held carts and 25 new visitors: no slot stream books after its TimeSlotClosed', async () => {
    const date = day(6);
    const slots = [
      await createSlot(suite.admin, roomId, date, '08:00', '11:00', 40),
      await createSlot(suite.admin, roomId, date, '12:00', '15:00', 40),
    ];
    const held = [];
    for (let i = 0; i < 25; i += 1) held.push(await hold(slots[i % 2]!));

    const [closure, ...answers] = await Promise.all([
      close(date, false),
      ...held.map((c, i) => bookCart(c, 100 + i)),
      ...Array.from({ length: 25 }, async (_, i) => {
        const client = new Client(suite.app.baseUrl);
        const r = await client.request('POST', '/api/transactions', {
          json: { timeSlotId: slots[i % 2] },
        });
        if (r.status !== 201) return r;
        const { transactionId } = (await r.json()) as { transactionId: string };
        return bookCart({ client, transactionId }, 200 + i);
      }),
    ]);
    expect(closure.status).toBe(200);
    // Every answer is a booking or a refusal with a catalogue code; none is a server error.
    for (const a of answers) {
      expect([200, 409], await a.clone().text()).toContain(a.status);
      if (a.status === 409)
        expect(((await a.json()) as Problem).error).toMatch(
          /^(ticket__validation_error|transaction__expired)$/,
        );
    }

    // The verdict, from the log: after the closure no slot stream books or holds a seat, and
    // every hold written before it ended (booked before the closure, or released by it).
    for (const slot of slots) {
      const { before, after } = await afterClosure(slot);
      expect(
        after.filter((e) => e.type !== 'TicketReleased'),
        'after the closure',
      ).toEqual([]);
      const heldIds = before.filter((e) => e.type === 'TicketHeld').map((e) => e.ticketId);
      const ended = new Set(
        [...before, ...after]
          .filter((e) => e.type === 'TicketBooked' || e.type === 'TicketReleased')
          .map((e) => e.ticketId),
      );
      expect(
        heldIds.filter((id) => !ended.has(id)),
        'holds left open',
      ).toEqual([]);
      const open = await suite.db.pool.query(
        `SELECT 1 FROM ticket_state WHERE time_slot_id = $1 AND status = 'NEW'`,
        [slot],
      );
      expect(open.rowCount).toBe(0);
    }
  });
});
