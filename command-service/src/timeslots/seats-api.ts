import { SlotSeatsInput, SlotsSeatsInput } from '@rr/contracts/seats';
import { defineRoute, fromContract, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { PositionOnly, RoomParams, SlotParams } from './api.ts';
import { runTimeSlotCommand } from './stream.ts';

// The seats a slot offers (docs/product.md#seat-plans, exam places): the contracts' rules.
const SeatsBody = fromContract(SlotSeatsInput).openapi('SlotSeatsInput');
const RangeSeatsBody = fromContract(SlotsSeatsInput).openapi('SlotsSeatsInput');
const seatsInUse = {
  description:
    "timeslot__seats_in_use: bookings or waitlist offers on seats no longer offered found no offered seat free; payload 'seats' and their labels",
};

export function slotSeatsCommandRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/seats',
      summary:
        "Choose the seats of the room's plan a time slot offers (null: every seat in service); tickets on seats no longer offered move to offered ones",
      tags: ['timeslots'],
      access: ['admin'],
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: SlotParams,
      body: SeatsBody,
      responses: {
        200: { description: 'Chosen', schema: PositionOnly },
        400: { description: 'validation__error: seatIds.N not a seat of the plan, or no plan' },
        404: { description: 'No such slot' },
        409: seatsInUse,
      },
      handler: async ({ params, body, user }) => {
        const { position } = await runTimeSlotCommand(deps, actorOf(user), {
          type: 'ChooseSlotSeats',
          data: { timeSlotId: params.timeSlotId, roomId: params.id, seatIds: body.seatIds },
        });
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{id}/timeslots/seats',
      summary: 'Choose the seats every time slot of the room in a date range offers',
      tags: ['timeslots'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
      params: RoomParams,
      body: RangeSeatsBody,
      responses: {
        200: {
          description: 'Chosen',
          schema: z
            .object({ updatedTimeSlots: z.number(), position: z.string() })
            .openapi('TimeSlotsSeatsChosen'),
        },
        400: { description: 'validation__error: seatIds.N not a seat of the plan, or no plan' },
        404: { description: 'No such room' },
        409: seatsInUse,
      },
      handler: async ({ params, body, user }) => {
        const { answer, position } = await runTimeSlotCommand(deps, actorOf(user), {
          type: 'ChooseSeatsOfSlots',
          data: { roomId: params.id, ...body },
        });
        return { body: { updatedTimeSlots: answer, position } };
      },
    }),
  ];
}
