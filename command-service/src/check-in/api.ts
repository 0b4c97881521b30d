import { Refused } from '@rr/domain';
import { CheckInCode } from '@rr/contracts';
import {
  CHECK_IN_ROLES,
  defineRoute,
  fromContract,
  problems,
  z,
  type RouteDef,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { runCheckInCommand, ticketsOfCode } from './check-in.ts';

const CheckInResult = z
  .object({
    ticketId: z.uuid(),
    status: z.enum(['NEW', 'BOOKED', 'INVALID', 'CANCELLED']),
    checkedInAt: z.string().nullable(),
    position: z.string(),
  })
  .openapi('CheckInResult');

const refusals = {
  404: { description: 'No such ticket' },
  409: {
    description:
      "ticket__not_booked (payload: the ticket's status: NEW, CANCELLED or INVALID), check_in__not_offered (the room has no check-in), check_in__not_open (payload: 'window', opens, closes, local), check_in__already_checked_in (payload: 'at', the check-in's instant), check_in__not_checked_in or check_in__undo_expired (payload: 'minutes', the undo time)",
  },
};

export function checkInCommandRoutes(deps: CommandDeps): RouteDef[] {
  const params = z.object({ id: z.uuid('Not a valid id') });
  return [
    defineRoute({
      method: 'post',
      path: '/admin/tickets/{id}/check-in',
      summary:
        "Check a booked ticket's reader in (rooms with check-in, from checkInMinutesBefore before the start until the release time)",
      tags: ['check-in'],
      access: CHECK_IN_ROLES,
      sites: { path: { id: 'ticket' } },
      params,
      responses: { 200: { description: 'Checked in', schema: CheckInResult }, ...refusals },
      handler: async ({ params, user }) => {
        const { answer, position } = await runCheckInCommand(
          deps,
          { type: 'CheckIn', data: { ticketId: params.id } },
          actorOf(user),
        );
        return { body: { ...answer, position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/tickets/{id}/check-in',
      summary: 'Undo a check-in (within UNDO_CHECK_IN_MINUTES, 10, of it)',
      tags: ['check-in'],
      access: CHECK_IN_ROLES,
      sites: { path: { id: 'ticket' } },
      params,
      responses: { 200: { description: 'Undone', schema: CheckInResult }, ...refusals },
      handler: async ({ params, user }) => {
        const { answer, position } = await runCheckInCommand(
          deps,
          { type: 'UndoCheckIn', data: { ticketId: params.id } },
          actorOf(user),
        );
        return { body: { ...answer, position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/check-in',
      summary:
        "Check in by a ticket's QR reference or by a booking number of today (its first ticket that can be checked in now)",
      tags: ['check-in'],
      access: CHECK_IN_ROLES,
      // A user whose roles are for some sites: a code of another site's rooms names nothing (404).
      sites: 'filter',
      body: z.object({ code: fromContract(CheckInCode) }),
      responses: {
        200: { description: 'Checked in', schema: CheckInResult },
        404: {
          description:
            'No ticket of this reference, nor a booked ticket of today with this booking number',
        },
        409: refusals[409],
      },
      handler: async ({ body, user, sites }) => {
        const tickets = await ticketsOfCode(deps, body.code, sites);
        if (!tickets.length) throw problems.notFound('Ticket');
        // A booking of two tickets today: the first that can be checked in now; else the first
        // ticket's refusal.
        let first: unknown = null;
        for (const t of tickets) {
          try {
            const { answer, position } = await runCheckInCommand(
              deps,
              { type: 'CheckIn', data: { ticketId: t.ticketId } },
              actorOf(user),
              t.timeSlotId,
            );
            return { body: { ...answer, position } };
          } catch (err) {
            if (!(err instanceof Refused)) throw err;
            first ??= err;
          }
        }
        throw first;
      },
    }),
  ];
}
