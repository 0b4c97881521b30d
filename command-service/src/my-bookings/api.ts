import { MyBookingsLinkInput } from '@rr/contracts';
import { defineRoute, fromContract, myBookingsTokenParam, z, type RouteDef } from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { CancelledAnswer, TicketIdsQuery } from '../booking/api.ts';
import { cancelMyBookingsTickets, requestMyBookingsLink } from './requests.ts';

const LinkBody = fromContract(MyBookingsLinkInput).openapi('MyBookingsLinkInput');
const MyBookingsToken = z.object({ token: myBookingsTokenParam });

/** The visitor's "my bookings" routes: ask for the link by mail, cancel from its page. */
export function myBookingsCommandRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/my-bookings/link',
      summary:
        'Mail a link to every booking of an address from today on (valid 24 hours); the same answer for every address',
      tags: ['visitor'],
      access: 'public',
      body: LinkBody,
      responses: {
        202: { description: 'Accepted: a mail goes to the address', schema: z.object({}) },
        400: { description: 'validation__error' },
        429: { description: 'http__too_many_requests (per client and per address)' },
      },
      handler: async ({ body }) => {
        await requestMyBookingsLink(deps, body);
        return { status: 202, body: {} };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/my-bookings/{token}/tickets',
      summary:
        "Cancel booked tickets of the link's address (only tickets whose slot has not started)",
      tags: ['visitor'],
      access: 'public',
      params: MyBookingsToken,
      query: TicketIdsQuery,
      responses: {
        200: {
          description: 'Cancelled',
          schema: CancelledAnswer,
        },
        404: { description: 'Unknown, altered or expired link, or a ticket not of its address' },
        409: { description: 'ticket__not_cancelable' },
      },
      malformedPathNotFound: 'Link',
      handler: async ({ params, query }) => {
        const { answer, position } = await cancelMyBookingsTickets(deps, params.token, query.ids);
        return { body: { cancelled: answer, position } };
      },
    }),
  ];
}
