import { RoomOrderChanged, type RoomOrderEvent } from '@rr/events/catalogue';
import { type Decide, unhandled } from '../decider.ts';
import { refuse } from '../refusal.ts';

/**
 * The room order stream (one for all rooms): the manual order staff give the rooms. Its command
 * decides on every existing room's id (the write side's room_state, moved with the room events).
 */

/** The manual order of the rooms: every existing room's id, first to last. */
export interface RoomOrderState {
  roomIds: readonly string[];
}

export const initialRoomOrder: RoomOrderState = { roomIds: [] };

/** The order after an event: the event names the whole order. */
export function evolveRoomOrder(_state: RoomOrderState, event: RoomOrderEvent): RoomOrderState {
  switch (event.type) {
    case 'RoomOrderChanged':
      return { roomIds: event.data.roomIds };
  }
}

export type RoomOrderCommand = { type: 'MoveRoom'; data: { roomId: string; index: number } };

/** Moves one room to a 0-based index (clamped to the list); the event names the whole new order. */
export const decideRoomOrder: Decide<
  RoomOrderCommand,
  RoomOrderState,
  unknown,
  RoomOrderEvent[]
> = (command, { roomIds }) => {
  switch (command.type) {
    case 'MoveRoom':
      return moveRoom(command.data, roomIds);
    default:
      // A union of one command: its type narrows to never, the command itself does not.
      return unhandled(command.type);
  }
};

function moveRoom(
  data: { roomId: string; index: number },
  roomIds: readonly string[],
): RoomOrderEvent[] {
  if (!roomIds.includes(data.roomId)) throw refuse.notFound('Room');
  const rest = roomIds.filter((id) => id !== data.roomId);
  const at = Math.max(0, Math.min(data.index, rest.length));
  return [
    RoomOrderChanged.create({ roomIds: [...rest.slice(0, at), data.roomId, ...rest.slice(at)] }),
  ];
}
