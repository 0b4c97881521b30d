import { TicketReleased, TicketSeatChanged, TimeSlotSeatsChosen } from '@rr/events/catalogue';
import type { SeatAttribute } from '@rr/contracts/seats';
import { Refused, type RefusedField } from '../refusal.ts';
import { takesSeat } from '../seats.ts';
import { outstandingOffers } from '../waitlist-line.ts';
import { hasSeatPlan, type SeatPlan } from '../rooms/seat-plan.ts';
import type { LocalDate } from '../calendar.ts';
import { refuse } from '../refusal.ts';
import {
  evolveSlot,
  slotOfRoom,
  type SlotState,
  type TimeSlotCommandState,
  type TimeSlotDecision,
} from './time-slot.ts';
import { chooseSeat } from './seat-choice.ts';

/**
 * Staff choose which seats of the room's plan a slot offers (docs/product.md#seat-plans, exam
 * places). Which seats are free is seat-choice.ts's rule (`freeSeats` counts only the offered
 * ones); this is the choice itself and what it does to the tickets on seats no longer offered.
 */

type SeatsChosenEvent = TimeSlotDecision extends Map<string, (infer E)[]> ? E : never;

/** The seats chosen for a slot: their ids, or null for every seat of the plan in service. */
export interface SlotSeatsChoice {
  timeSlotId: string;
  roomId: string;
  seatIds: readonly string[] | null;
}

const sameChoice = (a: readonly string[] | undefined, b: readonly string[] | null) =>
  (a === undefined && b === null) ||
  (a !== undefined && b !== null && a.length === b.length && b.every((id) => a.includes(id)));

/** The ids staff chose, each once; a validation error naming each id not on the plan. */
function chosenIds(plan: SeatPlan, seatIds: readonly string[] | null): string[] | null {
  if (seatIds === null) return null;
  if (!hasSeatPlan(plan))
    throw new Refused('validation__error', 'The request is not valid', [
      { field: 'seatIds', rule: 'no_seat_plan', message: 'The room has no seat plan' },
    ]);
  const known = new Set(plan.seats.map((s) => s.seatId));
  const unknown: RefusedField[] = seatIds.flatMap((id, i) =>
    known.has(id)
      ? []
      : [{ field: `seatIds.${i}`, rule: 'unknown', message: 'Not a seat of the room’s plan' }],
  );
  if (unknown.length) throw new Refused('validation__error', 'The request is not valid', unknown);
  return [...new Set(seatIds)];
}

/**
 * The events of choosing a slot's seats. The tickets holding a seat no longer offered move
 * (`movesOffSeats`). When a booking, or an outstanding waitlist offer, finds no free offered
 * seat, the choice is refused with `timeslot__seats_in_use` naming their seats, and nothing
 * changes.
 */
export function chooseSlotSeats(
  slot: SlotState,
  plan: SeatPlan,
  choice: SlotSeatsChoice,
  now: Date,
): SeatsChosenEvent[] {
  const seatIds = chosenIds(plan, choice.seatIds);
  if (sameChoice(slot.seatIds, seatIds)) return [];
  const chosen = TimeSlotSeatsChosen.create({ ...choice, seatIds });
  if (seatIds === null) return [chosen];
  const offered = new Set(seatIds);
  const moves = movesOffSeats({
    slot: evolveSlot(slot, chosen),
    timeSlotId: choice.timeSlotId,
    leaving: (seatId) => !offered.has(seatId),
    before: plan,
    plan,
    now,
  });
  refuseSeatsInUse(moves.inUse);
  return [chosen, ...moves.events];
}

/** A slot's tickets and offers on seats that go, and where they go. */
export interface SeatsLeaving {
  /** The slot as the tickets are to find their new seats in. */
  slot: SlotState;
  timeSlotId: string;
  /** Whether a seat goes: its tickets move, its offers keep it (and refuse the change). */
  leaving: (seatId: string) => boolean;
  /** The plan the leaving seats are found in (their attributes). */
  before: SeatPlan;
  /** The plan the new seats are chosen from. */
  plan: SeatPlan;
  now: Date;
}

/**
 * The moves of the tickets holding a seat that goes: each to a free seat (one with every
 * attribute of the old seat when there is one, else any; the bookings first, then the holds, in
 * the order the slot took them); a hold no seat is free for ends (`closed`). Answers the events
 * and the labels of the seats whose booking, or outstanding waitlist offer, finds no seat.
 */
