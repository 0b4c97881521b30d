import { randomUUID } from 'node:crypto';
import { decideReservation, emptyReservation, refuse } from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { ticketView } from './cart-answer.ts';
import {
  loadTransaction,
  lockAndLoadVisitor,
  lockCartAndSlots,
  reservationAppends,
  roomsWithHolidays,
} from './store.ts';

/**
 * A visitor moves a booked ticket to another slot of its room (docs/product.md#rebooking): one
 * command over the booking's cart, both slot streams and the visitor's stream, locked in the
 * order every reservation command locks them (the cart, the slots sorted, the visitor), so a
 * cart racing for the new slot's last seat waits for it or it for the cart, and exactly one gets
 * the seat. A refusal writes nothing: the old ticket stays booked. Answers the new ticket.
 */
export async function moveTicket(
  deps: CommandDeps,
  ownerId: string,
  ticketId: string,
  timeSlotId: string,
) {
  const newTicketId = randomUUID();
  const context = () => ({ ...decisionTime(deps), limits: deps.limits, timeZone: deps.timeZone });
  return handleCommand(deps.store, {
    actor: { kind: 'visitor' },
    load: async (s) => {
      const b = await s.client.query<{
        transaction_id: string;
        visitor_key: string;
        booking_number: string;
      }>('SELECT transaction_id, visitor_key, booking_number FROM bookings WHERE owner_id = $1', [
        ownerId,
      ]);
      const booking = b.rows[0];
      if (!booking) throw refuse.notFound('Owner');
      // The cart names the old ticket's slot; it is read again once locked with the slots.
      const before = await loadTransaction(s, booking.transaction_id);
      const old = before.tickets.find((t) => t.ticketId === ticketId);
      if (!old) throw refuse.notFound('Ticket');
      const slots = await lockCartAndSlots(s, booking.transaction_id, [old.timeSlotId, timeSlotId]);
      const cart = await loadTransaction(s, booking.transaction_id);
      const visitor = await lockAndLoadVisitor(s, booking.visitor_key);
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
        visitor,
        rooms,
        holidays,
        transactionId: booking.transaction_id,
        visitorKey: booking.visitor_key,
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
