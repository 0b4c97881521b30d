import type { Member } from '../rooms/affiliations.ts';
import type { SeatWish } from '../time-slots/seat-choice.ts';
import type { RoomHolidays } from '../booking-window.ts';
import type { SlotTicketEvent, TransactionEvent, VisitorEvent } from '@rr/events/catalogue';
import { TicketHoldExtended } from '@rr/events/catalogue';
import type { LocalDate } from '../calendar.ts';
import type { Now } from '../decider.ts';
import type { BookingLimits } from '../limits.ts';
import { initialBlacklistState, type BlacklistState } from '../blacklist/blacklist-entry.ts';
import type { RoomState } from '../rooms/room.ts';
import type { SlotState } from '../time-slots/time-slot.ts';
import {
  initialTransaction,
  initialVisitor,
  type TransactionState,
  type VisitorState,
} from './cart.ts';

type Language = 'de' | 'en';

/**
 * The commands of a reservation, from the first held seat to a cancellation. They write to the
 * cart's stream, to the stream of each slot they hold or free a seat of, and to the visitor's
 * stream (the per-visitor limits).
 */
export type ReservationCommand =
  /** Hold a seat of a slot in the cart (the first one creates the cart). */
  | {
      type: 'AddTicket';
      data: {
        transactionId: string;
        ticketId: string;
        timeSlotId: string;
        /** In a room with a seat plan: the seat, or its attributes, the visitor asks for. */
        seat?: SeatWish | undefined;
      };
    }
  | { type: 'RemoveTicket'; data: { ticketId: string } }
  /** Keep the cart alive: every hold lasts another hold period. */
  | { type: 'TouchCart' }
  /** The visitor (or the panic button) removes the cart: every hold is released at once. */
  | { type: 'RemoveCart' }
  /** The expiry job: an open cart past its expiry becomes expired and its holds are released. */
  | { type: 'ExpireCart' }
  /** The visitor books the cart; per-visitor limits and the blacklist are checked here. */
  | {
      type: 'BookCart';
      data: {
        ownerId: string;
        bookingNumber: string;
        visitorKey: string;
        /**
         * The keyed campus subject of a signed-in visitor: whom the per-visitor limits count the
         * booking for (limitsKeyOf); absent: a guest, counted by `visitorKey`.
         */
        subjectKey?: string | undefined;
        language: Language;
        /** The domain of the address (members-only rooms); never written to an event. */
        emailDomain?: string | undefined;
        /** The signed-in visitor (members' rooms); absent: a guest. Never written to an event. */
        member?: Member | undefined;
      };
    }
  /** Staff book a person into a slot: allowed beyond capacity (it shows as overbooked). */
  | {
      type: 'StaffBook';
      data: {
        transactionId: string;
        ticketId: string;
        timeSlotId: string;
        roomId: string;
        ownerId: string;
        bookingNumber: string;
        visitorKey: string;
        language: Language;
        /**
         * `false` refuses a slot without a free seat
         * (`timeslot__overbooking_not_confirmed`); `true` or left out books beyond the capacity.
         */
        confirmOverbooking?: boolean;
        /** In a room with a seat plan: the seat, or its attributes, staff ask for. */
        seat?: SeatWish | undefined;
      };
    }
  /**
   * A visitor at a free seat of a slot under way books it at once (docs/product.md#at-the-seat):
   * every rule of a booking, with the slot under way instead of the booking window.
   */
  | {
      type: 'WalkIn';
      data: {
        transactionId: string;
        ticketId: string;
        timeSlotId: string;
        roomId: string;
        seatId: string;
        ownerId: string;
        bookingNumber: string;
        visitorKey: string;
        /**
         * The keyed campus subject of a signed-in visitor: whom the per-visitor limits count the
         * booking for (limitsKeyOf); absent: a guest, counted by `visitorKey`.
         */
        subjectKey?: string | undefined;
        language: Language;
        /** The domain of the address (members-only rooms); never written to an event. */
        emailDomain?: string | undefined;
        /** The signed-in visitor (members' rooms); absent: a guest. Never written to an event. */
        member?: Member | undefined;
      };
    }
  /** Cancel booked tickets of an owner (the mail's link, or staff). */
  /**
   * `reason`: staff's, stated in the cancellation mail (e.g. a closure's); `reasonEn` its English
   * text, stated in an English mail.
   */
  /** Move a booked ticket to another slot of its room (docs/product.md#rebooking). */
  | {
      type: 'MoveTicket';
      data: {
        ownerId: string;
        ticketId: string;
        newTicketId: string;
        timeSlotId: string;
        bookingNumber: string;
        /** The domain of the booking's address (members-only rooms); never written to an event. */
        emailDomain?: string | undefined;
        /** In a room with a seat plan: the seat, or its attributes, asked for in the new slot. */
        seat?: SeatWish | undefined;
      };
    }
  | {
      type: 'CancelTickets';
      data: {
        ownerId: string;
        ticketIds: readonly string[];
        reason?: string | undefined;
        /** The closure that cancels them, if one does. */
        closureId?: string | undefined;
        reasonEn?: string | undefined;
      };
    };

