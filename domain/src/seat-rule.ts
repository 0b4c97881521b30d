import { isOpenForBooking } from './booking-window.ts';
import type { LocalDate, LocalTime } from './calendar.ts';
import { cartRules, type CartRuleSlot } from './cart-rules.ts';
import type { CartRule, SeatRule } from './rule-codes.ts';
import type { BookingLimits } from './limits.ts';

/**
 * Whether a visitor may take a seat of a slot: one rule for every side that asks. The cart
 * decider refuses an add with the first rule it fails, the waitlist refuses a join unless the
 * slot is full, the visitor calendar marks each slot with the rules it fails, and the display
 * shows the seats carts may still take. A leaf: it imports nothing of the streams, each side
 * hands it the counts it reads (the folded slot stream or the read model).
 */

export type { SeatRule } from './rule-codes.ts';

/** A slot's seats as the rule counts them. */
export interface SlotSeats {
  capacity: number;
  /** Seats taken now: bookings, cart holds not yet ended and waitlist offers not yet lapsed. */
  taken: number;
  /** Waitlist entries that claim a freed seat: waiting, not passed over (waitlist-line.ts). */
  waiting: number;
  /** The slot's room has a waitlist (`waitlistOfferMinutes` set). */
  waitlistOn: boolean;
  /** The slot's start has come (the waitlist offers no more seats then). */
  started: boolean;
  /**
   * In a room with a seat plan, the plan's seats free in the slot (in service, held by no ticket
   * or offer); absent or null: the room has no plan, the capacity alone counts.
   */
  planSeatsFree?: number | null | undefined;
}

/**
 * The seats the people waiting claim: a freed seat is theirs before any cart's, but only while
 * the waitlist can still offer it to them, that is while the room's waitlist is on and the slot
 * has not started. Once it is off, or the slot has begun, nobody would ever be offered the seat,
 * so a cart may take it (the entries stay in line and count again if the waitlist is turned on).
 */
export function waitlistClaims(seats: SlotSeats): number {
  return seats.waitlistOn && !seats.started ? seats.waiting : 0;
}

/**
 * The seats free in a slot: capacity less the taken seats, and in a room with a seat plan no more
 * than the plan's free seats (seats out of service, or fewer seats than the capacity).
 */
export function freeSeatCount(seats: SlotSeats): number {
  const free = seats.capacity - seats.taken;
  return Math.max(0, seats.planSeatsFree == null ? free : Math.min(free, seats.planSeatsFree));
}

/** The seats a cart may still take: the free seats less the waitlist's claims. */
export function seatsForCarts(seats: SlotSeats): number {
  return Math.max(0, freeSeatCount(seats) - waitlistClaims(seats));
}

/** Whether a slot's start has come at the library's local day and time. */
export function hasStarted(
  slot: { date: LocalDate; startTime: LocalTime },
  at: { today: LocalDate; time: LocalTime },
): boolean {
  return slot.date < at.today || (slot.date === at.today && slot.startTime <= at.time);
}

/** Whether a slot has started and not ended at the library's local day and time (a walk-in's). */
export function isUnderWay(
  slot: { date: LocalDate; startTime: LocalTime; endTime: LocalTime },
  at: { today: LocalDate; time: LocalTime },
): boolean {
  return slot.date === at.today && slot.startTime <= at.time && at.time < slot.endTime;
}

export interface SeatQuestion {
  slot: CartRuleSlot;
  /** Staff closed the slot (a closure, docs/product.md#closures). */
  closed: boolean;
  seats: SlotSeats;
  /** The room's booking window (its open bounds and the holidays); null when the room is gone. */
  window: { from: LocalDate; until: LocalDate } | null;
  /** The tickets the visitor holds already: the cart's (or, for the waitlist, the bookings). */
  held: readonly CartRuleSlot[];
  limits: Pick<BookingLimits, 'maxCartTickets' | 'maxTicketsPerDay' | 'maxTicketsPerVisitor'>;
}

export interface SeatAnswer {
  /** The slot is not closed, has seats at all and its day lies in the room's booking window. */
  open: boolean;
  /** The per-visitor rules it fails (cart-rules.ts), most specific first. */
  cart: CartRule[];
  /** No seat is left for a cart. */
  full: boolean;
}

/** Whether a visitor may take a seat of a slot, and every rule it fails otherwise. */
export function seatAnswer(q: SeatQuestion): SeatAnswer {
  return {
    open:
      !q.closed &&
      q.seats.capacity > 0 &&
      q.window !== null &&
      isOpenForBooking(q.slot.date, q.window),
    cart: cartRules(q.held, q.slot, q.limits),
    full: seatsForCarts(q.seats) === 0,
  };
}

/** The rule an add is refused with: the first failed, null when the seat may be taken. */
export function firstFailedRule(a: SeatAnswer): SeatRule | null {
  if (!a.open) return 'timeslot_not_open';
  if (a.cart[0]) return a.cart[0];
  return a.full ? 'timeslot_no_tickets_left' : null;
}

/**
 * The rules the visitor calendar marks an open slot with (a slot that is not open is not shown):
 * no seat left first, then the per-visitor rules.
 */
export function calendarRules(a: Pick<SeatAnswer, 'cart' | 'full'>): SeatRule[] {
  return [...(a.full ? (['timeslot_no_tickets_left'] as const) : []), ...a.cart];
}
