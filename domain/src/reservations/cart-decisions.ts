import {
  TicketAddedToTransaction,
  TicketHeld,
  TransactionStarted,
  type CartTicket,
} from '@rr/events/catalogue';
import { refuse, Refused } from '../refusal.ts';
import { holdEnd } from '../limits.ts';
import { takeSeats, transactionExpired } from '../time-slots/take-seat.ts';
import { cartTicketOf, isExpired, type TransactionState } from './cart.ts';
import {
  emptyDecision,
  extendHolds,
  pushSlot,
  type ReservationCommand,
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
  data: Extract<ReservationCommand, { type: 'AddTicket' }>['data'],
  context: ReservationContext,
): ReservationDecision {
  const { now, limits } = context;
  const { cart } = state;
  if (cart.status !== 'none') mustBeOpen(cart, now);
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active') throw refuse.notFound('Time slot');
  // The one decision that gives a seat (take-seat.ts), with the cart's tickets as what the
  // visitor holds; the visitor calendar marks its slots by the same rules (seat-rule.ts). In a
  // room with a seat plan, the seat of the cart's adjacent slot is preferred when it is free.
  const { seats } = takeSeats(
    'cart-add',
    [
      {
        timeSlotId: data.timeSlotId,
        ticketId: data.ticketId,
        slot,
        wish: data.seat,
        prefer: adjacentSeats(cart.tickets, slot),
      },
    ],
    { held: cart.tickets },
    state,
    context,
  );
  const seat = seats.get(data.ticketId) ?? undefined;
  const ticket = {
    ...cartTicketOf(slot, data.timeSlotId, data.ticketId),
    ...(seat ? { seat } : {}),
  };
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
      ...(seat ? { seat } : {}),
    }),
  );
  extendHolds(d, state, expiresAt);
  return d;
}

/** The seats the cart holds in the slot's room right before or after it on its day. */
function adjacentSeats(
  tickets: readonly CartTicket[],
  slot: { roomId: string; date: string; startTime: string; endTime: string },
): string[] {
  return tickets
    .filter(
      (t) =>
        t.roomId === slot.roomId &&
        t.date === slot.date &&
        (t.endTime === slot.startTime || t.startTime === slot.endTime),
    )
    .flatMap((t) => (t.seat ? [t.seat.seatId] : []));
}
