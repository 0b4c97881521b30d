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
import { timesOverlap } from '../cart-rules.ts';
import { mustNotBeBlocked } from '../blacklist/blacklist-entry.ts';
import { mustAdmitAddress } from '../rooms/email-domains.ts';
import { mustNotBeNoShowBlocked } from '../no-show-rule.ts';
import { holdHasSeat, seatsTaken, type HeldTicket } from '../seats.ts';
import {
  confirmationDeadline,
  confirmationDue,
  confirmationRefusals,
  earlierDeadline,
} from '../time-slots/confirmation.ts';
import { hasStarted } from '../seat-rule.ts';
import { checkInWindow } from '../time-slots/check-in.ts';
import { isCancelable } from './cancelable.ts';
import { cartTicketOf } from './cart.ts';
import { mustBeOpen, transactionExpired } from './cart-decisions.ts';
import {
  emptyDecision,
  pushSlot,
  type ReservationCommand,
  type ReservationContext,
  type ReservationDecision,
  type ReservationState,
} from './types.ts';

/** The decisions of a booking: made (by the visitor or staff), cancelled, its owner data edited. */

/** A seat a visitor takes, as the person rules see it: its room and when its slot starts. */
export interface PersonSeat {
  ticketId: string;
  roomId: string;
  date: string;
  startTime: string;
  /**
   * A rebooking: the ticket the seat replaces, whose booking's confirmation goes on with it.
   * Absent: a new booking.
   */
  replaces?: HeldTicket | undefined;
}

/**
 * The rules a booking applies to the person taking seats, one decision for every path on which a
 * visitor takes a seat (booking a cart, moving a ticket): the address's key must not be
 * blacklisted or blocked by the no-show rule, every room of the seats must admit its domain
 * (members-only rooms), and in a room with confirmed addresses each seat awaits the confirmation
 * (docs/product.md#confirmed-addresses). Answers each seat's confirmation deadline by ticket id
 * (absent: none asked). A rebooked seat goes on with its booking's confirmation: confirmed stays
 * confirmed, awaiting keeps its deadline (never past the new slot's start), a deadline that has
 * come refuses (`booking__confirmation_lapsed`), and a ticket never asked is asked as a booking now.
 * Staff bookings are not asked.
 */
export function admitPerson(
  state: Pick<ReservationState, 'blacklist' | 'noShows' | 'rooms'>,
  emailDomain: string | undefined,
  seats: readonly PersonSeat[],
  { now, today, limits, timeZone }: ReservationContext,
): Map<string, string> {
  mustNotBeBlocked(state.blacklist, today);
  mustNotBeNoShowBlocked(state.noShows ?? [], today, limits.noShowRule);
  const rooms = seats.map((t) => state.rooms.get(t.roomId)).filter((r) => r !== undefined);
  mustAdmitAddress(new Set(rooms), emailDomain);
  const deadlines = new Map<string, string>();
  for (const seat of seats) {
    const { replaces } = seat;
    if (replaces?.confirmed) continue;
    if (replaces && confirmationDue(replaces, now)) throw confirmationRefusals.lapsed();
    const confirmBy =
      replaces?.confirmBy != null
        ? earlierDeadline(replaces.confirmBy, seat, timeZone)
        : confirmationDeadline(now, state.rooms.get(seat.roomId)?.services, seat, timeZone);
    if (confirmBy) deadlines.set(seat.ticketId, confirmBy);
  }
  return deadlines;
}

