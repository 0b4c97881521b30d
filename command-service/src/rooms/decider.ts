import type { NewEvent, OpenBound, RoomEvent } from '@rr/events';
import {
  RoomCreated,
  RoomDeleted,
  RoomImageAltChanged,
  RoomImageRemoved,
  RoomImageSet,
  RoomUpdated,
} from '@rr/events';
import { messages, Problem, problems } from '@rr/platform';

export interface RoomDetails {
  roomId: string;
  name: string;
  description: string;
  capacity: number;
  openStart: OpenBound;
  openEnd: OpenBound;
}

export interface RoomState {
  status: 'none' | 'active' | 'deleted';
  version: number;
  hasImage: boolean;
}

export const initialRoomState: RoomState = { status: 'none', version: 0, hasImage: false };

export function evolve(state: RoomState, event: RoomEvent): RoomState {
  const version = state.version + 1;
  switch (event.type) {
    case 'RoomCreated':
      return { status: 'active', version, hasImage: false };
    case 'RoomUpdated':
      return { ...state, version };
    case 'RoomDeleted':
      return { ...state, status: 'deleted', version };
    case 'RoomImageSet':
      return { ...state, version, hasImage: true };
    case 'RoomImageAltChanged':
      return { ...state, version };
    case 'RoomImageRemoved':
      return { ...state, version, hasImage: false };
  }
}

export type RoomCommand =
  | { type: 'CreateRoom'; data: RoomDetails }
  | { type: 'UpdateRoom'; data: RoomDetails & { expectedVersion: number } }
  | { type: 'DeleteRoom'; data: { roomId: string; activeReservationCount: number } }
  | {
      type: 'SetRoomImage';
      data: {
        roomId: string;
        imageId: string;
        contentType: 'image/jpeg' | 'image/png';
        size: number;
        alt: string;
      };
    }
  | { type: 'ChangeRoomImageAlt'; data: { roomId: string; alt: string } }
  | { type: 'RemoveRoomImage'; data: { roomId: string } };

function mustExist(state: RoomState): void {
  if (state.status !== 'active') throw problems.notFound('Room');
}

/** Pure: the events a room command produces from the room's state, or the refusal. */
export function decide(command: RoomCommand, state: RoomState): NewEvent[] {
  switch (command.type) {
    case 'CreateRoom':
      if (state.status !== 'none')
        throw problems.conflict('room__already_exists', 'The room exists already');
      return [RoomCreated.create(command.data)];
    case 'UpdateRoom': {
      mustExist(state);
      if (command.data.expectedVersion !== state.version) throw problems.versionConflict();
      const { expectedVersion: _v, ...details } = command.data;
      return [RoomUpdated.create(details)];
    }
    case 'DeleteRoom':
      mustExist(state);
      if (command.data.activeReservationCount > 0) {
        throw new Problem(
          409,
          'room__has_active_reservations',
          'The room has active reservations and cannot be deleted',
          [String(command.data.activeReservationCount)],
        );
      }
      return [RoomDeleted.create({ roomId: command.data.roomId })];
    case 'SetRoomImage':
      mustExist(state);
      return [RoomImageSet.create(command.data)];
    case 'ChangeRoomImageAlt':
      mustExist(state);
      if (!state.hasImage)
        throw problems.validation([
          { field: 'image', rule: 'required', message: messages.required },
        ]);
      return [RoomImageAltChanged.create(command.data)];
    case 'RemoveRoomImage':
      mustExist(state);
      if (!state.hasImage) return [];
      return [RoomImageRemoved.create(command.data)];
  }
}

/** Pure: the new manual order after moving one room to a 0-based index (clamped to the list). */
export function moveRoom(order: string[], roomId: string, index: number): string[] {
  if (!order.includes(roomId)) throw problems.notFound('Room');
  const rest = order.filter((id) => id !== roomId);
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), roomId, ...rest.slice(at)];
}
