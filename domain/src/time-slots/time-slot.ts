import {
  TimeSlotCapacityChanged,
  TimeSlotClosed,
  TimeSlotCreated,
  TimeSlotDeleted,
  TimeSlotUpdated,
  TicketReleased,
  type SlotTicketEvent,
  type TimeSlotLifecycleEvent,
  type WaitlistEvent,
} from '@rr/events/catalogue';
import { MAX_TIME_SLOTS_PER_REQUEST } from '@rr/contracts/timeslots';
import { daysFromTo, minutesOf, type LocalDate, type Weekday } from '../calendar.ts';
import { type Decide, type Now, unhandled } from '../decider.ts';
import { refuse, Refused } from '../refusal.ts';
import { slotDates } from '../slot-dates.ts';
import type { RoomState } from '../rooms/room.ts';
import { noTickets, seatsTakenApart, seatsText, type SlotTickets } from '../seats.ts';
import type { Waitlist } from '../waitlist-line.ts';

export interface SlotState {
  status: 'none' | 'active' | 'deleted';
  version: number;
  roomId: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  /** Its tickets by id, in the order they were first held (a hold keeps its seat by it). */
  tickets: SlotTickets;
  /** The slot's waitlist in line order (absent: nobody ever joined). */
  waitlist?: Waitlist;
  /** Staff closed the slot (docs/product.md#closures): no more carts, no more offers. */
  closed?: { closureId: string; reason: string };
  /**
   * The seats of the room's plan staff chose the slot to offer (docs/product.md#seat-plans, e.g.
   * exam places); absent: every seat of the plan in service.
   */
  seatIds?: readonly string[];
}

export const initialSlotState: SlotState = {
  status: 'none',
  version: 0,
  roomId: '',
  date: '',
  startTime: '',
  endTime: '',
  capacity: 0,
  tickets: noTickets,
};

export type SlotEvent = TimeSlotLifecycleEvent | SlotTicketEvent | WaitlistEvent;

export { evolveSlot, evolveSlotWith } from './slot-fold.ts';

/** When a slot of the room sits (minutes of the day): what a new or moved slot must not overlap. */
export interface SlotTimes {
  timeSlotId: string;
  date: LocalDate;
  startMin: number;
  endMin: number;
}

export interface SlotSeriesInput {
  startDate: LocalDate;
  repeatUntil?: LocalDate | null | undefined;
  daysOfWeek: Weekday[];
  includeHolidays: boolean;
  startTime: string;
  endTime: string;
  capacity: number;
}

export type TimeSlotCommand =
  | { type: 'CreateTimeSlots'; data: SlotSeriesInput & { roomId: string } }
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
  /** Multi capacity: every slot of the room in a date range. */
  | {
      type: 'ChangeCapacity';
      data: { roomId: string; fromDate: LocalDate; untilDate: LocalDate; capacity: number };
    }
  | { type: 'DeleteTimeSlot'; data: { timeSlotId: string; roomId: string } }
  /**
   * A closure: every slot of the room in a date range is closed with the library's reason. A slot
   * closed already stays as it is (a closure run twice changes nothing).
   */
  | {
      type: 'CloseTimeSlots';
      data: {
        roomId: string;
        fromDate: LocalDate;
        untilDate: LocalDate;
        closureId: string;
        reason: string;
        /** The reason's English text; absent: the reason serves both languages. */
        reasonEn?: string | undefined;
      };
    };

/**
 * What a slot command decides on: the room (it must exist), the slots it changes, the holidays
 * of a new series' range, and when the room's other slots sit on the days concerned (from the
 * guard table written with the slots' events).
 */
export interface TimeSlotCommandState {
  room: RoomState;
  slots: ReadonlyMap<string, SlotState>;
  holidays: ReadonlySet<LocalDate>;
  taken: readonly SlotTimes[];
}

export interface TimeSlotContext extends Pick<Now, 'now'> {
  newId: () => string;
}

/**
 * Events by slot id (each slot is a stream of its own), typed as the slot's lifecycle events and,
 * for a closure, the holds it ends.
 */
export type TimeSlotDecision = Map<
  string,
  (
    | TimeSlotLifecycleEvent
    | Extract<SlotTicketEvent, { type: 'TicketReleased' | 'TicketSeatChanged' }>
  )[]
>;

function firstOverlap(
  taken: readonly SlotTimes[],
  dates: readonly LocalDate[],
  startTime: string,
  endTime: string,
  except?: string,
): LocalDate | null {
  const days = new Set(dates);
  const [start, end] = [minutesOf(startTime), minutesOf(endTime)];
  const clashes = taken
    .filter(
      (t) => t.timeSlotId !== except && days.has(t.date) && t.startMin < end && start < t.endMin,
    )
    .map((t) => t.date)
    .sort();
  return clashes[0] ?? null;
}

const overlapping = (date: LocalDate) =>
  new Refused(
    { code: 'timeslot__overlapping', date },
    'A time slot already exists within those times',
  );

