import { randomUUID } from 'node:crypto';
import {
  formatPosition,
  roomStreamId,
  TimeSlotCreated,
  timeSlotStreamId,
  type AppendRequest,
  type Position,
  type RoomEvent,
  type StoreSession,
} from '@rr/events';
import { slotDates } from '@rr/domain';
import { TimeSlotCapacityInput, TimeSlotInput, TimeSlotUpdateInput } from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  minutesOf,
  Problem,
  problems,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { evolve as evolveRoom, initialRoomState } from '../rooms/decider.ts';
import { holidayDatesBetween } from '../holidays/state.ts';
import {
  decideSlot,
  evolveSlot,
  initialSlotState,
  type SlotCommand,
  type SlotState,
  type SlotEvent,
} from './decider.ts';

/** Spec maxTimeSlots: one request creates at most this many. */
export const MAX_SLOTS_PER_REQUEST = 999;

// Spec section 5, time slots and multi capacity: the contracts' rules (shared with the browser).
export const SlotCreateBody = fromContract(TimeSlotInput).openapi('TimeSlotInput');
const SlotUpdateBody = fromContract(TimeSlotUpdateInput).openapi('TimeSlotUpdateInput');
const CapacityBody = fromContract(TimeSlotCapacityInput).openapi('TimeSlotCapacityInput');
const RoomParams = z.object({ id: z.uuid('Not a valid id') });
const SlotParams = z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') });

const token = (p: Position | null) => (p ? formatPosition(p) : '0_0');

/** Serialises slot changes of one room (its stream row) and checks that the room exists. */
async function lockRoom(s: StoreSession, roomId: string): Promise<void> {
  await s.lockStream(roomStreamId(roomId));
  const { events } = await s.readStream(roomStreamId(roomId));
  const room = events.reduce(
    (st, e) => evolveRoom(st, e as unknown as RoomEvent),
    initialRoomState,
  );
  if (room.status !== 'active') throw problems.notFound('Room');
}

export async function loadSlot(s: StoreSession, timeSlotId: string): Promise<SlotState> {
  const { events } = await s.readStream(timeSlotStreamId(timeSlotId));
  return events.reduce((st, e) => evolveSlot(st, e as unknown as SlotEvent), initialSlotState);
}

/** The first date on which a slot of the room would overlap the given times (guard table, same transaction). */
async function firstOverlap(
  s: StoreSession,
  roomId: string,
  dates: string[],
  startTime: string,
  endTime: string,
  exceptSlot?: string,
): Promise<string | null> {
  const r = await s.client.query<{ date: string }>(
    `SELECT date FROM timeslot_guard
      WHERE room_id = $1 AND date = ANY($2::date[]) AND start_min < $4 AND $3 < end_min
        AND ($5::uuid IS NULL OR time_slot_id <> $5::uuid)
      ORDER BY date LIMIT 1`,
    [roomId, dates, minutesOf(startTime), minutesOf(endTime), exceptSlot ?? null],
  );
  return r.rows[0]?.date ?? null;
}

const overlapping = (date: string) =>
  new Problem(409, 'timeslot__overlapping', 'A time slot already exists within those times', [
    date,
  ]);

