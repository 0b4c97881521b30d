import {
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  VisitorTicketCancelled,
  VisitorTicketsBooked,
} from '@rr/events/catalogue';
import { refuse, Refused } from '../refusal.ts';
import { bookedSeats } from '../cart-rules.ts';
import { takeSeats } from '../time-slots/take-seat.ts';
import { isCancelable } from '../cancelable.ts';
import { cartTicketOf } from './cart.ts';
import {
  emptyDecision,
  pushSlot,
  type ReservationCommand,
  type ReservationContext,
  type ReservationDecision,
  type ReservationState,
} from './types.ts';

/**
 * A rebooking (docs/product.md#rebooking): a booked ticket moves to another slot of the same room
 * in one decision over both slot streams, so the old seat is never given up before the new one is
 * taken, and a refusal leaves both as they were. The new seat is given by the one decision every
 * path to a seat takes (take-seat.ts); the old ticket must still be cancelable. The new ticket
 * joins the booking's cart: it keeps the owner and the booking number.
 */
export function moveTicket(
  state: ReservationState,
  data: Extract<ReservationCommand, { type: 'MoveTicket' }>['data'],
  context: ReservationContext,
): ReservationDecision {
  const { ownerId, ticketId, newTicketId, timeSlotId, bookingNumber, emailDomain } = data;
  const { now, today, time } = context;
  const old = state.cart.tickets.find((t) => t.ticketId === ticketId);
  const oldSlot = old && state.slots.get(old.timeSlotId);
  const held = oldSlot?.tickets.get(ticketId);
  if (!old || !oldSlot || !held || held.ownerId !== ownerId) throw refuse.notFound('Ticket');
  if (!isCancelable(held.status, oldSlot, { date: today, time }))
    throw new Refused('ticket__not_cancelable', 'The ticket cannot be moved any more');
  const slot = state.slots.get(timeSlotId);
  if (!slot || slot.status !== 'active') throw refuse.notFound('Time slot');
  // Another room's slot is not open to this booking.
  if (slot.roomId !== old.roomId) throw refuse.ticket('timeslot_not_open');
  if (timeSlotId === old.timeSlotId) throw refuse.ticket('timeslot_already_in_transaction');
  // The one decision that gives a seat (take-seat.ts): the visitor's other bookings from today
  // on stand where a cart's tickets would, and the booking's confirmation goes on.
  const others = state.visitor.tickets.filter((t) => t.ticketId !== ticketId);
  const { confirmBy: deadlines, seats } = takeSeats(
    'move',
    [
      {
        timeSlotId,
        ticketId: newTicketId,
        slot,
        replaces: held,
        // The same seat in the new slot when it is free, unless another is asked for.
        wish: data.seat,
        prefer: held.seat ? [held.seat.seatId] : [],
      },
    ],
    {
      held: bookedSeats({ tickets: others }, today),
      blacklist: state.blacklist,
      noShows: state.noShows,
      emailDomain,
    },
    state,
    context,
  );
  const confirmBy = deadlines.get(newTicketId);
  const seat = seats.get(newTicketId) ?? undefined;
  const ticket = { ...cartTicketOf(slot, timeSlotId, newTicketId), ...(seat ? { seat } : {}) };

  // Held and booked at once, as a staff booking: the hold ends at its creation.
  const expiresAt = now.toISOString();
  const d = emptyDecision();
  d.transaction.push(TicketAddedToTransaction.create({ ...ticket, expiresAt }));
  pushSlot(d, old.timeSlotId, TicketCancelled.create({ ticketId, ownerId, movedTo: newTicketId }));
  pushSlot(
    d,
    timeSlotId,
    TicketHeld.create({
      ticketId: newTicketId,
      timeSlotId,
      transactionId: state.cart.transactionId,
      expiresAt,
      ...(seat ? { seat } : {}),
    }),
  );
  pushSlot(
    d,
    timeSlotId,
    TicketBooked.create({
      ticketId: newTicketId,
      ownerId,
      bookingNumber,
      ...(confirmBy ? { confirmBy } : {}),
    }),
  );
  const { date, startTime, endTime } = ticket;
  d.visitor.push(
    VisitorTicketCancelled.create({ ticketId }),
    VisitorTicketsBooked.create({
      ownerId,
      tickets: [{ ticketId: newTicketId, date, startTime, endTime }],
    }),
  );
  return d;
}
