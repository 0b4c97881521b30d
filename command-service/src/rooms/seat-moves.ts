import type { Actor } from '@rr/events';
import {
  changeSeat,
  NO_SEAT_PLAN,
  refuse,
  vacateSeat,
  type LocalDate,
  type SeatVacated,
  type SeatWish,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { appendToSlot, lockSlots } from '../streams/timeslot.ts';
import { roomStates } from '../write-state.ts';
import { cancelTickets } from '../booking/cancel.ts';

/** A seat taken out of service for a range of days, with staff's reason. */
export interface SeatOutOfService {
  roomId: string;
  seatId: string;
  from: LocalDate;
  until: LocalDate;
  reason: string;
}

/**
 * After a seat went out of service (docs/product.md#seat-plans): on each slot of its room in the
 * range, its tickets move to a free seat of the same kind, in one step on the slots' streams
 * (locked together, as a plan change locks its room's slots) and the plan as it is now, so a
 * visitor whose tickets of several of those slots moved gets one mail; the bookings no such seat
 * was free for are then cancelled with the reason, one cancellation for all (each owner gets one
 * mail stating it). Answers how many tickets moved and how many were cancelled.
 */
export async function vacateSeatOnDays(deps: CommandDeps, actor: Actor, range: SeatOutOfService) {
  const slots = await deps.pool.query<{ id: string }>(
    `SELECT time_slot_id::text AS id FROM timeslot_guard
      WHERE room_id = $1 AND date BETWEEN $2 AND $3 ORDER BY date, start_min`,
    [range.roomId, range.from, range.until],
  );
  let moved = 0;
  // The position of the last event written, for the staff's read of their own write.
  let position: string | null = null;
  const byOwner = new Map<string, string[]>();
  if (slots.rows.length) {
    const result = await handleCommand(deps.store, {
      actor,
      load: async (s) => ({
        slots: await lockSlots(
          s,
          slots.rows.map((x) => x.id),
        ),
        room: (await roomStates(s.client, [range.roomId])).get(range.roomId),
      }),
      decide: ({ slots: locked, room }) => {
        const vacated = new Map<string, SeatVacated>();
        if (!room) return vacated;
        const now = deps.clock.now();
        for (const [id, slot] of locked)
          vacated.set(
            id,
            vacateSeat(slot, room.seatPlan, range.seatId, {
              now,
              timeSlotId: id,
              reason: range.reason,
            }),
          );
        return vacated;
      },
      appends: (vacated, { slots: locked }) =>
        [...vacated].flatMap(([id, v]) => appendToSlot(id, locked.get(id)!, v.events)),
      answer: (vacated) => [...vacated.values()],
    });
    const vacated = result.answer;
    if (vacated.some((v) => v.events.length)) position = result.position;
    for (const v of vacated) {
      moved += v.events.filter((e) => e.type === 'TicketSeatChanged').length;
      for (const t of v.cancel)
        byOwner.set(t.ownerId, [...(byOwner.get(t.ownerId) ?? []), t.ticketId]);
    }
  }
  let cancelled = 0;
  if (byOwner.size) {
    const r = await cancelTickets(deps, byOwner, actor, { reason: range.reason });
    cancelled = r.answer;
    position = r.position;
  }
  return { moved, cancelled, position };
}

/**
 * A booked ticket moves to another seat of its slot: staff at the desk (a reader changes places),
 * or its visitor keeping the slot (`owner`: the owner's own ticket, still cancelable). Decided on
 * the slot's stream with the room's plan as it is now, so two asking for one free seat are decided
 * one after the other and exactly one gets it. Answers the ticket's seat.
 */
export async function moveToSeat(
  deps: CommandDeps,
  actor: Actor,
  move: { ticketId: string; wish: SeatWish; reason?: string | undefined; ownerId?: string },
) {
  const r = await deps.pool.query<{ time_slot_id: string }>(
    'SELECT time_slot_id::text AS time_slot_id FROM ticket_state WHERE ticket_id = $1',
    [move.ticketId],
  );
  const timeSlotId = r.rows[0]?.time_slot_id;
  if (!timeSlotId) throw refuse.notFound('Ticket');
  const { ownerId, ...data } = move;
  return handleCommand(deps.store, {
    actor,
    load: async (s) => {
      const slot = (await lockSlots(s, [timeSlotId])).get(timeSlotId)!;
      const room = (await roomStates(s.client, [slot.roomId])).get(slot.roomId);
      return { slot, plan: room?.seatPlan ?? NO_SEAT_PLAN };
    },
    decide: ({ slot, plan }) => {
      const { now, today, time } = decisionTime(deps);
      const owner = ownerId ? { ownerId, localNow: { date: today, time } } : undefined;
      return changeSeat(slot, plan, { ...data, timeSlotId, owner }, now);
    },
    appends: (events, { slot }) => appendToSlot(timeSlotId, slot, events),
    answer: (events, { slot }) => {
      const changed = events.find((e) => e.type === 'TicketSeatChanged');
      const seat =
        changed?.type === 'TicketSeatChanged'
          ? changed.data.seat
          : slot.tickets.get(move.ticketId)?.seat;
      return {
        id: move.ticketId,
        timeSlotId,
        seat: seat ? { id: seat.seatId, label: seat.label } : null,
      };
    },
  });
}