/**
 * What a reservation command decides on, each part folded from its stream (or, for rooms and
 * holidays, from the write side's state tables written with their events). A command loads the
 * parts it needs; the others stay empty.
 */
export interface ReservationState {
  cart: TransactionState;
  slots: ReadonlyMap<string, SlotState>;
  visitor: VisitorState;
  blacklist: BlacklistState;
  /** The rooms of the slots concerned: their booking windows. */
  rooms: ReadonlyMap<string, RoomState>;
  /** Each room's holiday dates from today on: the working days of its booking window. */
  holidays: RoomHolidays;
  /** The days of the visitor's no-show releases (the no-show rule); loaded by a booking and a move. */
  noShows?: readonly LocalDate[];
}

export const emptyReservation: ReservationState = {
  cart: initialTransaction,
  slots: new Map(),
  visitor: initialVisitor,
  blacklist: initialBlacklistState,
  rooms: new Map(),
  holidays: new Map(),
};

export interface ReservationContext extends Now {
  limits: BookingLimits;
  /**
   * The library's IANA zone: a slot's start as an instant (the confirmation deadline, needed
   * only by a booking with a ticket of a room with confirmed addresses).
   */
  timeZone?: string | undefined;
}

/**
 * Events for several streams, each typed as its stream's: the cart, each slot it touches (by
 * slot id), the visitor.
 */
export interface ReservationDecision {
  transaction: TransactionEvent[];
  slots: Map<string, SlotTicketEvent[]>;
  visitor: VisitorEvent[];
}

export const emptyDecision = (): ReservationDecision => ({
  transaction: [],
  slots: new Map(),
  visitor: [],
});

export function pushSlot(d: ReservationDecision, timeSlotId: string, e: SlotTicketEvent): void {
  const list = d.slots.get(timeSlotId) ?? [];
  list.push(e);
  d.slots.set(timeSlotId, list);
}

/**
 * Whether a cart's ticket still holds its seat on its slot's stream: a closure of the slot ended
 * the hold there already (docs/product.md#closures), and the cart neither extends nor releases it
 * a second time.
 */
export function stillHeld(
  state: Pick<ReservationState, 'slots'>,
  t: { ticketId: string; timeSlotId: string },
): boolean {
  const held = state.slots.get(t.timeSlotId)?.tickets.get(t.ticketId);
  return held === undefined || held.status === 'NEW';
}

/** Every hold of the cart still standing lives until the cart's new expiry. */
export function extendHolds(
  d: ReservationDecision,
  state: Pick<ReservationState, 'cart' | 'slots'>,
  expiresAt: string,
): void {
  for (const t of state.cart.tickets.filter((x) => stillHeld(state, x)))
    pushSlot(d, t.timeSlotId, TicketHoldExtended.create({ ticketId: t.ticketId, expiresAt }));
}
