import {
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketCheckedIn,
  TicketHeld,
  TransactionBooked,
  TransactionStarted,
  VisitorTicketCancelled,
  VisitorTicketsBooked,
} from '@rr/events/catalogue';
import { refuse, Refused } from '../refusal.ts';
import { hasStarted } from '../seat-rule.ts';
import { bookedSeats } from '../cart-rules.ts';
import { takeSeats, transactionExpired } from '../time-slots/take-seat.ts';
import { checkInWindow } from '../time-slots/check-in.ts';
import { isCancelable } from '../cancelable.ts';
import type { TicketSeat } from '../seats.ts';
import type { SlotState } from '../time-slots/time-slot.ts';
import { cartTicketOf } from './cart.ts';
import { mustBeOpen } from './cart-decisions.ts';
import {
  emptyDecision,
  pushSlot,
  type ReservationCommand,
  type ReservationContext,
  type ReservationDecision,
  type ReservationState,
} from './types.ts';

/** The decisions of a booking: made (by the visitor or staff), cancelled, its owner data edited. */

export function bookCart(
  state: ReservationState,
  data: Extract<ReservationCommand, { type: 'BookCart' }>['data'],
  context: ReservationContext,
): ReservationDecision {
  const { now, today } = context;
  const { cart } = state;
  mustBeOpen(cart, now);
  if (cart.tickets.length === 0)
    throw new Refused('transaction__empty', 'The reservation cart is empty');
  const { emailDomain, member, ...booking } = data;
  // Each seat is booked on its slot as it is now, not as it was when held (take-seat.ts): a slot
  // closed or gone since takes no booking, a hold keeps its seat only within the capacity, and
  // the visitor's bookings from today on count with the cart's tickets against their limits.
  const seats = cart.tickets.map((t) => {
    const slot = state.slots.get(t.timeSlotId);
    // A slot the cart no longer finds holds nothing of it.
    if (!slot) throw transactionExpired();
    return { timeSlotId: t.timeSlotId, ticketId: t.ticketId, slot };
  });
  const { confirmBy: deadlines } = takeSeats(
    'cart-booking',
    seats,
    {
      held: bookedSeats(state.visitor, today),
      blacklist: state.blacklist,
      noShows: state.noShows,
      emailDomain,
      member: member ?? null,
    },
    state,
    context,
  );

  const d = emptyDecision();
  d.transaction.push(
    TransactionBooked.create({
      transactionId: cart.transactionId,
      ...booking,
      ticketIds: cart.tickets.map((t) => t.ticketId),
    }),
  );
  d.visitor.push(
    VisitorTicketsBooked.create({
      ownerId: booking.ownerId,
      tickets: cart.tickets.map(({ ticketId, date, startTime, endTime }) => ({
        ticketId,
        date,
        startTime,
        endTime,
      })),
    }),
  );
  for (const t of cart.tickets) {
    // Confirmed addresses: the deadline is fixed now and written with the booking.
    const confirmBy = deadlines.get(t.ticketId);
    pushSlot(
      d,
      t.timeSlotId,
      TicketBooked.create({
        ticketId: t.ticketId,
        ownerId: data.ownerId,
        ...(confirmBy ? { confirmBy } : {}),
      }),
    );
  }
  return d;
}

export function staffBook(
  state: ReservationState,
  data: Extract<ReservationCommand, { type: 'StaffBook' }>['data'],
  context: ReservationContext,
): ReservationDecision {
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active' || slot.roomId !== data.roomId)
    throw refuse.notFound('Time slot');
  // The one decision that gives a seat (take-seat.ts): staff may book beyond the capacity, and
  // the form asked (`confirmOverbooking: false`) only while it saw a seat free.
  // In a room with a seat plan a free seat is given (the one asked for); beyond the free seats
  // the ticket has none (docs/product.md#seat-plans).
  const { seats } = takeSeats(
    'staff-booking',
    [{ timeSlotId: data.timeSlotId, ticketId: data.ticketId, slot, wish: data.seat }],
    { held: [], confirmOverbooking: data.confirmOverbooking },
    state,
    context,
  );
  return bookedAtOnce(slot, data, seats.get(data.ticketId) ?? undefined, {
    ...context,
    rooms: state.rooms,
  });
}

