import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventStore,
  TicketHeld,
  TimeSlotCreated,
  timeSlotStreamId,
  validateEvent,
  type AppendOptions,
} from '@rr/events';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/db.ts';
import { slotCacheOf } from './slot-cache.ts';
import { lockCartAndSlots } from './store.ts';

const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'slot-cache-test' } } };
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

describe('folded slot states cached per event store', () => {
  it('reads only what is new, and sees what another process (another cache) wrote meanwhile', async () => {
    const timeSlotId = randomUUID();
    const streamId = timeSlotStreamId(timeSlotId);
    const mine = new EventStore(db.pool, { validate: validateEvent });
    const theirs = new EventStore(db.pool, { validate: validateEvent });
    await mine.appendToStream(
      streamId,
      'timeslot',
      'no_stream',
      [
        TimeSlotCreated.create({
          timeSlotId,
          roomId: randomUUID(),
          date: '2030-01-01',
          startTime: '09:00',
          endTime: '10:00',
          capacity: 3,
        }),
        hold(timeSlotId),
      ],
      options,
    );
    const load = (store: EventStore) =>
      store.transaction((s) => lockCartAndSlots(s, null, [timeSlotId]));

    const first = (await load(mine)).result.get(timeSlotId)!;
    expect(first.version).toBe(2);
    expect(Object.keys(first.tickets)).toHaveLength(1);
    expect(slotCacheOf(mine).get(timeSlotId)).toBe(first);

    // Another writer with its own cache holds two more seats.
    await theirs.appendToStream(streamId, 'timeslot', 2, [hold(timeSlotId)], options);
    expect((await load(theirs)).result.get(timeSlotId)!.version).toBe(3);
    await theirs.appendToStream(streamId, 'timeslot', 3, [hold(timeSlotId)], options);

    const second = (await load(mine)).result.get(timeSlotId)!;
    expect(second.version).toBe(4);
    expect(Object.keys(second.tickets)).toHaveLength(3);
    // The same state as a fold from scratch (a store without a cache entry for the slot).
    const fresh = new EventStore(db.pool, { validate: validateEvent });
    expect((await load(fresh)).result.get(timeSlotId)).toEqual(second);
    expect(slotCacheOf(mine).get(timeSlotId)).toBe(second);
  });

  it('an unknown slot is not cached', async () => {
    const store = new EventStore(db.pool, { validate: validateEvent });
    const id = randomUUID();
    const { result } = await store.transaction((s) => lockCartAndSlots(s, null, [id]));
    expect(result.get(id)!.status).toBe('none');
    expect(slotCacheOf(store).get(id)).toBeUndefined();
  });
});
