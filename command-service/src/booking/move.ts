import { randomUUID } from 'node:crypto';
import {
  decideReservation,
  emailDomainOf,
  emptyReservation,
  refuse,
  type SeatWish,
  limitsKeyOf,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { ticketView } from './cart-answer.ts';
import { loadPerson, reservationAppends } from './store.ts';
import { loadTransaction, lockCartAndSlots } from '../streams/transaction.ts';
import { roomsWithHolidays } from '../write-state.ts';

/**
 * A visitor moves a booked ticket to another slot of its room (docs/product.md#rebooking): one
 * command over the booking's cart, both slot streams and the visitor's stream, locked in the
 * order every reservation command locks them (the cart, the slots sorted, the visitor), so a
 * cart racing for the new slot's last seat waits for it or it for the cart, and exactly one gets
 * the seat. The person rules of a booking are decided with it, on the blacklist entry and the
 * no-show releases of the booking's key and the domain of its address, as a booking reads them.
 * A refusal writes nothing: the old ticket stays booked. Answers the new ticket.
 */
export async function moveTicket(
  deps: CommandDeps,
  ownerId: string,
  ticketId: string,
  timeSlotId: string,
  seat?: SeatWish,
) {
  const newTicketId = randomUUID();
  const context = () => ({ ...decisionTime(deps), limits: deps.limits, timeZone: deps.timeZone });
  // The domain of the booking's address (members-only rooms), read with the booking.
  let emailDomain: string | undefined;
  return handleCommand(deps.store, {
    actor: { kind: 'visitor' },
    load: async (s) => {
      const b = await s.client.query<{
        transaction_id: string;
        visitor_key: string;
        subject_key: string | null;
        booking_number: string;
        email: string | null;
      }>(
        `SELECT b.transaction_id, b.visitor_key, b.subject_key, b.booking_number, p.email
           FROM bookings b LEFT JOIN personal_data p ON p.owner_id = b.owner_id
          WHERE b.owner_id = $1`,
        [ownerId],
      );
      const booking = b.rows[0];
      if (!booking) throw refuse.notFound('Owner');
      emailDomain = booking.email ? emailDomainOf(booking.email) : undefined;
      // The cart names the old ticket's slot; it is read again once locked with the slots.
      const before = await loadTransaction(s, booking.transaction_id);
      const old = before.tickets.find((t) => t.ticketId === ticketId);
      if (!old) throw refuse.notFound('Ticket');
      const slots = await lockCartAndSlots(s, booking.transaction_id, [old.timeSlotId, timeSlotId]);
      const cart = await loadTransaction(s, booking.transaction_id);
      // The person as every path to a seat loads them (a booking made signed in: its subject).
      const keys = {
        visitorKey: booking.visitor_key,
        ...(booking.subject_key ? { subjectKey: booking.subject_key } : {}),
      };
      const person = await loadPerson(s, keys, deps.limits);
      const roomId = slots.get(timeSlotId)?.roomId;
      const { rooms, holidays } = await roomsWithHolidays(
        s.client,
        roomId ? [roomId] : [],
        context().today,
      );
      return {
        ...emptyReservation,
        cart,
        slots,
        ...person,
        rooms,
        holidays,
        transactionId: booking.transaction_id,
        visitorKey: limitsKeyOf(keys),
        bookingNumber: booking.booking_number,
      };
    },
    decide: (state) =>
      decideReservation(
        {
          type: 'MoveTicket',
          data: {
            ownerId,
            ticketId,
            newTicketId,
            timeSlotId,
            bookingNumber: state.bookingNumber,
            emailDomain,
            seat,
          },
        },
        state,
        context(),
      ),
    appends: (decision, state) => reservationAppends(state, decision),
    answer: (decision, state) => {
      const added = decision.transaction.find((e) => e.type === 'TicketAddedToTransaction');
      if (!added || added.type !== 'TicketAddedToTransaction')
        throw new Error('a move adds its new ticket');
      const { expiresAt: _expiresAt, ...ticket } = added.data;
      return {
        ...ticketView(state.rooms, ticket, 'BOOKED'),
        ownerId,
        bookingNumber: state.bookingNumber,
      };
    },
  });
}
