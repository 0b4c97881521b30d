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
  /**
   * The site of the slot's room: what the per-visitor maxima count by when they count per site
   * (`limitsPerSite`); the loaders give it then, and may leave it out otherwise.
   */
  siteId?: string | undefined;
  /** The slot's room: the seat decision finds the site by it where `siteId` is not given. */
  roomId?: string | undefined;
}

/**
 * The tickets held that count towards the per-visitor maxima for the slot: every one, or with
 * `limitsPerSite` those of the slot's site only. A ticket without its site while the maxima count
 * per site is a loader's mistake, never counted silently as another site's: it throws.
 */
export function countedForLimits(
  tickets: readonly CartRuleSlot[],
  slot: CartRuleSlot,
  limits: Pick<BookingLimits, 'limitsPerSite'>,
): readonly CartRuleSlot[] {
  if (!limits.limitsPerSite || tickets.length === 0) return tickets;
  const siteOf = (t: CartRuleSlot) => {
    if (t.siteId === undefined) throw new Error('the site of a ticket the limits count is needed');
    return t.siteId;
  };
  const site = siteOf(slot);
  return tickets.filter((t) => siteOf(t) === site);
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
 *
 * With `limitsPerSite` the two maxima count only the tickets of the slot's site
 * (countedForLimits); the cart's size and the overlap count every ticket: one cart is one
 * cart, and one person is at one place at a time, whatever the site.
 */
export function cartRules(
  tickets: readonly CartRuleSlot[],
  slot: CartRuleSlot,
  limits: Pick<
    BookingLimits,
    'maxCartTickets' | 'maxTicketsPerDay' | 'maxTicketsPerVisitor' | 'limitsPerSite'
  >,
): CartRule[] {
  if (tickets.some((t) => t.timeSlotId === slot.timeSlotId))
    return ['timeslot_already_in_transaction'];
  const rules: CartRule[] = [];
  const counted = countedForLimits(tickets, slot, limits);
  if (tickets.length >= limits.maxCartTickets) rules.push('max_tickets_per_transaction_reached');
  if (counted.length >= limits.maxTicketsPerVisitor) rules.push('max_tickets_by_user_reached');
  if (tickets.some((t) => t.date === slot.date && timesOverlap(t, slot)))
    rules.push('max_tickets_per_time_reached');
  if (counted.filter((t) => t.date === slot.date).length >= limits.maxTicketsPerDay)
    rules.push('max_tickets_per_day_reached');
  return rules;
}

/**
 * A person's bookings from today on, as their limits count them (cart-rules.ts): what a booking,
 * a rebooking, a join and an offer weigh the wanted seat against.
 */
export function bookedSeats(
  visitor: { tickets: readonly (Omit<CartRuleSlot, 'timeSlotId'> & { cancelled: boolean })[] },
  today: string,
): CartRuleSlot[] {
  return visitor.tickets
    .filter((t) => !t.cancelled && t.date >= today)
    .map(({ date, startTime, endTime, siteId }) => ({
      timeSlotId: '',
      date,
      startTime,
      endTime,
      ...(siteId !== undefined ? { siteId } : {}),
    }));
}
