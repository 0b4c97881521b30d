/**
 * The paths by which a person comes to a seat of a slot, the rules of the one decision that gives
 * it (take-seat.ts), and for every path and every rule whether the path applies it or why not. A
 * new path or a new rule does not compile until this table names it.
 */

/** The ways a person comes to a seat. */
export const SEAT_PATHS = [
  'cart-add',
  'cart-booking',
  'staff-booking',
  'move',
  'waitlist-join',
  'waitlist-offer',
  'offer-taken',
  'walk-in',
] as const;
export type SeatPath = (typeof SEAT_PATHS)[number];

/**
 * The rules, grouped in the order they are applied: the slot's first, then the person's limits
 * (among themselves in the cart rules' order, docs/product.md#cart-rules), who the person is, the
 * seat itself, and last the confirmation a booking of the seat awaits.
 */
export const SEAT_RULES = [
  /** The slot exists, is not deleted and not closed (docs/product.md#closures). */
  'slot-open',
  /** The slot has seats and its day lies in its room's booking window (docs/product.md#booking-window). */
  'booking-window',
  /** The slot has not started. */
  'not-started',
  /**
   * The slot has started and not ended: a walk-in books at the seat, in the slot under way
   * (docs/product.md#at-the-seat), instead of in the booking window.
   */
  'under-way',
  /** Not the same slot twice, nor one overlapping another the person holds (max_tickets_per_time_reached). */
  'per-time',
  /** The cart's size (max_tickets_per_transaction_reached). */
  'cart-size',
  /** Booked tickets from today on (max_tickets_by_user_reached). */
  'per-visitor',
  /** Tickets on the slot's day (max_tickets_per_day_reached). */
  'per-day',
  /** A blacklisted address takes no seat. */
  'blacklist',
  /** An address blocked by the no-show rule takes no seat. */
  'no-show-block',
  /** A members-only room admits addresses at its domains only. */
  'members-only',
  /** A room for members of the university admits signed-in visitors (of its affiliations) only. */
  'members-sign-in',
  /** A seat is free for the person (how it is counted depends on what the path holds). */
  'capacity',
  /**
   * In a room with a seat plan, a seat of it is free in the slot: the one wished for, one with the
   * attributes wished for, or the best free one (seat-choice.ts).
   */
  'seat',
  /** In a room with confirmed addresses, the booked seat awaits the confirmation. */
  'confirmed-address',
] as const;
export type SeatRuleName = (typeof SEAT_RULES)[number];

/** A rule a path applies, or the reason it does not. */
export type RuleUse = 'applies' | { skipped: string };

const noAddress = {
  skipped: 'a cart has no address until it is booked; the booking applies it',
};
const staffDecide = {
  skipped: 'staff know whom they book (docs/product.md#room-services)',
};
const atJoinAndBooking = {
  skipped: 'decided at the join, and again when the cart the offer becomes is booked',
};
const offeredAlready = {
  skipped: 'decided by the matcher when it offered the seat; the cart is booked with every rule',
};
const noBooking = { skipped: 'no booking is made: the booking of the cart asks' };
const notAtTheSeat = {
  skipped: 'only a walk-in books at the seat, in the slot under way',
};

/**
 * Every path and every rule: the compiler refuses a path or a rule without its entry. The
 * capacity rule counts by what the path holds: a cart's add and a move need a seat no cart, hold,
 * offer or waiting person claims; booking a cart needs its hold to keep a seat (first come, first
 * served); staff may book beyond the capacity when they confirm it; a join needs the slot full;
 * the matcher offers only seats nobody takes; a taken offer holds its seat already.
 */