/**
 * A booking of one seat made at once, without a cart the visitor filled (staff's, a walk-in's):
 * held and booked together. A booking of a slot that has started is the reader in the room: in a
 * room with check-in they are checked in with the booking (by whoever books), so the release job
 * never takes them for a no-show (docs/product.md#check-in-and-no-show-release).
 */
export function bookedAtOnce(
  slot: SlotState,
  data: Pick<
    Extract<ReservationCommand, { type: 'StaffBook' }>['data'],
    | 'transactionId'
    | 'ticketId'
    | 'timeSlotId'
    | 'ownerId'
    | 'bookingNumber'
    | 'visitorKey'
    | 'language'
  > & { subjectKey?: string | undefined },
  seat: TicketSeat | undefined,
  {
    now,
    today,
    time,
    rooms,
  }: Pick<ReservationContext, 'now' | 'today' | 'time'> & Pick<ReservationState, 'rooms'>,
): ReservationDecision {
  const { transactionId, ticketId, timeSlotId, ownerId } = data;
  // Held and booked at once: the hold expires at its creation and never counts on its own.
  const expiresAt = now.toISOString();
  const ticket = { ...cartTicketOf(slot, timeSlotId, ticketId), ...(seat ? { seat } : {}) };
  const d = emptyDecision();
  d.transaction.push(
    TransactionStarted.create({ transactionId, expiresAt }),
    TicketAddedToTransaction.create({ ...ticket, expiresAt }),
    TransactionBooked.create({
      transactionId,
      ownerId,
      bookingNumber: data.bookingNumber,
      visitorKey: data.visitorKey,
      ...(data.subjectKey ? { subjectKey: data.subjectKey } : {}),
      language: data.language,
      ticketIds: [ticketId],
    }),
  );
  pushSlot(
    d,
    timeSlotId,
    TicketHeld.create({
      ticketId,
      timeSlotId,
      transactionId,
      expiresAt,
      ...(seat ? { seat } : {}),
    }),
  );
  pushSlot(d, timeSlotId, TicketBooked.create({ ticketId, ownerId }));
  const services = rooms.get(slot.roomId)?.services;
  if (services && checkInWindow(slot, services) && hasStarted(slot, { today, time }))
    pushSlot(d, timeSlotId, TicketCheckedIn.create({ ticketId, checkedInAt: now.toISOString() }));
  const { date, startTime, endTime } = ticket;
  d.visitor.push(
    VisitorTicketsBooked.create({ ownerId, tickets: [{ ticketId, date, startTime, endTime }] }),
  );
  return d;
}

export function cancelTickets(
  state: ReservationState,
  {
    ownerId,
    ticketIds,
    reason,
    closureId,
    reasonEn,
  }: {
    ownerId: string;
    ticketIds: readonly string[];
    reason?: string | undefined;
    closureId?: string | undefined;
    reasonEn?: string | undefined;
  },
  { today, time }: ReservationContext,
): ReservationDecision {
  const d = emptyDecision();
  for (const ticketId of new Set(ticketIds)) {
    const inCart = state.cart.tickets.find((t) => t.ticketId === ticketId);
    const slot = inCart && state.slots.get(inCart.timeSlotId);
    const held = slot?.tickets.get(ticketId);
    if (!slot || !held || held.ownerId !== ownerId) throw refuse.notFound('Ticket');
    if (!isCancelable(held.status, slot, { date: today, time }))
      throw new Refused('ticket__not_cancelable', 'The ticket cannot be cancelled any more');
    pushSlot(
      d,
      inCart.timeSlotId,
      TicketCancelled.create({
        ticketId,
        ownerId,
        ...(reason ? { reason } : {}),
        ...(closureId ? { closureId } : {}),
        ...(reason && reasonEn ? { reasonEn } : {}),
      }),
    );
    d.visitor.push(VisitorTicketCancelled.create({ ticketId }));
  }
  return d;
}
