import { OrderedMap } from 'immutable';
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

/**
 * A slot's tickets by id, in the order they were first held: a persistent map, so that a change of
 * one ticket shares the others with the state before it (time-slots/slot-fold.ts).
 */
export type SlotTickets = OrderedMap<string, HeldTicket>;

/** A slot without tickets. */
export const noTickets: SlotTickets = OrderedMap<string, HeldTicket>();

/** A slot's tickets from [id, ticket] pairs, in their order. */
export const slotTickets = (entries: Iterable<[string, HeldTicket]>): SlotTickets =>
  OrderedMap<string, HeldTicket>(entries);

/** What seats are counted over: a slot's tickets and its waitlist (absent: nobody joined). */
export interface SeatHolder {
  tickets: SlotTickets;
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
 * An instant to compare holds' ends with: its canonical text (`toISOString`'s
 * `YYYY-MM-DDTHH:mm:ss.sssZ`; null beyond year 9999) and its milliseconds.
 */
interface Instant {
  iso: string | null;
  ms: number;
}

/**
 * Whether an ISO instant is in `toISOString`'s form, `YYYY-MM-DDTHH:mm:ss.sssZ`: two of them sort
 * as text in time order, so they are compared without parsing. The seat count compares every
 * hold of a slot on each command, and parsing was most of its cost. Its separators are checked
 * (- - T : : . Z), not its digits: the instants come from events, whose schema took only valid ones.
 */
const isCanonical = (iso: string) =>
  iso.length === 24 &&
  iso.charCodeAt(23) === 90 &&
  iso.charCodeAt(10) === 84 &&
  iso.charCodeAt(4) === 45 &&
  iso.charCodeAt(7) === 45 &&
  iso.charCodeAt(13) === 58 &&
  iso.charCodeAt(16) === 58 &&
  iso.charCodeAt(19) === 46;

function instantOf(now: Date): Instant {
  const ms = now.getTime();
  if (Number.isNaN(ms)) return { iso: null, ms };
  const iso = now.toISOString();
  return { iso: isCanonical(iso) ? iso : null, ms };
}

/** Whether the ISO instant `until` is after `now`; exactly as comparing their milliseconds. */
function endsAfter(until: string, now: Instant): boolean {
  return now.iso !== null && isCanonical(until) ? until > now.iso : Date.parse(until) > now.ms;
}

/** Whether ISO instant `a` is after `b` (an unparsable one is after nothing). */
function isLater(a: string, b: string): boolean {
  return isCanonical(a) && isCanonical(b) ? a > b : Date.parse(a) > Date.parse(b);
}

/**
 * Whether a ticket holds a seat in a cart at `now`: a hold (NEW) that has not ended. A ticket
 * cancelled or released before its hold ended holds nothing.
 */
const isHolding = (t: HeldTicket, now: Instant): t is HeldTicket & { expiresAt: string } =>
  t.status === 'NEW' && t.expiresAt !== null && endsAfter(t.expiresAt, now);

/** Whether a ticket takes a seat at `now`: a booking, or a hold that has not ended. */
export const takesSeat = (t: HeldTicket, now: Date): boolean =>
  t.status === 'BOOKED' || isHolding(t, instantOf(now));

export function seatsTakenApart(state: SeatHolder, now: Date): SeatsTaken {
  const at = instantOf(now);
  let booked = 0;
  let held = 0;
  let heldUntil: string | null = null;
  const later = (until: string) => {
    if (heldUntil === null || isLater(until, heldUntil)) heldUntil = until;
  };
  state.tickets.forEach((t) => {
    if (t.status === 'BOOKED') booked += 1;
    else if (isHolding(t, at)) {
      held += 1;
      later(t.expiresAt);
    }
  });
  // A waitlist offer holds its seat like a cart's hold.
  for (const offer of outstandingOffers(state.waitlist, now)) {
    held += 1;
    if (offer.offerExpiresAt !== null) later(offer.offerExpiresAt);
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
  const at = instantOf(now);
  let ahead = 0;
  let found = false;
  // forEach ends its walk at the ticket (a callback answering false).
  slot.tickets.forEach((t, id) => {
    if (id === ticketId) found = true;
    else if (t.status === 'BOOKED' || isHolding(t, at)) ahead += 1;
    return !found;
  });
  return found && ahead < slot.capacity;
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
