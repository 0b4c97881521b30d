import { randomUUID } from 'node:crypto';
import { lockSlots } from '../streams/timeslot.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ConcurrencyError,
  EventStore,
  StoreSession,
  TicketHeld,
  TimeSlotCreated,
  timeSlotStreamId,
  validateEvent,
  type AppendOptions,
} from '@rr/events';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/db.ts';
import { decideReservation, emptyReservation, initialRoomState } from '@rr/domain';
import { defaultBookingLimits } from '@rr/platform';
import { reservationAppends } from './store.ts';
import { cartCacheOf, lockCartWithSlots, rememberCart } from '../streams/transaction.ts';
import { slotCacheOf } from '../streams/timeslot.ts';

const options: AppendOptions = {
  metadata: { actor: { kind: 'system', job: 'folded-state-cache-test' } },
};
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const hold = (timeSlotId: string) =>
  TicketHeld.create({
    ticketId: randomUUID(),
    timeSlotId,
    transactionId: randomUUID(),
    expiresAt: '2030-01-01T10:00:00.000Z',
  });

async function newSlot(store: EventStore, startTime: string): Promise<string> {
  const timeSlotId = randomUUID();
  await store.appendToStream(
    timeSlotStreamId(timeSlotId),
    'timeslot',
    'no_stream',
    [
      TimeSlotCreated.create({
        timeSlotId,
        roomId: randomUUID(),
        date: '2030-01-01',
        startTime,
        endTime: `${String(Number(startTime.slice(0, 2)) + 1).padStart(2, '0')}:00`,
        capacity: 3,
      }),
    ],
    options,
  );
  return timeSlotId;
}

describe('folded slot states cached per event store', () => {
  it('reads only what is new, and sees what another process (another cache) wrote meanwhile', async () => {
    const mine = new EventStore(db.pool, { validate: validateEvent });
    const theirs = new EventStore(db.pool, { validate: validateEvent });
    const timeSlotId = await newSlot(mine, '09:00');
    const streamId = timeSlotStreamId(timeSlotId);
    await mine.appendToStream(streamId, 'timeslot', 1, [hold(timeSlotId)], options);
    const load = (store: EventStore) => store.transaction((s) => lockSlots(s, [timeSlotId]));

    const first = (await load(mine)).result.get(timeSlotId)!;
    expect(first.version).toBe(2);
    expect(first.tickets.size).toBe(1);
    expect(slotCacheOf(mine).get(timeSlotId)).toBe(first);

    // Another writer with its own cache holds two more seats.
    await theirs.appendToStream(streamId, 'timeslot', 2, [hold(timeSlotId)], options);
    expect((await load(theirs)).result.get(timeSlotId)!.version).toBe(3);
    await theirs.appendToStream(streamId, 'timeslot', 3, [hold(timeSlotId)], options);

    const second = (await load(mine)).result.get(timeSlotId)!;
    expect(second.version).toBe(4);
    expect(second.tickets.size).toBe(3);
    // The same state as a fold from scratch (a store without a cache entry for the slot).
    const fresh = new EventStore(db.pool, { validate: validateEvent });
    expect((await load(fresh)).result.get(timeSlotId)).toEqual(second);
    expect(slotCacheOf(mine).get(timeSlotId)).toBe(second);
  });

  it('an unknown slot is not cached', async () => {
    const store = new EventStore(db.pool, { validate: validateEvent });
    const id = randomUUID();
    const { result } = await store.transaction((s) => lockSlots(s, [id]));
    expect(result.get(id)!.status).toBe('none');
    expect(slotCacheOf(store).get(id)).toBeUndefined();
  });
});

/** A cart command as runCart does it: lock and read, decide, append; the cache after the commit. */
async function addTicket(store: EventStore, transactionId: string, timeSlotId: string) {
  const { result } = await store.transaction(async (s) => {
    const { cart, slots } = await lockCartWithSlots(s, transactionId, [timeSlotId]);
    const slot = slots.get(timeSlotId)!;
    // The slot's room, open for the slot's day (rooms are not this test's concern).
    const room = {
      ...initialRoomState,
      status: 'active' as const,
      openStart: { type: 'DAY' as const, value: 0 },
      openEnd: { type: 'DAY' as const, value: 1 },
    };
    const state = {
      ...emptyReservation,
      cart,
      slots,
      rooms: new Map([[slot.roomId, room]]),
      transactionId,
      visitorKey: null,
    };
    const decision = decideReservation(
      { type: 'AddTicket', data: { transactionId, ticketId: randomUUID(), timeSlotId } },
      state,
      {
        now: new Date('2029-12-31T10:00:00Z'),
        today: '2029-12-31',
        time: '11:00',
        limits: defaultBookingLimits,
      },
    );
    await s.append(reservationAppends(state, decision), options);
    return { cart, decision };
  });
  rememberCart(store, transactionId, result.cart, result.decision.transaction);
}

const load = (store: EventStore, transactionId: string) =>
  store.transaction((s) => lockCartWithSlots(s, transactionId, [])).then((r) => r.result);

describe('folded cart states cached per event store', () => {
  it('lock and read a known cart with its slots in one round trip, and match a fold from scratch', async () => {
    const mine = new EventStore(db.pool, { validate: validateEvent });
    const [a, b] = [await newSlot(mine, '09:00'), await newSlot(mine, '11:00')];
    const cartId = randomUUID();
    await addTicket(mine, cartId, a);
    await addTicket(mine, cartId, b);
    expect(
      cartCacheOf(mine)
        .get(cartId)!
        .tickets.map((t) => t.timeSlotId),
    ).toEqual([a, b]);

    const reads = vi.spyOn(StoreSession.prototype, 'lockAndReadStreams');
    const locks = vi.spyOn(StoreSession.prototype, 'lockStream');
    try {
      const known = await load(mine, cartId);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(locks).not.toHaveBeenCalled();
      expect([...known.slots.keys()].sort()).toEqual([a, b].sort());
      const fresh = await load(new EventStore(db.pool, { validate: validateEvent }), cartId);
      expect(known).toEqual(fresh);
    } finally {
      reads.mockRestore();
      locks.mockRestore();
    }
  });

  it('a ticket another process added meanwhile makes the command run again, with the cart now known', async () => {
    const mine = new EventStore(db.pool, { validate: validateEvent });
    const theirs = new EventStore(db.pool, { validate: validateEvent });
    const [a, b] = [await newSlot(mine, '09:00'), await newSlot(mine, '11:00')];
    const cartId = randomUUID();
    await addTicket(mine, cartId, a);
    await addTicket(theirs, cartId, b);

    // The cached cart has one ticket: slot b was not locked, so the command must not go on.
    await expect(load(mine, cartId)).rejects.toBeInstanceOf(ConcurrencyError);
    expect(cartCacheOf(mine).get(cartId)!.tickets).toHaveLength(2);
    const again = await load(mine, cartId);
    expect([...again.slots.keys()].sort()).toEqual([a, b].sort());
    expect(again).toEqual(await load(theirs, cartId));
  });
});
