import { randomUUID } from 'node:crypto';
import { roomStreamId, type Actor, type StoreSession } from '@rr/events';
import {
  decideSlotSeats,
  decideTimeSlot,
  type SlotSeatsCommand,
  initialSlotState,
  type TimeSlotCommand,
  type TimeSlotCommandState,
  type SlotState,
} from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { loadRoom } from '../rooms/stream.ts';
import { roomHolidaysBetween } from '../holidays/state.ts';
import { appendToSlot, lockSlots } from '../streams/timeslot.ts';

/**
 * The time-slot streams (`timeslot-<id>`) as the staff's slot commands use them: their loaders
 * and the command run on them. The slot streams themselves are loaded and appended to by their
 * stream module (streams/timeslot.ts), which the cart commands share.
 */

/** When the room's slots sit on some days (the guard table, moved with the slots' events). */
async function slotTimes(
  s: StoreSession,
  roomId: string,
  from: string,
  until: string,
): Promise<TimeSlotCommandState['taken']> {
  const r = await s.client.query<{ id: string; date: string; start_min: number; end_min: number }>(
    `SELECT time_slot_id::text AS id, to_char(date, 'YYYY-MM-DD') AS date, start_min, end_min
       FROM timeslot_guard WHERE room_id = $1 AND date BETWEEN $2 AND $3 ORDER BY date, start_min`,
    [roomId, from, until],
  );
  return r.rows.map((x) => ({
    timeSlotId: x.id,
    date: x.date,
    startMin: x.start_min,
    endMin: x.end_min,
  }));
}

/** The slots' streams, locked and folded (through the slot cache), in the order given. */
async function slotsInOrder(s: StoreSession, ids: string[]): Promise<Map<string, SlotState>> {
  const slots = await lockSlots(s, ids);
  return new Map(ids.map((id) => [id, slots.get(id)!]));
}

/**
 * What a slot command decides on. The room's stream is locked first: slot commands of a room
 * queue, and the room cannot go meanwhile. Then the slots it changes, under lock, and when the
 * room's slots sit on the days concerned.
 */
async function loadTimeSlotCommand(
  s: StoreSession,
  command: TimeSlotCommand | SlotSeatsCommand,
): Promise<TimeSlotCommandState> {
  const roomId = command.data.roomId;
  await s.lockStream(roomStreamId(roomId));
  const room = await loadRoom(s, roomId);
  const state: TimeSlotCommandState = {
    room,
    slots: new Map(),
    holidays: new Set(),
    taken: [],
  };
  if (room.status !== 'active') return state;
  switch (command.type) {
    case 'CreateTimeSlots': {
      const { startDate, repeatUntil } = command.data;
      const until = repeatUntil ?? startDate;
      return {
        ...state,
        holidays: await roomHolidaysBetween(s.client, roomId, startDate, until),
        taken: await slotTimes(s, roomId, startDate, until),
      };
    }
    case 'UpdateTimeSlot': {
      const slots = await lockSlots(s, [command.data.timeSlotId]);
      const slot = slots.get(command.data.timeSlotId)!;
      const taken =
        slot.status === 'active' ? await slotTimes(s, roomId, slot.date, slot.date) : [];
      return { ...state, slots, taken };
    }
    case 'DeleteTimeSlot':
    case 'ChooseSlotSeats':
      return { ...state, slots: await lockSlots(s, [command.data.timeSlotId]) };
    case 'ChooseSeatsOfSlots':
    case 'ChangeCapacity':
    case 'CloseTimeSlots': {
      const { fromDate, untilDate } = command.data;
      const ids = (await slotTimes(s, roomId, fromDate, untilDate)).map((t) => t.timeSlotId);
      return { ...state, slots: await slotsInOrder(s, ids) };
    }
  }
}

/** Runs a slot command; answers the number of slots it created or changed. */
export function runTimeSlotCommand(
  deps: CommandDeps,
  actor: Actor,
  command: TimeSlotCommand | SlotSeatsCommand,
) {
  return handleCommand(deps.store, {
    actor,
    load: (s) => loadTimeSlotCommand(s, command),
    decide: (state) => {
      const now = deps.clock.now();
      return command.type === 'ChooseSlotSeats' || command.type === 'ChooseSeatsOfSlots'
        ? decideSlotSeats(command, state, { now })
        : decideTimeSlot(command, state, { now, newId: randomUUID });
    },
    appends: (decision, state) =>
      [...decision].flatMap(([id, events]) =>
        appendToSlot(id, state.slots.get(id) ?? initialSlotState, events),
      ),
    answer: (decision) => decision.size,
  });
}
