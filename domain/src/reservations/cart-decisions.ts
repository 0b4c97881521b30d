import { TicketAddedToTransaction, TicketHeld, TransactionStarted } from '@rr/events/catalogue';
import type { LocalDate } from '../calendar.ts';
import { refuse, Refused } from '../refusal.ts';
import { bookingWindow } from '../booking-window.ts';
import { holdEnd } from '../limits.ts';
import type { RoomState } from '../rooms/room.ts';
import { firstFailedRule, seatAnswer } from '../seat-rule.ts';
import { slotSeatsAt } from '../seats.ts';
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

/** A slot's room's booking window (its bounds and the holidays); null when the room is gone. */
export function windowOf(state: ReservationState, room: RoomState | undefined, today: LocalDate) {
  if (!room || room.status !== 'active') return null;
  return bookingWindow(today, room.openStart, room.openEnd, (d) => state.holidays.has(d));
}

export function addTicket(
  state: ReservationState,
  data: { transactionId: string; ticketId: string; timeSlotId: string },
  context: ReservationContext,
): ReservationDecision {
  const { now, today, limits } = context;
  const { cart } = state;
  if (cart.status !== 'none') mustBeOpen(cart, now);
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active') throw refuse.notFound('Time slot');
  // The one seat rule (seat-rule.ts), which the visitor calendar marks its slots with as well.
  const room = state.rooms.get(slot.roomId);
  const ticket = cartTicketOf(slot, data.timeSlotId, data.ticketId);
  const rule = firstFailedRule(
    seatAnswer({
      slot: ticket,
      closed: slot.closed !== undefined,
      seats: slotSeatsAt(slot, (room?.services.waitlistOfferMinutes ?? null) !== null, context),
      window: windowOf(state, room, today),
      held: cart.tickets,
      limits,
    }),
  );
  if (rule === 'max_tickets_per_day_reached')
    throw refuse.dayLimit(ticket.date, limits.maxTicketsPerDay);
  if (rule) throw refuse.ticket(rule);
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
