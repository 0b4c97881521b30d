import {
  RoomCreated,
  RoomDeleted,
  RoomImageAltChanged,
  RoomImageRemoved,
  RoomImageSet,
  RoomServicesChanged,
  RoomUpdated,
  type OpenBound,
  type RoomEvent,
  type RoomServices,
} from '@rr/events/catalogue';
import { messages } from '@rr/contracts/messages';
import { NO_ROOM_SERVICES } from '@rr/contracts/rooms';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { type Decide, type Now, unhandled } from '../decider.ts';
import { mustNameASite, refuse, Refused } from '../refusal.ts';
import { admittedDomains } from './email-domains.ts';
import { admittedAffiliations, signInRequired } from './affiliations.ts';
import {
  decideSeatPlan,
  evolveSeatPlan,
  NO_SEAT_PLAN,
  type SeatPlan,
  type SeatPlanCommand,
} from './seat-plan.ts';
import {
  addSeatsTaken,
  seatsTakenApart,
  seatsText,
  type SeatHolder,
  type SeatsTaken,
} from '../seats.ts';

/** `nameEn` and `descriptionEn`: the English texts, absent while staff leave them empty. */
export interface RoomDetails {
  roomId: string;
  /** The site the room belongs to (docs/product.md#sites). */
  siteId: string;
  name: string;
  nameEn?: string | undefined;
  description: string;
  descriptionEn?: string | undefined;
  capacity: number;
  /** Absent: the room sets none (its site's, else the product's default: roomOpenBounds). */
  openStart?: OpenBound | undefined;
  openEnd?: OpenBound | undefined;
}

/**
 * A room as its commands, and the cart commands that book its slots, decide on it: whether it
 * exists, its name (the cart's answer) and its booking window's bounds.
 */
export interface RoomState {
  status: 'none' | 'active' | 'deleted';
  version: number;
  /** The site it belongs to: the first site for a room whose events name none. */
  siteId: string;
  hasImage: boolean;
  name: string;
  /** The name's English text; absent: the name serves both languages. */
  nameEn?: string | undefined;
  /**
   * The bounds of its booking window: its own as its events leave them (absent: none); as the
   * seat decision's loaders give it, with its site's applied (roomOpenBounds).
   */
  openStart?: OpenBound | undefined;
  openEnd?: OpenBound | undefined;
  /** Its reading-room services, each null while off. */
  services: RoomServices;
  /** Its seats and their out-of-service ranges; no seats: no plan (seat-plan.ts). */
  seatPlan: SeatPlan;
}

export const initialRoomState: RoomState = {
  status: 'none',
  version: 0,
  siteId: FIRST_SITE_ID,
  hasImage: false,
  name: '',
  services: NO_ROOM_SERVICES,
  seatPlan: NO_SEAT_PLAN,
};

export function evolveRoom(state: RoomState, event: RoomEvent): RoomState {
  const version = state.version + 1;
  switch (event.type) {
    case 'RoomCreated':
    case 'RoomUpdated': {
      const { name, nameEn, openStart, openEnd } = event.data;
      const status = event.type === 'RoomCreated' ? 'active' : state.status;
      const siteId = event.data.siteId ?? FIRST_SITE_ID;
      return { ...state, status, version, siteId, name, nameEn, openStart, openEnd };
    }
    case 'RoomDeleted':
      return { ...state, status: 'deleted', version };
    case 'RoomImageSet':
      return { ...state, version, hasImage: true };
    case 'RoomImageAltChanged':
      return { ...state, version };
    case 'RoomImageRemoved':
      return { ...state, version, hasImage: false };
    case 'RoomServicesChanged': {
      const { roomId: _id, ...services } = event.data;
      return { ...state, version, services };
    }
    case 'RoomSeatsSet':
    case 'SeatTakenOutOfService':
    case 'SeatBackInService':
    case 'RoomSeatPlanImageSet':
    case 'RoomSeatPlanImageRemoved':
      return { ...state, version, seatPlan: evolveSeatPlan(state.seatPlan, event) };
  }
}

