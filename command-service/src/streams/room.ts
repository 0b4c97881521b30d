import {
  foldStream,
  roomStreamId,
  streamAppendOf,
  roomStream,
  type AppendRequest,
  type RoomEvent,
  type StoreSession,
} from '@rr/events';
import { evolveRoom, initialRoomState, type RoomState } from '@rr/domain';

/** The room streams (`room-<id>`): their one loader and their one append. */

/** The command-side files whose decisions append to a room's stream. */
export const writers = ['rooms/stream.ts'] as const;

/** A room's stream, folded (the caller holds its lock when it decides on it). */
export async function loadRoom(s: StoreSession, roomId: string): Promise<RoomState> {
  const { events } = await s.readStream(roomStreamId(roomId));
  return foldStream(events, evolveRoom, initialRoomState);
}

/** Locks a room's stream and folds it: its slot commands and its own queue on the lock. */
export async function lockAndLoadRoom(s: StoreSession, roomId: string): Promise<RoomState> {
  await s.lockStream(roomStreamId(roomId));
  return loadRoom(s, roomId);
}

export function appendToRoom(
  roomId: string,
  room: { version: number },
  events: readonly RoomEvent[],
): AppendRequest[] {
  return streamAppendOf(roomStream, roomStreamId(roomId), room.version, events);
}
