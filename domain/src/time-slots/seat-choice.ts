import type { SeatAttribute } from '@rr/contracts/seats';
import { refuse, Refused } from '../refusal.ts';
import { takesSeat, type TicketSeat } from '../seats.ts';
import { outstandingOffers } from '../waitlist-line.ts';
import { hasSeatPlan, seatsInService, type PlanSeat, type SeatPlan } from '../rooms/seat-plan.ts';
import type { SlotState } from './time-slot.ts';

/**
 * Which seat of a room's plan a ticket takes (docs/product.md#seat-plans): a rule of the one
 * decision that gives a seat (take-seat.ts), so no path gives a seat twice. A seat is free in a
 * slot when it is in service on the slot's day and no booking, unexpired hold or outstanding
 * waitlist offer of the slot holds it. A room without a plan has no seats to choose.
 */

/** The seat a person asks for: that seat, or any free seat with these attributes. */
export interface SeatWish {
  seatId?: string | undefined;
  attributes?: readonly SeatAttribute[] | undefined;
}

/** The seats of the slot held now, by seat id: bookings, unexpired holds, outstanding offers. */
export function seatsHeld(slot: SlotState, now: Date): Set<string> {
  const held = new Set<string>();
  for (const t of Object.values(slot.tickets))
    if (t.seat && takesSeat(t, now)) held.add(t.seat.seatId);
  for (const offer of outstandingOffers(slot.waitlist, now))
    if (offer.offerSeat) held.add(offer.offerSeat.seatId);
  return held;
}

/** The slot's free seats in the plan's order. */
export function freeSeats(plan: SeatPlan, slot: SlotState, now: Date): PlanSeat[] {
  const held = seatsHeld(slot, now);
  return seatsInService(plan, slot.date).filter((s) => !held.has(s.seatId));
}

export const seatTaken = () =>
  new Refused('seat__taken', 'The seat is held or booked by another, or out of service');
export const noSeatMatching = () =>
  new Refused('seat__none_matching', 'No free seat of the time slot has the attributes asked for');

const hasAll = (seat: PlanSeat, wanted: readonly SeatAttribute[]) =>
  wanted.every((a) => seat.attributes.includes(a));

/**
 * The best of the free candidates: a seat preferred (the seat of the cart's adjacent slot, or the
 * seat a rebooked ticket had) when it is among them, else the one with the fewest attributes
 * beyond those asked for (so an accessible or a PC place stays for who needs it), in plan order.
 */
function best(candidates: readonly PlanSeat[], prefer: readonly string[]): PlanSeat | undefined {
  for (const id of prefer) {
    const seat = candidates.find((s) => s.seatId === id);
    if (seat) return seat;
  }
  let chosen: PlanSeat | undefined;
  for (const seat of candidates)
    if (!chosen || seat.attributes.length < chosen.attributes.length) chosen = seat;
  return chosen;
}

export interface SeatChoiceQuestion {
  plan: SeatPlan;
  slot: SlotState;
  wish?: SeatWish | undefined;
  /** Seat ids to prefer among the free ones, best first. */
  prefer?: readonly string[] | undefined;
  /** Seats already given in the same decision (not yet in the slot's state). */
  given?: ReadonlySet<string> | undefined;
  now: Date;
}

/**
 * The seat a ticket takes: a seat of the plan, null in a room without one; a refusal when the
 * wish cannot be met (`seat__taken`, `seat__none_matching`, an unknown seat) or no seat is free
 * (`timeslot_no_tickets_left`).
 */
export function chooseSeat(q: SeatChoiceQuestion): TicketSeat | null | Refused {
  const wished = q.wish?.attributes ?? [];
  if (!hasSeatPlan(q.plan)) {
    if (q.wish?.seatId) return refuse.notFound('Seat');
    return wished.length ? noSeatMatching() : null;
  }
  const free = freeSeats(q.plan, q.slot, q.now).filter((s) => !q.given?.has(s.seatId));
  let seat: PlanSeat | undefined;
  if (q.wish?.seatId) {
    if (!q.plan.seats.some((s) => s.seatId === q.wish?.seatId)) return refuse.notFound('Seat');
    seat = free.find((s) => s.seatId === q.wish?.seatId);
    if (!seat) return seatTaken();
  } else if (wished.length) {
    seat = best(
      free.filter((s) => hasAll(s, wished)),
      q.prefer ?? [],
    );
    if (!seat) return free.length ? noSeatMatching() : refuse.ticket('timeslot_no_tickets_left');
  } else {
    seat = best(free, q.prefer ?? []);
    if (!seat) return refuse.ticket('timeslot_no_tickets_left');
  }
  return { seatId: seat.seatId, label: seat.label };
}
