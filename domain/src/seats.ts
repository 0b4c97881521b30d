import type { LocalDate, LocalTime } from './calendar.ts';
import type { Now } from './decider.ts';
import type { TicketStatus } from './rule-codes.ts';
import { hasStarted, type SlotSeats } from './seat-rule.ts';
import { outstandingOffers, waitingCount, type Waitlist } from './waitlist-line.ts';

/**
 * Seat counting, one leaf for every side: the slot's decisions, the room's deletion, the cart and
 * the waitlist count seats with it; it reads nothing of the streams.
 */

export interface HeldTicket {
  status: TicketStatus;
  transactionId: string;
  /** Holds (NEW) count until this instant (ISO); bookings have none. */
  expiresAt: string | null;
  ownerId: string | null;
  /** When a booked ticket's reader was checked in; absent or null: not checked in. */
  checkedInAt?: string | null;
  /** The ticket was released as a no-show (its status is then INVALID). */
  noShow?: boolean;
  /**
   * Confirmed addresses: a booked ticket awaits its visitor's confirmation until this instant
   * (ISO); absent or null: confirmed, or never asked. It takes its seat like any booked ticket.
   */
  confirmBy?: string | null;
  /** The visitor confirmed the ticket's address in time. */
  confirmed?: boolean;
  /** The ticket was released unconfirmed (its status is then INVALID). */
  unconfirmed?: boolean;
  /** The seat of the room's plan it holds (docs/product.md#seat-plans); absent: none. */
  seat?: TicketSeat | undefined;
}

/** A seat of a room's plan as a ticket or an offer holds it: its id and label. */
export interface TicketSeat {
  seatId: string;
  label: string;
}

/** What seats are counted over: a slot's tickets and its waitlist (absent: nobody joined). */
export interface SeatHolder {
  tickets: Readonly<Record<string, HeldTicket>>;
  waitlist?: Waitlist | undefined;
}

/**
 * The seats a slot's tickets take now, apart: bookings, and cart holds that have not expired
 * (with the end of the last of them: a hold blocks no longer than that).
 */
export interface SeatsTaken {
  booked: number;
  held: number;
  /** The instant the last unexpired hold ends; null without holds. */
  heldUntil: string | null;
}

/**
 * Whether a ticket holds a seat in a cart at `now`: a hold (NEW) that has not ended. A ticket
 * cancelled or released before its hold ended holds nothing.
 */
const isHolding = (t: HeldTicket, now: Date): t is HeldTicket & { expiresAt: string } =>
  // Date.parse, not new Date: the seat count runs over every ticket of a slot on each command.
  t.status === 'NEW' && t.expiresAt !== null && Date.parse(t.expiresAt) > now.getTime();

/** Whether a ticket takes a seat at `now`: a booking, or a hold that has not ended. */
export const takesSeat = (t: HeldTicket, now: Date): boolean =>
  t.status === 'BOOKED' || isHolding(t, now);

export function seatsTakenApart(state: SeatHolder, now: Date): SeatsTaken {
  let booked = 0;
  let held = 0;
  let heldUntil: string | null = null;
  let heldUntilMs = -Infinity;
  const later = (until: string | null) => {
    const ms = until === null ? NaN : Date.parse(until);
    if (heldUntil === null || ms > heldUntilMs) {
      heldUntil = until;
      heldUntilMs = ms;
    }
  };
  for (const t of Object.values(state.tickets)) {
    if (t.status === 'BOOKED') booked += 1;
    else if (isHolding(t, now)) {
      held += 1;
      later(t.expiresAt);
    }
  }
  // A waitlist offer holds its seat like a cart's hold.
  for (const offer of outstandingOffers(state.waitlist, now)) {
    held += 1;
    later(offer.offerExpiresAt);
  }
  return { booked, held, heldUntil };
}

/** Sums the seats of several slots (a room's). */
export function addSeatsTaken(a: SeatsTaken, b: SeatsTaken): SeatsTaken {
  const later =
    a.heldUntil === null || (b.heldUntil !== null && new Date(b.heldUntil) > new Date(a.heldUntil))
      ? b.heldUntil
      : a.heldUntil;
  return { booked: a.booked + b.booked, held: a.held + b.held, heldUntil: later };
}

/** Tickets that take a seat now: bookings, and holds that have not expired. */
export function seatsTaken(state: SeatHolder, now: Date): number {
  const { booked, held } = seatsTakenApart(state, now);
  return booked + held;
}

/**
 * Whether a cart's hold still has its seat when it is booked: fewer tickets taking a seat now were
 * held before it than the slot has seats. First come, first served: a hold taken while a seat
 * was free keeps it against later holds and staff's bookings (overbooking is theirs to confirm),
 * but not against a capacity lowered below it. The order is the slot stream's (the fold keeps
 * its tickets in the order they were first held).
 */
export function holdHasSeat(
  slot: SeatHolder & { capacity: number },
  ticketId: string,
  now: Date,
): boolean {
  let ahead = 0;
  for (const [id, t] of Object.entries(slot.tickets)) {
    if (id === ticketId) return ahead < slot.capacity;
    if (takesSeat(t, now)) ahead += 1;
  }
  return false;
}

/** The English text of such a refusal: how many are booked, how many held and until when. */
export function seatsText(what: string, { booked, held, heldUntil }: SeatsTaken): string {
  const holds = held > 0 ? ` and ${held} held in carts until ${heldUntil ?? ''}` : '';
  return `${what} has ${booked} booked reservations${holds} and cannot be deleted`;
}

/**
 * A slot's seats at an instant, as the seat rule (seat-rule.ts) counts them: the seats taken,
 * the people waiting, whether the room's waitlist is on and whether the slot has started.
 */
export function slotSeatsAt(
  slot: SeatHolder & { capacity: number; date: LocalDate; startTime: LocalTime },
  waitlistOn: boolean,
  at: Now,
  planSeatsFree: number | null = null,
): SlotSeats {
  return {
    capacity: slot.capacity,
    taken: seatsTaken(slot, at.now),
    waiting: waitingCount(slot.waitlist),
    waitlistOn,
    started: hasStarted(slot, at),
    planSeatsFree,
  };
}
