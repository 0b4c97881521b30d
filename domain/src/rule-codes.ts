/**
 * The codes the rules answer with, a leaf every rule and the refusals import (docs/product.md#cart-rules,
 * docs/product.md#states): the refusals name them without importing the rules themselves.
 */

/** The rule codes that a cart alone decides (no seats, no visitor). */
export type CartRule =
  | 'timeslot_already_in_transaction'
  | 'max_tickets_per_transaction_reached'
  | 'max_tickets_by_user_reached'
  | 'max_tickets_per_time_reached'
  | 'max_tickets_per_day_reached';

/** A rule a slot fails for a visitor, in the order the cart decider refuses with them. */
export type SeatRule = 'timeslot_not_open' | CartRule | 'timeslot_no_tickets_left';

/** A ticket's status on its slot's stream (docs/product.md#states). */
export type TicketStatus = 'NEW' | 'BOOKED' | 'CANCELLED' | 'INVALID';
