import { defineRoute, messages, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { StaffBookingBody, StaffOwnerBody } from '../booking/owner.ts';
import { cancelStaffTickets } from '../booking/cancel.ts';
import { bookingCommands } from '../booking/book.ts';
import { changeOwnerData } from '../owner/stream.ts';
import { moveToSeat } from '../rooms/seat-moves.ts';

const Ids = z
  .string()
  .max(4000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.uuid('Not a valid id')).min(1, messages.required).max(100));

export function staffCommandRoutes(deps: CommandDeps): RouteDef[] {
  const bookings = bookingCommands(deps);

  return [
    defineRoute({
      method: 'put',
      path: '/admin/tickets/{id}/seat',
      summary:
        'Move a booked ticket to another seat of its slot (a room with a seat plan): the seat must be free',
      tags: ['staff'],
      access: ['admin', 'checkin'],
      sites: { path: { id: 'ticket' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      body: z
        .object({
          seatId: z.uuid('Not a valid id'),
          reason: z.string().trim().min(1).max(500).optional(),
        })
        .openapi('SeatMove'),
      responses: {
        200: {
          description: "Moved (or on that seat already): the ticket's seat",
          schema: z.object({
            seat: z.object({ id: z.uuid(), label: z.string() }).nullable(),
            position: z.string(),
          }),
        },
        404: { description: 'No such ticket, or no such seat on its room’s plan' },
        409: { description: 'seat__taken (held, booked or out of service), ticket__not_booked' },
      },
      handler: async ({ params, body, user }) => {
        const { answer, position } = await moveToSeat(deps, actorOf(user), {
          ticketId: params.id,
          wish: { seatId: body.seatId },
          reason: body.reason,
        });
        return { body: { seat: answer.seat, position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/tickets/{id}/owner',
      summary: "Change the owner data of a booked ticket's booking (audited as OwnerDataChanged)",
      tags: ['staff'],
      access: ['admin'],
      // The owner's data is the whole booking's: every room of its tickets must be of her sites.
      sites: { path: { id: 'reservation' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      body: StaffOwnerBody,
      responses: {
        200: { description: 'Changed', schema: z.object({ position: z.string() }) },
        404: { description: 'No such ticket' },
        409: { description: 'ticket__not_booked or personal_data__erased' },
      },
      handler: async ({ params, body, user }) => {
        const { position } = await changeOwnerData(deps, actorOf(user), params.id, body);
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/tickets',
      summary:
        'Cancel booked tickets (only cancelable ones: their slot has not started); the reason, if given, is stated in the cancellation mail',
      tags: ['staff'],
      access: ['admin'],
      sites: { query: { ids: 'ticket' } },
      query: z.object({ ids: Ids, reason: z.string().trim().min(1).max(500).optional() }),
      responses: {
        200: {
          description: 'Cancelled',
          schema: z.object({ cancelled: z.number(), position: z.string() }),
        },
        404: { description: 'Unknown ticket' },
        409: { description: 'ticket__not_cancelable' },
      },
      handler: async ({ query, user }) => {
        const { answer, position } = await cancelStaffTickets(
          deps,
          query.ids,
          actorOf(user),
          query.reason,
        );
        return { body: { cancelled: answer, position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/booking',
      summary:
        'Staff book a person into a slot: allowed beyond capacity (shows as overbooked), audited as done by the admin',
      tags: ['staff'],
      access: ['admin'],
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      body: StaffBookingBody,
      responses: {
        201: {
          description: 'Booked',
          schema: z
            .object({
              ownerId: z.string(),
              bookingNumber: z.string(),
              ticketId: z.uuid(),
              /**
               * A slot that has started, in a room with check-in: the reader is checked in with
               * the booking at this instant; null otherwise.
               */
              checkedInAt: z.string().nullable(),
              /** In a room with a seat plan, the seat booked; null: none (no seat was free). */
              seat: z.object({ id: z.uuid(), label: z.string() }).nullable(),
              position: z.string(),
            })
            .openapi('StaffBookingResult'),
        },
        404: { description: 'No such slot' },
        409: {
          description:
            'timeslot__overbooking_not_confirmed: the request said `confirmOverbooking: false` and the slot has no free seat (payload: `seats`, seats taken, capacity); ticket__validation_error (`timeslot_not_open`): staff closed the slot',
        },
      },
      handler: async ({ params, body, user }) => ({
        status: 201,
        body: await bookings.staffBook(
          actorOf(user),
          { roomId: params.id, timeSlotId: params.timeSlotId },
          body,
        ),
      }),
    }),
  ];
}
