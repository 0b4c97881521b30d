import {
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  VisitorTicketCancelled,
  VisitorTicketsBooked,
} from '@rr/events/catalogue';
import { refuse, Refused } from '../refusal.ts';
import { admitPerson } from './booking-decisions.ts';
import { firstFailedRule, seatAnswer } from '../seat-rule.ts';
import { slotSeatsAt } from '../seats.ts';
import { bookedSeats, visitorLimits } from '../waitlist/waitlist.ts';
import { isCancelable } from './cancelable.ts';
import { cartTicketOf } from './cart.ts';
import { windowOf } from './cart-decisions.ts';
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
 * taken, and a refusal leaves both as they were. The new seat meets the one seat rule a cart's
 * add meets (seat-rule.ts), with the visitor's other bookings from today on in the place of the
 * cart, as a waitlist join counts them; the old ticket must still be cancelable. The new ticket
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
  const held = oldSlot?.tickets[ticketId];
  if (!old || !oldSlot || !held || held.ownerId !== ownerId) throw refuse.notFound('Ticket');
  if (!isCancelable(held.status, oldSlot, { date: today, time }))
    throw new Refused('ticket__not_cancelable', 'The ticket cannot be moved any more');
  const slot = state.slots.get(timeSlotId);
  if (!slot || slot.status !== 'active') throw refuse.notFound('Time slot');
  // Another room's slot is not open to this booking.
  if (slot.roomId !== old.roomId) throw refuse.ticket('timeslot_not_open');
  if (timeSlotId === old.timeSlotId) throw refuse.ticket('timeslot_already_in_transaction');
  const room = state.rooms.get(slot.roomId);
  const ticket = cartTicketOf(slot, timeSlotId, newTicketId);
  const others = {
    ...state.visitor,
    tickets: state.visitor.tickets.filter((t) => t.ticketId !== ticketId),
  };
  const rule = firstFailedRule(
    seatAnswer({
      slot: ticket,
      closed: slot.closed !== undefined,
      seats: slotSeatsAt(slot, (room?.services.waitlistOfferMinutes ?? null) !== null, context),
      window: windowOf(state, room, today),
      held: bookedSeats(others, today),
      limits: visitorLimits(context.limits),
    }),
  );
  if (rule === 'max_tickets_per_day_reached')
    throw refuse.dayLimit(ticket.date, context.limits.maxTicketsPerDay);
  if (rule) throw refuse.ticket(rule);
  // The person takes a new seat: the rules a booking applies to them, with the booking's
  // confirmation going on.
  const confirmBy = admitPerson(state, emailDomain, [{ ...ticket, replaces: held }], context).get(
    newTicketId,
  );

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
