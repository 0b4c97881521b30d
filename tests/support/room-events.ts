import { randomUUID } from 'node:crypto';
import {
  RoomCreated,
  roomStreamId,
  type AppendOptions,
  type EventStore,
  type NewEvent,
} from '@rr/events';

/**
 * The details of a room as the event store's tests and benchmark write them (RoomCreated,
 * RoomUpdated): any valid room, named as the test likes.
 */
export function roomDetails(roomId: string, name = 'Reading room') {
  return {
    roomId,
    name,
    description: 'Quiet desks',
    capacity: 20,
    openStart: { type: 'DAY' as const, value: 2 },
    openEnd: { type: 'WORKING_DAY' as const, value: 30 },
  };
}

/** A new room's stream and its creation: any new stream, for tests of the log itself. */
export function newRoom(): { streamId: string; created: NewEvent } {
  const roomId = randomUUID();
  return { streamId: roomStreamId(roomId), created: RoomCreated.create(roomDetails(roomId)) };
}

/** Creates a new room in a transaction of its own; answers its event's id. */
export async function appendRoom(store: EventStore, options: AppendOptions): Promise<string> {
  const { streamId, created } = newRoom();
  const eventId = randomUUID();
  await store.appendToStream(streamId, 'room', 'no_stream', [{ ...created, eventId }], options);
  return eventId;
}
