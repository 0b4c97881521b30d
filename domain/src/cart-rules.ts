import { minutesOf } from './calendar.ts';
import type { BookingLimits } from './limits.ts';
import type { CartRule } from './rule-codes.ts';

/** Whether two wall-clock ranges of one day overlap (touching ends do not). */
export function timesOverlap(
  a: { startTime: string; endTime: string },
  b: { startTime: string; endTime: string },
): boolean {
  return (
    minutesOf(a.startTime) < minutesOf(b.endTime) && minutesOf(b.startTime) < minutesOf(a.endTime)
  );
}

/** A slot as the cart rules see it: a ticket of the cart, or the slot to be added. */
export interface CartRuleSlot {
  timeSlotId: string;
  date: string;
  startTime: string;
  endTime: string;
}

export type { CartRule } from './rule-codes.ts';

/**
 * The rules a slot fails for a cart holding `tickets`, most specific first: the command side
 * refuses an add with the first (`decideAddTicket`), the calendar marks the slot with all of
 * them (`GET /transactions/{id}/rooms/{roomId}/available-timeslots`), so both follow one rule.
 *
 * - the slot is in the cart already (and nothing else is said about it);
 * - the cart holds `maxCartTickets`;
 * - the cart holds `maxTicketsPerVisitor` (only binding when it is below the cart size: a cart
 *   that could never be booked); the visitor's earlier bookings count only at booking, when the
 *   e-mail address names the visitor;
 * - the slot overlaps a ticket of the cart;
 * - the cart holds `maxTicketsPerDay` tickets on the slot's day; again earlier bookings of that
 *   day count only at booking.
 */
export function cartRules(
  tickets: readonly CartRuleSlot[],
  slot: CartRuleSlot,
  limits: Pick<BookingLimits, 'maxCartTickets' | 'maxTicketsPerDay' | 'maxTicketsPerVisitor'>,
): CartRule[] {
  if (tickets.some((t) => t.timeSlotId === slot.timeSlotId))
    return ['timeslot_already_in_transaction'];
  const rules: CartRule[] = [];
  if (tickets.length >= limits.maxCartTickets) rules.push('max_tickets_per_transaction_reached');
  if (tickets.length >= limits.maxTicketsPerVisitor) rules.push('max_tickets_by_user_reached');
  const sameDay = tickets.filter((t) => t.date === slot.date);
  if (sameDay.some((t) => timesOverlap(t, slot))) rules.push('max_tickets_per_time_reached');
  if (sameDay.length >= limits.maxTicketsPerDay) rules.push('max_tickets_per_day_reached');
  return rules;
}
