import { randomUUID } from 'node:crypto';
import { roomStreamId, timeSlotStreamId, type StoreSession } from '@rr/events';
import {
  decideTimeSlot,
  type TimeSlotCommand,
  type TimeSlotCommandState,
  type SlotState,
} from '@rr/domain';
import { TimeSlotCapacityInput, TimeSlotInput, TimeSlotUpdateInput } from '@rr/contracts';
import { defineRoute, fromContract, z, type RouteDef, type SessionUser } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { handleCommand, streamAppend } from '../command.ts';
import { loadRoom } from '../rooms/api.ts';
import { holidayDatesBetween } from '../holidays/state.ts';
import { lockCartAndSlots } from '../booking/store.ts';

// Time slots and multi capacity (docs/product.md#validation): the contracts' rules (shared with the browser).
export const SlotCreateBody = fromContract(TimeSlotInput).openapi('TimeSlotInput');
const SlotUpdateBody = fromContract(TimeSlotUpdateInput).openapi('TimeSlotUpdateInput');
const CapacityBody = fromContract(TimeSlotCapacityInput).openapi('TimeSlotCapacityInput');
const RoomParams = z.object({ id: z.uuid('Not a valid id') });
const SlotParams = z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') });
const PositionOnly = z.object({ position: z.string() });

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
async function lockSlots(s: StoreSession, ids: string[]): Promise<Map<string, SlotState>> {
  const slots = await lockCartAndSlots(s, null, ids);
  return new Map(ids.map((id) => [id, slots.get(id)!]));
}

/**
 * What a slot command decides on. The room's stream is locked first: slot commands of a room
 * queue, and the room cannot go meanwhile. Then the slots it changes, under lock, and when the
 * room's slots sit on the days concerned.
 */
async function load(s: StoreSession, command: TimeSlotCommand): Promise<TimeSlotCommandState> {
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
        holidays: await holidayDatesBetween(s.client, startDate, until),
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
      return { ...state, slots: await lockSlots(s, [command.data.timeSlotId]) };
    case 'ChangeCapacity': {
      const { fromDate, untilDate } = command.data;
      const ids = (await slotTimes(s, roomId, fromDate, untilDate)).map((t) => t.timeSlotId);
      return { ...state, slots: await lockSlots(s, ids) };
    }
  }
}

export function timeSlotCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock } = deps;

  const execute = (user: SessionUser | undefined, command: TimeSlotCommand) =>
    handleCommand(store, {
      actor: actorOf(user),
      load: (s) => load(s, command),
      decide: (state) => decideTimeSlot(command, state, { now: clock.now(), newId: randomUUID }),
      appends: (decision, state) =>
        [...decision].flatMap(([id, events]) =>
          streamAppend(timeSlotStreamId(id), 'timeslot', state.slots.get(id)?.version ?? 0, events),
        ),
      answer: (decision) => decision.size,
    });

  return [
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{id}/timeslots',
      summary:
        'Create time slots: one-off, or one per matching weekday up to repeatUntil (holidays skipped unless included)',
      tags: ['timeslots'],
      access: ['admin'],
      params: RoomParams,
      body: SlotCreateBody,
      responses: {
        201: {
          description: 'Created',
          schema: z
            .object({ createdTimeSlots: z.number(), position: z.string() })
            .openapi('TimeSlotsCreated'),
        },
        404: { description: 'No such room' },
        409: { description: "timeslot__overlapping; payload ['date', the first clashing date]" },
      },
      handler: async ({ params, body, user }) => {
        const { answer, position } = await execute(user, {
          type: 'CreateTimeSlots',
          data: { roomId: params.id, ...body },
        });
        return { status: 201, body: { createdTimeSlots: answer, position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}',
      summary:
        'Change the times and capacity of a time slot (capacity below the tickets is allowed: overbooked)',
      tags: ['timeslots'],
      access: ['admin'],
      params: SlotParams,
      body: SlotUpdateBody,
      responses: {
        200: { description: 'Updated', schema: PositionOnly },
        404: { description: 'No such slot' },
        409: { description: 'timeslot__overlapping' },
      },
      handler: async ({ params, body, user }) => {
        const { position } = await execute(user, {
          type: 'UpdateTimeSlot',
          data: { timeSlotId: params.timeSlotId, roomId: params.id, ...body },
        });
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}',
      summary: 'Delete a time slot (refused while it has tickets; payload[0] is their count)',
      tags: ['timeslots'],
      access: ['admin'],
      params: SlotParams,
      responses: {
        200: { description: 'Deleted', schema: PositionOnly },
        404: { description: 'No such slot' },
        409: { description: 'timeslot__has_tickets' },
      },
      handler: async ({ params, user }) => {
        const { position } = await execute(user, {
          type: 'DeleteTimeSlot',
          data: { timeSlotId: params.timeSlotId, roomId: params.id },
        });
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{id}/timeslots/capacity',
      summary: 'Set the capacity of every time slot of the room in a date range',
      tags: ['timeslots'],
      access: ['admin'],
      params: RoomParams,
      body: CapacityBody,
      responses: {
        200: {
          description: 'Updated',
          schema: z
            .object({ updatedTimeSlots: z.number(), position: z.string() })
            .openapi('TimeSlotsCapacityUpdated'),
        },
        404: { description: 'No such room' },
      },
      handler: async ({ params, body, user }) => {
        const { answer, position } = await execute(user, {
          type: 'ChangeCapacity',
          data: { roomId: params.id, ...body },
        });
        return { body: { updatedTimeSlots: answer, position } };
      },
    }),
  ];
}
