import { type Actor } from '@rr/events';
import { decideCheckIn, evolveSlotWith, refuse, type CheckInCommand } from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { roomStates } from '../write-state.ts';
import { appendToSlot, lockSlot } from '../streams/timeslot.ts';

/** A ticket's check-in after a command: when its reader was checked in (null: not). */
export interface CheckInAnswer {
  ticketId: string;
  status: string;
  checkedInAt: string | null;
}

/**
 * Runs a check-in command (check in, undo, no-show release) on the slot stream of its ticket,
 * under the stream's lock: a check-in and a release of one ticket are decided one after the
 * other, so the second sees the first (checked in, or released: never both). `ticket_state`
 * finds the ticket's slot (written with the events, so a ticket is found as soon as its booking
 * answered); the room's services come from `room_state`.
 */
export async function runCheckInCommand(
  deps: CommandDeps,
  command: CheckInCommand,
  actor: Actor,
  timeSlotId?: string,
) {
  const { ticketId } = command.data;
  const slotId = timeSlotId ?? (await slotOfTicket(deps, ticketId));
  return handleCommand(deps.store, {
    actor,
    load: async (s) => {
      const slot = await lockSlot(s, slotId);
      const room = (await roomStates(s.client, [slot.roomId])).get(slot.roomId);
      if (!room) throw refuse.notFound('Room');
      return { slot, services: room.services };
    },
    decide: (state) => decideCheckIn(command, state, decisionTime(deps)),
    appends: (events, state) => appendToSlot(slotId, state.slot, events),
    answer: (events, state): CheckInAnswer => {
      const after = evolveSlotWith(state.slot, events).tickets.get(ticketId)!;
      return { ticketId, status: after.status, checkedInAt: after.checkedInAt ?? null };
    },
  });
}

async function slotOfTicket(deps: CommandDeps, ticketId: string): Promise<string> {
  const r = await deps.pool.query<{ time_slot_id: string }>(
    'SELECT time_slot_id FROM ticket_state WHERE ticket_id = $1',
    [ticketId],
  );
  const slotId = r.rows[0]?.time_slot_id;
  if (!slotId) throw refuse.notFound('Ticket');
  return slotId;
}

/** Booking numbers are shown upper-case (`R-7K3QX2`); what staff type may not be. */
export const normalBookingNumber = (s: string) => s.trim().toUpperCase();

/**
 * The tickets a scanned or typed code names: the ticket of a check-in reference, or the booked
 * tickets of a booking number on the library's today (by start time). Empty when it names none.
 */
export async function ticketsOfCode(
  deps: CommandDeps,
  code: string,
  sites: readonly string[] | null = null,
): Promise<{ ticketId: string; timeSlotId: string }[]> {
  const fromReference = deps.checkInCodes.ticketOf(code);
  // A user whose roles are for some sites (`sites`): the tickets of their rooms only.
  const r = fromReference
    ? await deps.pool.query<{ id: string; time_slot_id: string }>(
        `SELECT ticket_id AS id, time_slot_id FROM ticket_state t
          WHERE ticket_id = $1 AND ($2::uuid[] IS NULL OR EXISTS (
             SELECT 1 FROM timeslot_guard sg JOIN room_state sr ON sr.room_id = sg.room_id
              WHERE sg.time_slot_id = t.time_slot_id AND sr.site_id = ANY($2::uuid[])))`,
        [fromReference, sites],
      )
    : await deps.pool.query<{ id: string; time_slot_id: string }>(
        `SELECT t.ticket_id AS id, t.time_slot_id
           FROM bookings b
           JOIN ticket_state t ON t.transaction_id = b.transaction_id
           JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
          WHERE b.booking_number = $1 AND g.date = $2 AND t.status = 'BOOKED'
            AND ($3::uuid[] IS NULL OR EXISTS (
             SELECT 1 FROM timeslot_guard sg JOIN room_state sr ON sr.room_id = sg.room_id
              WHERE sg.time_slot_id = t.time_slot_id AND sr.site_id = ANY($3::uuid[])))
          ORDER BY g.start_min, t.ticket_id`,
        [normalBookingNumber(code), decisionTime(deps).today, sites],
      );
  return r.rows.map((x) => ({ ticketId: x.id, timeSlotId: x.time_slot_id }));
}
