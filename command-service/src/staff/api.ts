import type { Actor } from '@rr/events';
import { decideReservation, emptyReservation, normalizeEmail, refuse, Refused } from '@rr/domain';
import { defineRoute, messages, Problem, problems, z, type RouteDef } from '@rr/platform';
import { actorOf, decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { StaffBookingBody, StaffOwnerBody } from '../booking/owner.ts';
import { cancelTickets } from '../booking/cancel.ts';
import { bookingCommands } from '../booking/book.ts';
import { lockAndLoadTransaction, lockCartAndSlots, reservationAppends } from '../booking/store.ts';

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

  /**
   * Staff change the owner data of a booked ticket's booking. ticket_state only finds the ticket's
   * cart; whether the ticket is booked and the data not erased is decided on the cart's and the
   * slot's streams. The personal data is changed beside the log; the log records the change
   * (OwnerDataChanged) without it.
   */
  async function changeOwnerData(
    ticketId: string,
    body: z.output<typeof StaffOwnerBody>,
    actor: Actor,
  ) {
    const t = await deps.pool.query<{ transaction_id: string }>(
      'SELECT transaction_id FROM ticket_state WHERE ticket_id = $1',
      [ticketId],
    );
    const transactionId = t.rows[0]?.transaction_id;
    if (!transactionId) throw refuse.notFound('Ticket');
    return handleCommand(deps.store, {
      actor,
      load: async (s) => {
        const cart = await lockAndLoadTransaction(s, transactionId);
        const slotIds = cart.tickets
          .filter((x) => x.ticketId === ticketId)
          .map((x) => x.timeSlotId);
        const slots = await lockCartAndSlots(s, null, slotIds);
        return { ...emptyReservation, cart, slots, transactionId, visitorKey: null };
      },
      decide: (state) =>
        decideReservation({ type: 'ChangeOwnerData', data: { ticketId } }, state, {
          ...decisionTime(deps),
          limits: deps.limits,
        }),
      appends: (decision, state) => reservationAppends(state, decision),
      record: async (s, _decision, state) => {
        const updated = await s.client.query(
          `UPDATE personal_data SET salutation = $2, title = $3, first_name = $4, last_name = $5, organisation = $6,
                  email = coalesce($7, email), phone = $8, accessibility = $9 WHERE owner_id = $1`,
          [
            state.cart.ownerId,
            body.salutation,
            body.title ?? null,
            body.firstName,
            body.lastName,
            body.organisation ?? null,
            body.email ? normalizeEmail(body.email) : null,
            body.phone ?? null,
            body.accessibility,
          ],
        );
        // Erased by the job meanwhile (its event is on the stream: the next try says so).
        if (!updated.rowCount)
          throw new Refused(
            'personal_data__erased',
            'The personal data of this booking was erased',
          );
      },
      answer: () => null,
    });
  }

  return [
    defineRoute({
      method: 'put',
      path: '/admin/tickets/{id}/owner',
      summary: "Change the owner data of a booked ticket's booking (audited as OwnerDataChanged)",
      tags: ['staff'],
      access: ['admin'],
      params: z.object({ id: z.uuid('Not a valid id') }),
      body: StaffOwnerBody,
      responses: {
        200: { description: 'Changed', schema: z.object({ position: z.string() }) },
        404: { description: 'No such ticket' },
        409: { description: 'ticket__not_booked or personal_data__erased' },
      },
      handler: async ({ params, body, user }) => {
        const { position } = await changeOwnerData(params.id, body, actorOf(user));
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/tickets',
      summary: 'Cancel booked tickets (only cancelable ones: their slot has not started)',
      tags: ['staff'],
      access: ['admin'],
      query: z.object({ ids: Ids }),
      responses: {
        200: {
          description: 'Cancelled',
          schema: z.object({ cancelled: z.number(), position: z.string() }),
        },
        404: { description: 'Unknown ticket' },
        409: { description: 'ticket__not_cancelable' },
      },
      handler: async ({ query, user }) => {
        // ticket_state only finds each ticket's owner; the decision is on the owners' streams.
        const r = await deps.pool.query<{ id: string; owner_id: string | null }>(
          'SELECT ticket_id AS id, owner_id FROM ticket_state WHERE ticket_id = ANY($1::uuid[])',
          [query.ids],
        );
        const byOwner = new Map<string, string[]>();
        for (const id of new Set(query.ids)) {
          const row = r.rows.find((x) => x.id === id);
          if (!row) throw problems.notFound('Ticket');
          if (!row.owner_id)
            throw new Problem(409, 'ticket__not_cancelable', 'The ticket is not booked');
          byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), id]);
        }
        const { answer, position } = await cancelTickets(deps, byOwner, actorOf(user));
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
              position: z.string(),
            })
            .openapi('StaffBookingResult'),
        },
        404: { description: 'No such slot' },
        409: {
          description:
            'timeslot__overbooking_not_confirmed: the request said `confirmOverbooking: false` and the slot has no free seat (payload: seats taken, capacity)',
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