export function movesOffSeats(q: SeatsLeaving): { events: SeatsChosenEvent[]; inUse: string[] } {
  const { slot, plan, now } = q;
  const given = new Set<string>();
  const events: SeatsChosenEvent[] = [];
  const inUse: string[] = [];
  const leaving = [...slot.tickets]
    .filter(([, t]) => t.seat && q.leaving(t.seat.seatId) && takesSeat(t, now))
    .sort(([, a], [, b]) => Number(b.status === 'BOOKED') - Number(a.status === 'BOOKED'));
  for (const [ticketId, t] of leaving) {
    const old = q.before.seats.find((s) => s.seatId === t.seat?.seatId);
    const ask = (attributes: readonly SeatAttribute[]) =>
      chooseSeat({ plan, slot, wish: { attributes }, given, now });
    let seat = ask(old?.attributes ?? []);
    if (!seat || seat instanceof Refused) seat = ask([]);
    if (seat && !(seat instanceof Refused)) {
      given.add(seat.seatId);
      events.push(TicketSeatChanged.create({ ticketId, timeSlotId: q.timeSlotId, seat }));
    } else if (t.status === 'BOOKED') inUse.push(t.seat?.label ?? '');
    else events.push(TicketReleased.create({ ticketId, reason: 'closed' }));
  }
  for (const offer of outstandingOffers(slot.waitlist, now))
    if (offer.offerSeat && q.leaving(offer.offerSeat.seatId)) inUse.push(offer.offerSeat.label);
  return { events, inUse };
}

/** The refusal of a change that would leave bookings or offers on seats that go. */
export function refuseSeatsInUse(inUse: readonly string[]): void {
  if (!inUse.length) return;
  const seats = [...new Set(inUse)];
  throw new Refused(
    { code: 'timeslot__seats_in_use', seats },
    `No offered seat is free for the bookings or offers of the seats ${seats.join(', ')}`,
  );
}

export type SlotSeatsCommand =
  /** The seats of the room's plan a slot offers (null: all in service), e.g. exam places. */
  | { type: 'ChooseSlotSeats'; data: SlotSeatsChoice }
  /** The same choice for every slot of the room in a date range. */
  | {
      type: 'ChooseSeatsOfSlots';
      data: {
        roomId: string;
        fromDate: LocalDate;
        untilDate: LocalDate;
        seatIds: readonly string[] | null;
      };
    };

/**
 * Pure: the events of choosing the seats of one slot, or of every slot of the room in a range
 * (all or none: one slot refusing refuses the whole range). Decided on the same state as the
 * other slot commands (time-slot.ts), with the room's plan as it is now.
 */
export function decideSlotSeats(
  command: SlotSeatsCommand,
  state: TimeSlotCommandState,
  { now }: { now: Date },
): TimeSlotDecision {
  if (state.room.status !== 'active') throw refuse.notFound('Room');
  const plan = state.room.seatPlan;
  const decision: TimeSlotDecision = new Map();
  if (command.type === 'ChooseSlotSeats') {
    const d = command.data;
    const events = chooseSlotSeats(slotOfRoom(state, d.timeSlotId, d.roomId), plan, d, now);
    if (events.length) decision.set(d.timeSlotId, events);
    return decision;
  }
  const { roomId, fromDate, untilDate, seatIds } = command.data;
  // Seats not on the plan are refused even when no slot is in the range.
  chosenIds(plan, seatIds);
  for (const [timeSlotId, slot] of state.slots) {
    const inRange = slot.date >= fromDate && slot.date <= untilDate;
    if (slot.status !== 'active' || slot.roomId !== roomId || !inRange) continue;
    const events = chooseSlotSeats(slot, plan, { timeSlotId, roomId, seatIds }, now);
    if (events.length) decision.set(timeSlotId, events);
  }
  return decision;
}

/**
 * What a room's new seats do to its slots not yet ended (docs/product.md#setting-the-plan): the
 * tickets on seats that left the plan move to free seats of the new one (movesOffSeats), and a
 * booking or an outstanding offer none is free for refuses the change (`timeslot__seats_in_use`,
 * all slots or none). A plan ended (no seats) moves nothing: its tickets keep their seats, which
 * come back under their labels (`retired`).
 */
export function seatsLeavingPlan(
  slots: ReadonlyMap<string, SlotState>,
  before: SeatPlan,
  plan: SeatPlan,
  now: Date,
): TimeSlotDecision {
  const decision: TimeSlotDecision = new Map();
  if (!hasSeatPlan(plan)) return decision;
  const onPlan = new Set(plan.seats.map((s) => s.seatId));
  const inUse: string[] = [];
  for (const [timeSlotId, slot] of slots) {
    if (slot.status !== 'active') continue;
    const moves = movesOffSeats({
      slot,
      timeSlotId,
      leaving: (seatId) => !onPlan.has(seatId),
      before,
      plan,
      now,
    });
    inUse.push(...moves.inUse);
    if (moves.events.length) decision.set(timeSlotId, moves.events);
  }
  refuseSeatsInUse(inUse);
  return decision;
}
