import { TicketReleased, TicketSeatChanged } from '@rr/events/catalogue';
import type { SeatAttribute } from '@rr/contracts/seats';
import { refuse, Refused } from '../refusal.ts';
import { takesSeat, type TicketSeat } from '../seats.ts';
import { outstandingOffers } from '../waitlist-line.ts';
import { isCancelable } from '../cancelable.ts';
import { hasSeatPlan, seatsInService, type PlanSeat, type SeatPlan } from '../rooms/seat-plan.ts';
import type { SlotEvent, SlotState } from './time-slot.ts';

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
  for (const t of slot.tickets.values()) if (t.seat && takesSeat(t, now)) held.add(t.seat.seatId);
  for (const offer of outstandingOffers(slot.waitlist, now))
    if (offer.offerSeat) held.add(offer.offerSeat.seatId);
  return held;
}

/**
 * The seats the slot offers in the plan's order: those in service on its day, and of them only
 * the ones staff chose for it when they chose some (exam places).
 */
export function offeredSeats(plan: SeatPlan, slot: SlotState): PlanSeat[] {
  const inService = seatsInService(plan, slot.date);
  if (!slot.seatIds) return inService;
  const offered = new Set(slot.seatIds);
  return inService.filter((s) => offered.has(s.seatId));
}

/** The slot's free seats in the plan's order: offered, and held by no ticket or offer. */
export function freeSeats(plan: SeatPlan, slot: SlotState, now: Date): PlanSeat[] {
  const held = seatsHeld(slot, now);
  return offeredSeats(plan, slot).filter((s) => !held.has(s.seatId));
}

export const seatTaken = () =>
  new Refused(
    'seat__taken',
    'The seat is held or booked by another, out of service, or not offered in the time slot',
  );
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

/**
 * The seat a waitlist offer's taker gets: the seat the offer holds while the slot still offers it;
 * one taken out of service (or no longer offered) since the offer was made gives way to a free
 * seat of the same kind (every attribute of the old one, the fewest beyond), else to any free
 * seat, as a ticket on a seat taken out of service moves; null when none is free.
 */
export function offerSeatToTake(
  plan: SeatPlan,
  slot: SlotState,
  offerSeat: TicketSeat | undefined,
  now: Date,
): TicketSeat | undefined | null {
  if (!offerSeat || !hasSeatPlan(plan)) return offerSeat;
  if (offeredSeats(plan, slot).some((s) => s.seatId === offerSeat.seatId)) return offerSeat;
  const old = plan.seats.find((s) => s.seatId === offerSeat.seatId);
  for (const wish of [{ attributes: old?.attributes ?? [] }, undefined]) {
    const choice = chooseSeat({ plan, slot, wish, now });
    if (choice && !(choice instanceof Refused)) return choice;
  }
  return null;
}

/** What taking a seat out of service does to one slot's tickets on it. */
export interface SeatVacated {
  /** Moves to a free seat having at least the seat's attributes (`TicketSeatChanged`). */
  events: SlotEvent[];
  /** Booked tickets no such seat was free for: cancelled with the reason (by their owners). */
  cancel: { ticketId: string; ownerId: string }[];
}

/**
 * The tickets of a slot holding a seat now out of service (the plan already has the range): each
 * moves to a free seat of the same kind (every attribute of the old seat, the fewest beyond), in
 * the order the slot took them; a hold with no such seat ends (`closed`), a booking is cancelled
 * with the reason.
 */
export function vacateSeat(
  slot: SlotState,
  plan: SeatPlan,
  seatId: string,
  ctx: { now: Date; timeSlotId: string; reason: string },
): SeatVacated {
  const old = plan.seats.find((s) => s.seatId === seatId);
  const given = new Set<string>();
  const out: SeatVacated = { events: [], cancel: [] };
  for (const [ticketId, t] of slot.tickets) {
    if (t.seat?.seatId !== seatId || !takesSeat(t, ctx.now)) continue;
    const choice = chooseSeat({
      plan,
      slot,
      wish: { attributes: old?.attributes ?? [] },
      given,
      now: ctx.now,
    });
    if (choice && !(choice instanceof Refused)) {
      given.add(choice.seatId);
      out.events.push(
        TicketSeatChanged.create({
          ticketId,
          timeSlotId: ctx.timeSlotId,
          seat: choice,
          reason: ctx.reason,
        }),
      );
    } else if (t.status === 'BOOKED' && t.ownerId)
      out.cancel.push({ ticketId, ownerId: t.ownerId });
    else out.events.push(TicketReleased.create({ ticketId, reason: 'closed' }));
  }
  return out;
}

/**
 * A booked ticket moves to another seat of its slot: staff at the desk, or its visitor keeping the
 * slot (docs/product.md#rebooking). The wish is that seat, or any free seat with the attributes
 * (as a ticket taking a seat chooses); the seat must be free in the slot, as for any ticket taking
 * it. A visitor's move names the owner: another owner's ticket is not found, and one whose slot has
 * started (or that is not booked) is no longer cancelable, so no longer movable. Moving to the
 * seat it holds changes nothing.
 */
export function changeSeat(
  slot: SlotState,
  plan: SeatPlan,
  data: {
    timeSlotId: string;
    ticketId: string;
    wish: SeatWish;
    reason?: string | undefined;
    owner?: { ownerId: string; localNow: { date: string; time: string } } | undefined;
  },
  now: Date,
): SlotEvent[] {
  const ticket = slot.tickets.get(data.ticketId);
  if (!ticket || (data.owner && ticket.ownerId !== data.owner.ownerId))
    throw refuse.notFound('Ticket');
  if (data.owner && !isCancelable(ticket.status, slot, data.owner.localNow))
    throw new Refused('ticket__not_cancelable', 'The ticket cannot be changed any more');
  if (ticket.status !== 'BOOKED')
    throw new Refused(
      { code: 'ticket__not_booked', status: ticket.status },
      'The ticket is not booked',
    );
  if (data.wish.seatId && ticket.seat?.seatId === data.wish.seatId) return [];
  const choice = chooseSeat({ plan, slot, wish: data.wish, now });
  if (choice instanceof Refused) throw choice;
  if (!choice) throw refuse.notFound('Seat');
  return [
    TicketSeatChanged.create({
      ticketId: data.ticketId,
      timeSlotId: data.timeSlotId,
      seat: choice,
      ...(data.reason ? { reason: data.reason } : {}),
    }),
  ];
}
