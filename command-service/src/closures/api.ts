import { ClosureInput } from '@rr/contracts';
import { defineRoute, fromContract, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { closeRooms } from './stream.ts';

const ClosureBody = fromContract(ClosureInput).openapi('ClosureInput');

/** Closures of rooms for days (docs/product.md#closures). */
export function closureCommandRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/admin/closures',
      summary:
        'Close the time slots of some rooms (all when roomIds is left out) for a date range with a reason; with cancelBookings their booked tickets are cancelled, the mails stating the reason',
      tags: ['closures'],
      access: ['admin'],
      // Her rooms only; "all rooms" (roomIds left out) are all rooms of her sites.
      sites: { body: { roomIds: 'room' }, leftOutFilters: true },
      body: ClosureBody,
      responses: {
        200: {
          description: 'Closed (slots closed already are left as they are and not counted)',
          schema: z
            .object({ closedSlots: z.number(), cancelledTickets: z.number(), position: z.string() })
            .openapi('ClosureResult'),
        },
        400: {
          description:
            'validation__error: the range is longer than CLOSURE_MAX_DAYS, ends before it starts, the reason is empty or a room is unknown',
        },
      },
      handler: async ({ body, user, sites }) => ({
        body: await closeRooms(deps, actorOf(user), body, sites),
      }),
    }),
  ];
}
