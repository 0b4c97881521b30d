import { normalizeEmail, Refused, refuse, type CheckInCommand } from '@rr/domain';
import { normalBookingNumber } from '@rr/contracts';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { runCheckInCommand, type CheckInAnswer } from '../check-in/check-in.ts';

/**
 * Check-in at a seat (docs/product.md#at-the-seat): the visitor proves the booking with its number
 * and its address (compared by the address's key, as the cart rules know a visitor), and the
 * desk's check-in command decides on the ticket's slot stream with the seat: the same window and
 * undo, the visitor as the actor, and the ticket must hold this seat.
 */
export async function checkInAtSeat(
  deps: CommandDeps,
  at: { roomId: string; seatId: string },
  proof: { bookingNumber: string; email: string },
  type: CheckInCommand['type'] & ('CheckIn' | 'UndoCheckIn'),
): Promise<CheckInAnswer & { position: string }> {
  const tickets = await bookedTicketsToday(deps, at.roomId, proof);
  // Each of the booking's tickets of the room today, the slots under way or to come first: the
  // first the command accepts; else the refusal of the first ticket holding this seat, or (none
  // holds it) the seat the first one holds.
  let refusal: Refused | null = null;
  for (const t of tickets) {
    try {
      const { answer, position } = await runCheckInCommand(
        deps,
        { type, data: { ticketId: t.ticketId, atSeat: at.seatId } },
        { kind: 'visitor' },
        t.timeSlotId,
      );
      return { ...answer, position };
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      if (!refusal || (refusal.code === 'check_in__other_seat' && err.code !== refusal.code))
        refusal = err;
    }
  }
  throw refusal ?? noTicketHere();
}

const noTicketHere = () =>
  new Refused('check_in__no_ticket_here', 'The booking has no booked ticket in this room today');

/**
 * The booked tickets of the booking in the room on the library's today, the slots not ended
 * first, each by its start. A number and address of no booking is 404, as an unknown ticket.
 */
async function bookedTicketsToday(
  deps: CommandDeps,
  roomId: string,
  proof: { bookingNumber: string; email: string },
): Promise<{ ticketId: string; timeSlotId: string }[]> {
  const { today, time } = decisionTime(deps);
  const nowMin = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const r = await deps.pool.query<{ ticket_id: string | null; time_slot_id: string | null }>(
    `SELECT t.ticket_id, t.time_slot_id
       FROM bookings b
       LEFT JOIN (ticket_state t JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
                                   AND g.room_id = $3 AND g.date = $4)
              ON t.transaction_id = b.transaction_id AND t.status = 'BOOKED'
      WHERE b.booking_number = $1 AND b.visitor_key = $2
      ORDER BY g.end_min <= $5, g.start_min, t.ticket_id`,
    [
      normalBookingNumber(proof.bookingNumber),
      deps.emailKey(normalizeEmail(proof.email)),
      roomId,
      today,
      nowMin,
    ],
  );
  if (!r.rows.length) throw refuse.notFound('Booking');
  return r.rows.flatMap((x) =>
    x.ticket_id && x.time_slot_id ? [{ ticketId: x.ticket_id, timeSlotId: x.time_slot_id }] : [],
  );
}
