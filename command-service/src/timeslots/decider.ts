import type { NewEvent, SlotTicketEvent, TimeSlotLifecycleEvent } from '@rr/events';
import { TimeSlotCapacityChanged, TimeSlotDeleted, TimeSlotUpdated } from '@rr/events';
import { Problem, problems } from '@rr/platform';

export interface HeldTicket {
  status: 'NEW' | 'BOOKED' | 'CANCELLED' | 'INVALID';
  transactionId: string;
  /** Holds (NEW) count until this instant (ISO); bookings have none. */
  expiresAt: string | null;
  ownerId: string | null;
}

export interface SlotState {
  status: 'none' | 'active' | 'deleted';
  version: number;
  roomId: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  tickets: Record<string, HeldTicket>;
}

export const initialSlotState: SlotState = {
  status: 'none',
  version: 0,
  roomId: '',
  date: '',
  startTime: '',
  endTime: '',
  capacity: 0,
  tickets: {},
};

export type SlotEvent = TimeSlotLifecycleEvent | SlotTicketEvent;

function withTicket(
  state: SlotState,
  version: number,
  ticketId: string,
  change: Partial<HeldTicket>,
): SlotState {
  const current = state.tickets[ticketId];
  if (!current) return { ...state, version };
  return {
    ...state,
    version,
    tickets: { ...state.tickets, [ticketId]: { ...current, ...change } },
  };
}

export function evolveSlot(state: SlotState, event: SlotEvent): SlotState {
  const version = state.version + 1;
  switch (event.type) {
    case 'TicketHeld':
      return {
        ...state,
        version,
        tickets: {
          ...state.tickets,
          [event.data.ticketId]: {
            status: 'NEW',
            transactionId: event.data.transactionId,
            expiresAt: event.data.expiresAt,
            ownerId: null,
          },
        },
      };
    case 'TicketHoldExtended':
      return state.tickets[event.data.ticketId]?.status === 'NEW'
        ? withTicket(state, version, event.data.ticketId, { expiresAt: event.data.expiresAt })
        : { ...state, version };
    case 'TicketReleased':
      return withTicket(state, version, event.data.ticketId, {
        status: 'INVALID',
        expiresAt: null,
      });
    case 'TicketBooked':
      return withTicket(state, version, event.data.ticketId, {
        status: 'BOOKED',
        expiresAt: null,
        ownerId: event.data.ownerId,
      });
    case 'TicketCancelled':
      return withTicket(state, version, event.data.ticketId, { status: 'CANCELLED' });
    case 'TimeSlotCreated':
    case 'TimeSlotUpdated': {
      const d = event.data;
      return {
        ...state,
        status: 'active',
        version,
        roomId: d.roomId,
        date: d.date,
        startTime: d.startTime,
        endTime: d.endTime,
        capacity: d.capacity,
      };
    }
    case 'TimeSlotCapacityChanged':
      return { ...state, version, capacity: event.data.capacity };
    case 'TimeSlotDeleted':
      return { ...state, version, status: 'deleted' };
  }
}

/** Tickets that take a seat now: bookings, and holds that have not expired. */
export function seatsTaken(state: SlotState, now: Date): number {
  return Object.values(state.tickets).filter(
    (t) => t.status === 'BOOKED' || (t.expiresAt !== null && new Date(t.expiresAt) > now),
  ).length;
}

function mustBeSlotOfRoom(state: SlotState, roomId: string): void {
  if (state.status !== 'active' || state.roomId !== roomId) throw problems.notFound('Time slot');
}

export type SlotCommand =
  | {
      type: 'UpdateTimeSlot';
      data: {
        timeSlotId: string;
        roomId: string;
        startTime: string;
        endTime: string;
        capacity: number;
      };
    }
  | { type: 'ChangeCapacity'; data: { timeSlotId: string; roomId: string; capacity: number } }
  | { type: 'DeleteTimeSlot'; data: { timeSlotId: string; roomId: string } };

/**
 * Pure: the events a slot command produces. Administrators may cut capacity below the tickets
 * (the slot then shows as overbooked); a slot with tickets cannot be deleted.
 */
export function decideSlot(command: SlotCommand, state: SlotState, now: Date): NewEvent[] {
  mustBeSlotOfRoom(state, command.data.roomId);
  switch (command.type) {
    case 'UpdateTimeSlot': {
      const d = command.data;
      if (
        d.startTime === state.startTime &&
        d.endTime === state.endTime &&
        d.capacity === state.capacity
      )
        return [];
      return [TimeSlotUpdated.create({ ...d, date: state.date })];
    }
    case 'ChangeCapacity':
      if (command.data.capacity === state.capacity) return [];
      return [TimeSlotCapacityChanged.create(command.data)];
    case 'DeleteTimeSlot': {
      const taken = seatsTaken(state, now);
      if (taken > 0)
        throw new Problem(
          409,
          'timeslot__has_tickets',
          'The time slot has tickets and cannot be deleted',
          [String(taken)],
        );
      return [TimeSlotDeleted.create(command.data)];
    }
  }
}