export function bookCart(
  state: ReservationState,
  data: Extract<ReservationCommand, { type: 'BookCart' }>['data'],
  context: ReservationContext,
): ReservationDecision {
  const { now, today, limits } = context;
  const { cart } = state;
  mustBeOpen(cart, now);
  if (cart.tickets.length === 0)
    throw new Refused('transaction__empty', 'The reservation cart is empty');
  const { emailDomain, ...booking } = data;
  const deadlines = admitPerson(state, emailDomain, cart.tickets, context);
  // Each seat is booked on its slot as it is now, not as it was when held: a slot closed (or
  // gone) since takes no booking, and a hold keeps its seat only within the slot's capacity.
  for (const t of cart.tickets) {
    const slot = state.slots.get(t.timeSlotId);
    if (slot && (slot.status !== 'active' || slot.closed)) throw refuse.ticket('timeslot_not_open');
    const held = slot?.tickets[t.ticketId];
    if (!slot || !held || held.status !== 'NEW') throw transactionExpired();
    if (!holdHasSeat(slot, t.ticketId, now)) throw refuse.ticket('timeslot_no_tickets_left');
  }
  const active = state.visitor.tickets.filter((t) => !t.cancelled);
  for (const t of cart.tickets) {
    if (active.some((b) => b.date === t.date && timesOverlap(b, t)))
      throw refuse.ticket('max_tickets_per_time_reached');
  }
  for (const date of new Set(cart.tickets.map((t) => t.date))) {
    const count =
      active.filter((b) => b.date === date).length +
      cart.tickets.filter((t) => t.date === date).length;
    if (count > limits.maxTicketsPerDay) throw refuse.dayLimit(date, limits.maxTicketsPerDay);
  }
  const future = active.filter((b) => b.date >= today).length;
  if (future + cart.tickets.length > limits.maxTicketsPerVisitor)
    throw refuse.ticket('max_tickets_by_user_reached');

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
  { now, today, time }: ReservationContext,
): ReservationDecision {
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active' || slot.roomId !== data.roomId)
    throw refuse.notFound('Time slot');
  // The staff member asked to book only while a seat is free (the form saw one); the
  // seats taken and the capacity let the form ask before overbooking.
  const taken = seatsTaken(slot, now);
  if (data.confirmOverbooking === false && taken >= slot.capacity)
    throw new Refused(
      { code: 'timeslot__overbooking_not_confirmed', taken, capacity: slot.capacity },
      'The time slot is full: booking would overbook it',
    );
  const { transactionId, ticketId, timeSlotId, ownerId } = data;
  // Held and booked at once: the hold expires at its creation and never counts on its own.
  const expiresAt = now.toISOString();
  const ticket = cartTicketOf(slot, timeSlotId, ticketId);
  const d = emptyDecision();
  d.transaction.push(
    TransactionStarted.create({ transactionId, expiresAt }),
    TicketAddedToTransaction.create({ ...ticket, expiresAt }),
    TransactionBooked.create({
      transactionId,
      ownerId,
      bookingNumber: data.bookingNumber,
      visitorKey: data.visitorKey,
      language: data.language,
      ticketIds: [ticketId],
    }),
  );
  pushSlot(d, timeSlotId, TicketHeld.create({ ticketId, timeSlotId, transactionId, expiresAt }));
  pushSlot(d, timeSlotId, TicketBooked.create({ ticketId, ownerId }));
  // A staff booking of a slot that has started is the reader standing at the desk: in a room with
  // check-in they are checked in with the booking (by the staff member), so the release job
  // never takes them for a no-show (docs/product.md#check-in-and-no-show-release).
  const services = state.rooms.get(slot.roomId)?.services;
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
  }: { ownerId: string; ticketIds: readonly string[]; reason?: string | undefined },
  { today, time }: ReservationContext,
): ReservationDecision {
  const d = emptyDecision();
  for (const ticketId of new Set(ticketIds)) {
    const inCart = state.cart.tickets.find((t) => t.ticketId === ticketId);
    const slot = inCart && state.slots.get(inCart.timeSlotId);
    const held = slot?.tickets[ticketId];
    if (!slot || !held || held.ownerId !== ownerId) throw refuse.notFound('Ticket');
    if (!isCancelable(held.status, slot, { date: today, time }))
      throw new Refused('ticket__not_cancelable', 'The ticket cannot be cancelled any more');
    pushSlot(
      d,
      inCart.timeSlotId,
      TicketCancelled.create({ ticketId, ownerId, ...(reason ? { reason } : {}) }),
    );
    d.visitor.push(VisitorTicketCancelled.create({ ticketId }));
  }
  return d;
}