export const seatRulesOf: Readonly<Record<SeatPath, Readonly<Record<SeatRuleName, RuleUse>>>> = {
  'cart-add': {
    'slot-open': 'applies',
    'booking-window': 'applies',
    'not-started': {
      skipped: 'the window is by date: a slot of today may be booked at short notice',
    },
    'under-way': notAtTheSeat,
    'per-time': 'applies',
    'cart-size': 'applies',
    'per-visitor': 'applies',
    'per-day': 'applies',
    blacklist: noAddress,
    'no-show-block': noAddress,
    'members-only': noAddress,
    'members-sign-in': { skipped: 'the person is asked when the cart is booked' },
    capacity: 'applies',
    seat: 'applies',
    'confirmed-address': noBooking,
  },
  'cart-booking': {
    'slot-open': 'applies',
    'booking-window': {
      skipped: 'the seat was held inside the window; its hold keeps its place within the capacity',
    },
    'not-started': {
      skipped: 'the window is by date: a slot of today may be booked at short notice',
    },
    'under-way': notAtTheSeat,
    'per-time': 'applies',
    'cart-size': { skipped: 'the cart was filled within its size' },
    'per-visitor': 'applies',
    'per-day': 'applies',
    blacklist: 'applies',
    'no-show-block': 'applies',
    'members-only': 'applies',
    'members-sign-in': 'applies',
    capacity: 'applies',
    seat: { skipped: 'the hold keeps the seat it took when it was held' },
    'confirmed-address': 'applies',
  },
  'staff-booking': {
    'slot-open': 'applies',
    'booking-window': { skipped: 'staff book at any time, without the window' },
    'not-started': { skipped: 'a staff booking of a slot under way is the reader at the desk' },
    'under-way': notAtTheSeat,
    'per-time': { skipped: 'staff bookings are made without the per-visitor rules' },
    'cart-size': { skipped: 'a staff booking has no cart to fill' },
    'per-visitor': { skipped: 'staff bookings are made without the per-visitor rules' },
    'per-day': { skipped: 'staff bookings are made without the per-visitor rules' },
    blacklist: staffDecide,
    'no-show-block': staffDecide,
    'members-only': staffDecide,
    'members-sign-in': staffDecide,
    capacity: 'applies',
    seat: 'applies',
    'confirmed-address': staffDecide,
  },
  move: {
    'slot-open': 'applies',
    'booking-window': 'applies',
    'not-started': {
      skipped: 'the window is by date: a slot of today may be booked at short notice',
    },
    'under-way': notAtTheSeat,
    'per-time': 'applies',
    'cart-size': { skipped: 'a rebooking adds no ticket to a cart being filled' },
    'per-visitor': 'applies',
    'per-day': 'applies',
    blacklist: 'applies',
    'no-show-block': 'applies',
    'members-only': 'applies',
    'members-sign-in': {
      skipped: 'a rebooking stays in its room, whose members the booking admitted',
    },
    capacity: 'applies',
    seat: 'applies',
    'confirmed-address': 'applies',
  },
  'waitlist-join': {
    'slot-open': 'applies',
    'booking-window': 'applies',
    'not-started': 'applies',
    'under-way': notAtTheSeat,
    'per-time': 'applies',
    'cart-size': { skipped: 'a join holds no cart' },
    'per-visitor': 'applies',
    'per-day': 'applies',
    blacklist: 'applies',
    'no-show-block': 'applies',
    'members-only': 'applies',
    'members-sign-in': 'applies',
    capacity: 'applies',
    seat: { skipped: 'a join takes no seat: the offer takes one when it is free' },
    'confirmed-address': noBooking,
  },
  'waitlist-offer': {
    'slot-open': 'applies',
    'booking-window': {
      skipped: 'the line was joined inside the window; a freed seat is offered until the start',
    },
    'not-started': 'applies',
    'under-way': notAtTheSeat,
    'per-time': 'applies',
    'cart-size': { skipped: 'an offer holds no cart' },
    'per-visitor': 'applies',
    'per-day': 'applies',
    blacklist: atJoinAndBooking,
    'no-show-block': atJoinAndBooking,
    'members-only': atJoinAndBooking,
    'members-sign-in': atJoinAndBooking,
    capacity: 'applies',
    seat: 'applies',
    'confirmed-address': noBooking,
  },
  'offer-taken': {
    'slot-open': 'applies',
    'booking-window': offeredAlready,
    'not-started': { skipped: 'an offer lapses by the slot’s start at the latest' },
    'under-way': notAtTheSeat,
    'per-time': offeredAlready,
    'cart-size': { skipped: 'the offer is the new cart’s first ticket' },
    'per-visitor': offeredAlready,
    'per-day': offeredAlready,
    blacklist: atJoinAndBooking,
    'no-show-block': atJoinAndBooking,
    'members-only': atJoinAndBooking,
    'members-sign-in': atJoinAndBooking,
    capacity: 'applies',
    seat: { skipped: 'the offer holds its seat: the hold takes that one' },
    'confirmed-address': noBooking,
  },
  'walk-in': {
    'slot-open': 'applies',
    'booking-window': { skipped: 'a walk-in books in the slot under way instead (under-way)' },
    'not-started': { skipped: 'a walk-in books in the slot under way instead (under-way)' },
    'under-way': 'applies',
    'per-time': 'applies',
    'cart-size': { skipped: 'a walk-in books one seat at once, without a cart' },
    'per-visitor': 'applies',
    'per-day': 'applies',
    blacklist: 'applies',
    'no-show-block': 'applies',
    'members-only': 'applies',
    'members-sign-in': 'applies',
    capacity: 'applies',
    seat: 'applies',
    'confirmed-address': {
      skipped:
        'the reader books in person at the seat of a slot under way: a deadline never past the start would release the seat at once',
    },
  },
};