export function slotOfRoom(
  state: TimeSlotCommandState,
  timeSlotId: string,
  roomId: string,
): SlotState {
  const slot = state.slots.get(timeSlotId);
  if (!slot || slot.status !== 'active' || slot.roomId !== roomId)
    throw refuse.notFound('Time slot');
  return slot;
}

/**
 * Pure: the events of a slot command. A series creates one slot per matching weekday (holidays
 * skipped unless included), at most maxTimeSlots, none overlapping another slot of the room.
 * Administrators may cut capacity below the tickets (the slot then shows as overbooked); a slot
 * with tickets cannot be deleted.
 */
export const decideTimeSlot: Decide<
  TimeSlotCommand,
  TimeSlotCommandState,
  TimeSlotContext,
  TimeSlotDecision
> = (command, state, { now, newId }) => {
  if (state.room.status !== 'active') throw refuse.notFound('Room');
  const decision: TimeSlotDecision = new Map();
  switch (command.type) {
    case 'CreateTimeSlots': {
      const d = command.data;
      // At most one more date than allowed: enough to refuse a series that is too long.
      const dates = slotDates(
        { ...d, repeatUntil: d.repeatUntil ?? undefined },
        (date) => state.holidays.has(date),
        MAX_TIME_SLOTS_PER_REQUEST,
      );
      if (dates.length > MAX_TIME_SLOTS_PER_REQUEST)
        throw refuse.field({
          field: 'repeatUntil',
          rule: 'too_big',
          message: `At most ${MAX_TIME_SLOTS_PER_REQUEST} time slots at once`,
        });
      const clash = firstOverlap(state.taken, dates, d.startTime, d.endTime);
      if (clash) throw overlapping(clash);
      for (const date of dates) {
        const timeSlotId = newId();
        const { roomId, startTime, endTime, capacity } = d;
        decision.set(timeSlotId, [
          TimeSlotCreated.create({ timeSlotId, roomId, date, startTime, endTime, capacity }),
        ]);
      }
      return decision;
    }
    case 'UpdateTimeSlot': {
      const d = command.data;
      const slot = slotOfRoom(state, d.timeSlotId, d.roomId);
      if (
        d.startTime === slot.startTime &&
        d.endTime === slot.endTime &&
        d.capacity === slot.capacity
      )
        return decision;
      const clash = firstOverlap(state.taken, [slot.date], d.startTime, d.endTime, d.timeSlotId);
      if (clash) throw overlapping(clash);
      decision.set(d.timeSlotId, [TimeSlotUpdated.create({ ...d, date: slot.date })]);
      return decision;
    }
    case 'ChangeCapacity': {
      const { roomId, fromDate, untilDate, capacity } = command.data;
      for (const [timeSlotId, slot] of state.slots) {
        const inRange = slot.date >= fromDate && slot.date <= untilDate;
        if (slot.status !== 'active' || slot.roomId !== roomId || !inRange) continue;
        if (slot.capacity === capacity) continue;
        decision.set(timeSlotId, [
          TimeSlotCapacityChanged.create({ timeSlotId, roomId, capacity }),
        ]);
      }
      return decision;
    }
    case 'CloseTimeSlots': {
      const { roomId, fromDate, untilDate, closureId, reason, reasonEn } = command.data;
      for (const [timeSlotId, slot] of state.slots) {
        const inRange = slot.date >= fromDate && slot.date <= untilDate;
        if (slot.status !== 'active' || slot.roomId !== roomId || !inRange) continue;
        if (slot.closed) continue;
        // The seats held in carts go with the closure, in the same step on the slot's stream:
        // a cart books after it or not at all (docs/product.md#closures). Bookings stay.
        const holds = [...slot.tickets]
          .filter(([, t]) => t.status === 'NEW')
          .map(([ticketId]) => TicketReleased.create({ ticketId, reason: 'closed' }));
        decision.set(timeSlotId, [
          TimeSlotClosed.create({
            timeSlotId,
            roomId,
            closureId,
            reason,
            ...(reasonEn ? { reasonEn } : {}),
          }),
          ...holds,
        ]);
      }
      return decision;
    }
    case 'DeleteTimeSlot': {
      const slot = slotOfRoom(state, command.data.timeSlotId, command.data.roomId);
      const taken = seatsTakenApart(slot, now);
      if (taken.booked + taken.held > 0)
        throw new Refused(
          { code: 'timeslot__has_tickets', seats: taken },
          seatsText('The time slot', taken),
        );
      decision.set(command.data.timeSlotId, [TimeSlotDeleted.create(command.data)]);
      return decision;
    }
    default:
      return unhandled(command);
  }
};

/**
 * A closure's period, its preview's as its own: at most `maxDays` days (CLOSURE_MAX_DAYS),
 * counted in days (the day after 9999-12-31 has no date string to compare with).
 */
export function refuseLongClosure(
  fromDate: LocalDate,
  untilDate: LocalDate,
  maxDays: number,
): void {
  if (daysFromTo(fromDate, untilDate) > maxDays - 1)
    throw refuse.field({
      field: 'untilDate',
      rule: 'too_big',
      message: `At most ${maxDays} days at once`,
    });
}
