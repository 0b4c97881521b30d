import type { TimeSlotCommand } from '@rr/domain';
import { TimeSlotCapacityInput, TimeSlotInput, TimeSlotUpdateInput } from '@rr/contracts';
import { defineRoute, fromContract, z, type RouteDef, type SessionUser } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { runTimeSlotCommand } from './stream.ts';

// Time slots and multi capacity (docs/product.md#validation): the contracts' rules (shared with the browser).
export const SlotCreateBody = fromContract(TimeSlotInput).openapi('TimeSlotInput');
const SlotUpdateBody = fromContract(TimeSlotUpdateInput).openapi('TimeSlotUpdateInput');
const CapacityBody = fromContract(TimeSlotCapacityInput).openapi('TimeSlotCapacityInput');
export const RoomParams = z.object({ id: z.uuid('Not a valid id') });
export const SlotParams = z.object({
  id: z.uuid('Not a valid id'),
  timeSlotId: z.uuid('Not a valid id'),
});
export const PositionOnly = z.object({ position: z.string() });

export function timeSlotCommandRoutes(deps: CommandDeps): RouteDef[] {
  const execute = (user: SessionUser | undefined, command: TimeSlotCommand) =>
    runTimeSlotCommand(deps, actorOf(user), command);

  return [
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{id}/timeslots',
      summary:
        'Create time slots: one-off, or one per matching weekday up to repeatUntil (holidays skipped unless included)',
      tags: ['timeslots'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
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
        409: { description: 'timeslot__overlapping; the first clashing date in values.date' },
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
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
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
      summary: 'Delete a time slot (refused while it has tickets)',
      tags: ['timeslots'],
      access: ['admin'],
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: SlotParams,
      responses: {
        200: { description: 'Deleted', schema: PositionOnly },
        404: { description: 'No such slot' },
        409: {
          description:
            "timeslot__has_tickets; payload 'seats', the count, booked, held, the end of the last hold (empty without holds)",
        },
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
      sites: { path: { id: 'room' } },
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
