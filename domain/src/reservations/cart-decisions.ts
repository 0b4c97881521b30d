import { TicketAddedToTransaction, TicketHeld, TransactionStarted } from '@rr/events/catalogue';
import type { LocalDate } from '../calendar.ts';
import { refuse, Refused } from '../refusal.ts';
import { bookingWindow, isOpenForBooking } from '../booking-window.ts';
import { cartRules } from '../cart-rules.ts';
import type { BookingLimits } from '../limits.ts';
import { seatsTaken } from '../seats.ts';
import type { SlotState } from '../time-slots/time-slot.ts';
import { waitingCount } from '../waitlist-line.ts';
import { cartTicketOf, isExpired, type TransactionState } from './cart.ts';
import {
  emptyDecision,
  extendHolds,
  pushSlot,
  type ReservationContext,
  type ReservationDecision,
  type ReservationState,
} from './types.ts';

/** The decisions on an open cart: holding and freeing seats, keeping it alive, its end. */

export const transactionExpired = () =>
  new Refused('transaction__expired', 'The reservation cart has expired');
export const alreadyBooked = () =>
  new Refused('transaction__already_booked', 'The reservation was booked already');

export function mustBeOpen(cart: TransactionState, now: Date): void {
  if (cart.status === 'none' || cart.status === 'removed') throw refuse.notFound('Transaction');
  if (cart.status === 'booked') throw alreadyBooked();
  if (cart.status === 'expired' || isExpired(cart, now)) throw transactionExpired();
}

export const expiry = (now: Date, limits: BookingLimits) =>
  new Date(now.getTime() + limits.holdMinutes * 60_000).toISOString();

/** Whether a slot's day lies in its room's booking window (room settings and holidays). */
function isOpen(state: ReservationState, slot: SlotState, today: LocalDate): boolean {
  const room = state.rooms.get(slot.roomId);
  if (!room || room.status !== 'active') return false;
  const window = bookingWindow(today, room.openStart, room.openEnd, (d) => state.holidays.has(d));
  return isOpenForBooking(slot.date, window);
}

export function addTicket(
  state: ReservationState,
  data: { transactionId: string; ticketId: string; timeSlotId: string },
  { now, today, limits }: ReservationContext,
): ReservationDecision {
  const { cart } = state;
  if (cart.status !== 'none') mustBeOpen(cart, now);
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active') throw refuse.notFound('Time slot');
  if (slot.capacity <= 0 || !isOpen(state, slot, today)) throw refuse.ticket('timeslot_not_open');
  // The rules of the cart itself, shared with the calendar's marks (cart-rules.ts).
  const ticket = cartTicketOf(slot, data.timeSlotId, data.ticketId);
  const [rule] = cartRules(cart.tickets, ticket, limits);
  if (rule === 'max_tickets_per_day_reached')
    throw refuse.dayLimit(ticket.date, limits.maxTicketsPerDay);
  if (rule) throw refuse.ticket(rule);
  // Seats freed while visitors wait are theirs (issue #16: the matcher offers them).
  if (seatsTaken(slot, now) + waitingCount(slot.waitlist) >= slot.capacity)
    throw refuse.ticket('timeslot_no_tickets_left');
  const expiresAt = expiry(now, limits);
  const d = emptyDecision();
  if (cart.status === 'none')
    d.transaction.push(TransactionStarted.create({ transactionId: data.transactionId, expiresAt }));
  d.transaction.push(TicketAddedToTransaction.create({ ...ticket, expiresAt }));
  pushSlot(
    d,
    data.timeSlotId,
    TicketHeld.create({
      ticketId: data.ticketId,
      timeSlotId: data.timeSlotId,
      transactionId: data.transactionId,
      expiresAt,
    }),
  );
  extendHolds(d, cart.tickets, expiresAt);
  return d;
}
