import {
  ROOM_ORDER_STREAM,
  streamAppendOf,
  roomOrderStream,
  type AppendRequest,
  type RoomOrderEvent,
} from '@rr/events';

/** The room order stream (one for all rooms): its one append (its state is `room_state`'s order). */

/** The command-side files whose decisions append to the room order. */
export const writers = ['rooms/stream.ts'] as const;

export function appendToRoomOrder(
  order: { version: number },
  events: readonly RoomOrderEvent[],
): AppendRequest[] {
  return streamAppendOf(roomOrderStream, ROOM_ORDER_STREAM, order.version, events);
}