export function timeSlotCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock } = deps;

  async function executeSlot(
    user: SessionUser | undefined,
    command: SlotCommand,
    before?: (s: StoreSession, state: SlotState) => Promise<void>,
  ) {
    const { position } = await store.transaction(async (s) => {
      await lockRoom(s, command.data.roomId);
      const state = await loadSlot(s, command.data.timeSlotId);
      const events = decideSlot(command, state, clock.now());
      if (events.length === 0) return;
      if (before) await before(s, state);
      await s.append(
        [
          {
            streamId: timeSlotStreamId(command.data.timeSlotId),
            streamType: 'timeslot',
            expectedVersion: state.version,
            events,
          },
        ],
        { metadata: { actor: actorOf(user) } },
      );
    });
    return token(position);
  }

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
        409: { description: 'timeslot__overlapping; payload[0] is the first clashing date' },
      },
      handler: async ({ params, body, user }) => {
        const roomId = params.id;
        const { result, position } = await store.transaction(async (s) => {
          await lockRoom(s, roomId);
          const holidays = await holidayDatesBetween(
            s.client,
            body.startDate,
            body.repeatUntil ?? body.startDate,
          );
          // At most one more date than allowed: enough to refuse a series that is too long.
          const dates = slotDates(
            { ...body, repeatUntil: body.repeatUntil ?? undefined },
            (d) => holidays.has(d),
            MAX_SLOTS_PER_REQUEST,
          );
          if (dates.length > MAX_SLOTS_PER_REQUEST) {
            throw problems.validation([
              {
                field: 'repeatUntil',
                rule: 'too_big',
                message: `At most ${MAX_SLOTS_PER_REQUEST} time slots at once`,
              },
            ]);
          }
          if (dates.length === 0) return 0;
          const clash = await firstOverlap(s, roomId, dates, body.startTime, body.endTime);
          if (clash) throw overlapping(clash);
          const slots = dates.map((date) => ({
            timeSlotId: randomUUID(),
            roomId,
            date,
            startTime: body.startTime,
            endTime: body.endTime,
            capacity: body.capacity,
          }));
          await s.client.query(
            `INSERT INTO timeslot_guard (time_slot_id, room_id, date, start_min, end_min)
             SELECT id, $2, d, $4, $5 FROM unnest($1::uuid[], $3::date[]) AS t(id, d)`,
            [
              slots.map((x) => x.timeSlotId),
              roomId,
              dates,
              minutesOf(body.startTime),
              minutesOf(body.endTime),
            ],
          );
          const requests: AppendRequest[] = slots.map((slot) => ({
            streamId: timeSlotStreamId(slot.timeSlotId),
            streamType: 'timeslot',
            expectedVersion: 'no_stream',
            events: [TimeSlotCreated.create(slot)],
          }));
          await s.append(requests, { metadata: { actor: actorOf(user) } });
          return slots.length;
        });
        return { status: 201, body: { createdTimeSlots: result, position: token(position) } };
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
        200: { description: 'Updated', schema: z.object({ position: z.string() }) },
        404: { description: 'No such slot' },
        409: { description: 'timeslot__overlapping' },
      },
      handler: async ({ params, body, user }) => {
        const command: SlotCommand = {
          type: 'UpdateTimeSlot',
          data: { timeSlotId: params.timeSlotId, roomId: params.id, ...body },
        };
        const position = await executeSlot(user, command, async (s, state) => {
          const clash = await firstOverlap(
            s,
            params.id,
            [state.date],
            body.startTime,
            body.endTime,
            params.timeSlotId,
          );
          if (clash) throw overlapping(clash);
          await s.client.query(
            'UPDATE timeslot_guard SET start_min = $2, end_min = $3 WHERE time_slot_id = $1',
            [params.timeSlotId, minutesOf(body.startTime), minutesOf(body.endTime)],
          );
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
        200: { description: 'Deleted', schema: z.object({ position: z.string() }) },
        404: { description: 'No such slot' },
        409: { description: 'timeslot__has_tickets' },
      },
      handler: async ({ params, user }) => {
        const position = await executeSlot(
          user,
          { type: 'DeleteTimeSlot', data: { timeSlotId: params.timeSlotId, roomId: params.id } },
          async (s) => {
            await s.client.query('DELETE FROM timeslot_guard WHERE time_slot_id = $1', [
              params.timeSlotId,
            ]);
          },
        );
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
        const { result, position } = await store.transaction(async (s) => {
          await lockRoom(s, params.id);
          const r = await s.client.query<{ id: string }>(
            'SELECT time_slot_id AS id FROM timeslot_guard WHERE room_id = $1 AND date BETWEEN $2 AND $3 ORDER BY date, start_min',
            [params.id, body.fromDate, body.untilDate],
          );
          const requests: AppendRequest[] = [];
          for (const { id } of r.rows) {
            const state = await loadSlot(s, id);
            const events = decideSlot(
              {
                type: 'ChangeCapacity',
                data: { timeSlotId: id, roomId: params.id, capacity: body.capacity },
              },
              state,
              clock.now(),
            );
            if (events.length)
              requests.push({
                streamId: timeSlotStreamId(id),
                streamType: 'timeslot',
                expectedVersion: state.version,
                events,
              });
          }
          if (requests.length) await s.append(requests, { metadata: { actor: actorOf(user) } });
          return requests.length;
        });
        return { body: { updatedTimeSlots: result, position: token(position) } };
      },
    }),
  ];
}