export type RoomCommand =
  | { type: 'CreateRoom'; data: RoomDetails }
  | {
      type: 'UpdateRoom';
      /** Without a site, the room stays at its own. */
      data: Omit<RoomDetails, 'siteId'> & { siteId?: string | undefined; expectedVersion: number };
    }
  | { type: 'DeleteRoom'; data: { roomId: string } }
  | {
      type: 'SetRoomImage';
      data: {
        roomId: string;
        imageId: string;
        contentType: 'image/jpeg' | 'image/png';
        size: number;
        alt: string;
        altEn?: string | undefined;
      };
    }
  | {
      type: 'ChangeRoomImageAlt';
      data: { roomId: string; alt: string; altEn?: string | undefined };
    }
  | { type: 'RemoveRoomImage'; data: { roomId: string } }
  | { type: 'ChangeRoomServices'; data: RoomServices & { roomId: string } }
  | SeatPlanCommand;

/**
 * What a room command decides on: the room, and for a deletion the room's slots from today on
 * (their tickets, held or booked, block it).
 */
export interface RoomCommandState {
  room: RoomState;
  slotsFromToday: readonly SeatHolder[];
  /** For a creation or an update: whether the site it names exists (the sites read under lock). */
  siteExists?: boolean;
}

/** A room's details as its events hold them: the first site is the one no event names. */
function asWritten<D extends { siteId?: string | undefined }>(details: D): D {
  if (details.siteId !== FIRST_SITE_ID) return details;
  const { siteId: _first, ...rest } = details;
  // Sound: siteId is optional in D, so D without it is still a D.
  return rest as D;
}

function mustExist(state: RoomState): void {
  if (state.status !== 'active') throw refuse.notFound('Room');
}

export const decideRoom: Decide<RoomCommand, RoomCommandState, Pick<Now, 'now'>, RoomEvent[]> = (
  command,
  { room, slotsFromToday, siteExists },
  { now },
) => {
  switch (command.type) {
    case 'CreateRoom':
      if (room.status !== 'none')
        throw new Refused('room__already_exists', 'The room exists already');
      mustNameASite(siteExists);
      return [RoomCreated.create(asWritten(command.data))];
    case 'UpdateRoom': {
      mustExist(room);
      if (command.data.expectedVersion !== room.version) throw refuse.versionConflict();
      mustNameASite(siteExists);
      const { expectedVersion: _v, siteId, ...details } = command.data;
      return [RoomUpdated.create(asWritten({ ...details, siteId: siteId ?? room.siteId }))];
    }
    case 'DeleteRoom': {
      mustExist(room);
      const taken = slotsFromToday.reduce<SeatsTaken>(
        (sum, slot) => addSeatsTaken(sum, seatsTakenApart(slot, now)),
        { booked: 0, held: 0, heldUntil: null },
      );
      if (taken.booked + taken.held > 0)
        throw new Refused(
          { code: 'room__has_active_reservations', seats: taken },
          seatsText('The room', taken),
        );
      return [RoomDeleted.create(command.data)];
    }
    case 'SetRoomImage':
      mustExist(room);
      return [RoomImageSet.create(command.data)];
    case 'ChangeRoomImageAlt':
      mustExist(room);
      if (!room.hasImage)
        throw refuse.field({ field: 'image', rule: 'required', message: messages.required });
      return [RoomImageAltChanged.create(command.data)];
    case 'RemoveRoomImage':
      mustExist(room);
      if (!room.hasImage) return [];
      return [RoomImageRemoved.create(command.data)];
    case 'ChangeRoomServices': {
      mustExist(room);
      const { roomId: _id, ...services } = command.data;
      const same =
        (
          [
            'checkInMinutesBefore',
            'noShowReleaseMinutes',
            'waitlistOfferMinutes',
            'reminderHoursBefore',
          ] as const
        ).every((key) => services[key] === room.services[key]) &&
        (services.confirmBookingMinutes ?? null) ===
          (room.services.confirmBookingMinutes ?? null) &&
        admittedDomains(services).join(',') === admittedDomains(room.services).join(',') &&
        signInRequired(services) === signInRequired(room.services) &&
        admittedAffiliations(services).join(',') === admittedAffiliations(room.services).join(',');
      return same ? [] : [RoomServicesChanged.create(command.data)];
    }
    case 'SetRoomSeats':
    case 'TakeSeatOutOfService':
    case 'ReturnSeatToService':
    case 'SetSeatPlanImage':
    case 'RemoveSeatPlanImage':
      mustExist(room);
      return decideSeatPlan(command, room.seatPlan);
    default:
      return unhandled(command);
  }
};
