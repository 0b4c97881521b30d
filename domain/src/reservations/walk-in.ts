import { refuse } from '../refusal.ts';
import { hasSeatPlan } from '../rooms/seat-plan.ts';
import { bookedSeats } from '../cart-rules.ts';
import { takeSeats } from '../time-slots/take-seat.ts';
import { bookedAtOnce } from './booking-decisions.ts';
import type {
  ReservationCommand,
  ReservationContext,
  ReservationDecision,
  ReservationState,
} from './types.ts';

/**
 * A walk-in (docs/product.md#at-the-seat): the visitor at a free seat of a slot under way books
 * that seat at once and is checked in with the booking in a room with check-in. The one decision
 * that gives a seat (take-seat.ts, path `walk-in`) applies every rule of a booking, with the slot
 * under way instead of the booking window. Only in a room with a seat plan: the seat is the one
 * the visitor stands at.
 */
export function walkIn(
  state: ReservationState,
  data: Extract<ReservationCommand, { type: 'WalkIn' }>['data'],
  context: ReservationContext,
): ReservationDecision {
  const slot = state.slots.get(data.timeSlotId);
  if (!slot || slot.status !== 'active' || slot.roomId !== data.roomId)
    throw refuse.notFound('Time slot');
  const room = state.rooms.get(slot.roomId);
  if (!room || !hasSeatPlan(room.seatPlan)) throw refuse.notFound('Seat');
  const { seats } = takeSeats(
    'walk-in',
    [
      {
        timeSlotId: data.timeSlotId,
        ticketId: data.ticketId,
        slot,
        wish: { seatId: data.seatId },
      },
    ],
    {
      held: bookedSeats(state.visitor, context.today),
      blacklist: state.blacklist,
      noShows: state.noShows,
      emailDomain: data.emailDomain,
      member: data.member ?? null,
    },
    state,
    context,
  );
  return bookedAtOnce(slot, data, seats.get(data.ticketId) ?? undefined, {
    ...context,
    rooms: state.rooms,
  });
}
