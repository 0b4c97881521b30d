import { TicketAddedToTransaction, TicketHeld, TransactionStarted } from '@rr/events/catalogue';
import { refuse, Refused } from '../refusal.ts';
import { holdEnd } from '../limits.ts';
import { takeSeats, transactionExpired } from '../time-slots/take-seat.ts';
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

export { transactionExpired };
export const alreadyBooked = () =>
  new Refused('transaction__already_booked', 'The reservation was booked already');

export function mustBeOpen(cart: TransactionState, now: Date): void {
  if (cart.status === 'none' || cart.status === 'removed') throw refuse.notFound('Transaction');
  if (cart.status === 'booked') throw alreadyBooked();
  if (cart.status === 'expired' || isExpired(cart, now)) throw transactionExpired();
}

export function addTicket(
  state: ReservationState,
  data: { transactionId: string; ticketId: string; timeSlotId: string },
  context: ReservationContext,
): ReservationDecision {
  const { now, limits } = context;
  const { cart } = state;
  if (cart.status !== 'none') mustBeOpen(cart, now);
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active') throw refuse.notFound('Time slot');
  const ticket = cartTicketOf(slot, data.timeSlotId, data.ticketId);
  // The one decision that gives a seat (take-seat.ts), with the cart's tickets as what the
  // visitor holds; the visitor calendar marks its slots by the same rules (seat-rule.ts).
  takeSeats(
    'cart-add',
    [{ timeSlotId: data.timeSlotId, ticketId: data.ticketId, slot }],
    { held: cart.tickets },
    state,
    context,
  );
  const expiresAt = holdEnd(now, limits);
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
  extendHolds(d, state, expiresAt);
  return d;
}
