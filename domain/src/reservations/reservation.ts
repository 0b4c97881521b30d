import {
  TicketReleased,
  TicketRemovedFromTransaction,
  TransactionExpired,
  TransactionRemoved,
  TransactionTouched,
} from '@rr/events/catalogue';
import { type Decide, unhandled } from '../decider.ts';
import { refuse } from '../refusal.ts';
import { holdEnd } from '../limits.ts';
import { addTicket, alreadyBooked, mustBeOpen } from './cart-decisions.ts';
import { bookCart, cancelTickets, staffBook } from './booking-decisions.ts';
import { isExpired } from './cart.ts';
import { moveTicket } from './move-decision.ts';
import { walkIn } from './walk-in.ts';
import {
  emptyDecision,
  extendHolds,
  pushSlot,
  stillHeld,
  type ReservationCommand,
  type ReservationContext,
  type ReservationDecision,
  type ReservationState,
} from './types.ts';

export * from './types.ts';
export { isCancelable } from '../cancelable.ts';

/** Pure: the events of a reservation command, or its refusal (the codes of docs/product.md#errors). */
export const decideReservation: Decide<
  ReservationCommand,
  ReservationState,
  ReservationContext,
  ReservationDecision
> = (command, state, context) => {
  const { cart } = state;
  const { now, limits } = context;
  switch (command.type) {
    case 'AddTicket':
      return addTicket(state, command.data, context);
    case 'RemoveTicket': {
      mustBeOpen(cart, now);
      const ticket = cart.tickets.find((t) => t.ticketId === command.data.ticketId);
      if (!ticket) throw refuse.notFound('Ticket');
      const d = emptyDecision();
      d.transaction.push(TicketRemovedFromTransaction.create(command.data));
      if (stillHeld(state, ticket))
        pushSlot(
          d,
          ticket.timeSlotId,
          TicketReleased.create({ ticketId: ticket.ticketId, reason: 'removed' }),
        );
      return d;
    }
    case 'TouchCart': {
      mustBeOpen(cart, now);
      const expiresAt = holdEnd(now, limits);
      const d = emptyDecision();
      d.transaction.push(TransactionTouched.create({ expiresAt }));
      extendHolds(d, state, expiresAt);
      return d;
    }
    case 'RemoveCart': {
      if (cart.status === 'none' || cart.status === 'removed') throw refuse.notFound('Transaction');
      if (cart.status === 'booked') throw alreadyBooked();
      const d = emptyDecision();
      d.transaction.push(TransactionRemoved.create({ transactionId: cart.transactionId }));
      if (cart.status === 'open')
        for (const t of cart.tickets.filter((x) => stillHeld(state, x)))
          pushSlot(
            d,
            t.timeSlotId,
            TicketReleased.create({ ticketId: t.ticketId, reason: 'transaction_removed' }),
          );
      return d;
    }
    case 'ExpireCart': {
      const d = emptyDecision();
      if (!isExpired(cart, now)) return d;
      d.transaction.push(TransactionExpired.create({ transactionId: cart.transactionId }));
      for (const t of cart.tickets.filter((x) => stillHeld(state, x)))
        pushSlot(
          d,
          t.timeSlotId,
          TicketReleased.create({ ticketId: t.ticketId, reason: 'expired' }),
        );
      return d;
    }
    case 'BookCart':
      return bookCart(state, command.data, context);
    case 'StaffBook':
      return staffBook(state, command.data, context);
    case 'WalkIn':
      return walkIn(state, command.data, context);
    case 'CancelTickets':
      return cancelTickets(state, command.data, context);
    case 'MoveTicket':
      return moveTicket(state, command.data, context);
    default:
      return unhandled(command);
  }
};
