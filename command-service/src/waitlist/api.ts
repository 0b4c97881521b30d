import { WaitlistInput } from '@rr/contracts';
import { defineRoute, fromContract, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { CartAnswer } from '../booking/cart-answer.ts';
import { waitlistCommands } from './commands.ts';

const WaitlistBody = fromContract(WaitlistInput).openapi('WaitlistInput');
const SlotParams = z.object({ timeSlotId: z.uuid('Not a valid id') });
const OutOfLine = z
  .object({ status: z.string(), position: z.string() })
  .openapi('WaitlistOutOfLine');

/** The visitor's waitlist routes (joining a full slot, following an offer's link). */
export function waitlistCommandRoutes(deps: CommandDeps): RouteDef[] {
  const waitlist = waitlistCommands(deps);
  return [
    defineRoute({
      method: 'post',
      path: '/timeslots/{timeSlotId}/waitlist',
      summary:
        "Join a full slot's waitlist (rooms with waitlistOfferMinutes only); blacklist and per-visitor limits as for a booking",
      tags: ['visitor'],
      access: 'public',
      params: SlotParams,
      body: WaitlistBody,
      responses: {
        201: {
          description: 'In line',
          schema: z
            .object({
              entryId: z.uuid(),
              positionInLine: z.number().int(),
              reference: z.string().openapi({
                description:
                  "The entry's secret reference: GET /waitlist/{reference} answers the place, DELETE leaves",
              }),
              position: z.string(),
            })
            .openapi('WaitlistEntryAnswer'),
        },
        400: { description: 'validation__error' },
        403: {
          description:
            'booking__email_blacklisted, booking__no_show_blocked, booking__email_domain_not_allowed, booking__sign_in_required, booking__affiliation_not_allowed',
        },
        404: { description: 'No such time slot' },
        409: {
          description:
            'waitlist__not_available, waitlist__seats_free (book instead), waitlist__already_joined (payload: the place in line while waiting), ticket__validation_error (per-visitor limits, timeslot_not_open)',
        },
      },
      handler: async ({ params, body, req }) => ({
        status: 201,
        body: await waitlist.join(params.timeSlotId, body, req.signedInVisitor ?? null),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/timeslots/{timeSlotId}/waitlist/offers/{offerId}',
      summary:
        "Follow a waitlist offer (its mail's link): the offered seat becomes the first ticket of a new cart",
      tags: ['visitor'],
      access: 'public',
      params: SlotParams.extend({
        offerId: z.string().regex(/^[0-9a-f]{32}$/, 'Not a valid id'),
      }),
      responses: {
        201: { description: 'Cart created', schema: CartAnswer },
        404: { description: 'No such slot or offer' },
        409: { description: 'waitlist__offer_not_valid (lapsed or taken already)' },
      },
      handler: async ({ params }) => ({
        status: 201,
        body: await waitlist.take(params.timeSlotId, params.offerId),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/waitlist/{reference}',
      summary:
        "Leave a waitlist by the entry's reference (its joining mail's link); leaving twice changes nothing",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ reference: z.string().min(1).max(100) }),
      responses: {
        200: { description: 'Out of line', schema: OutOfLine },
        404: { description: 'No such entry (or not a reference issued here; a damaged link too)' },
      },
      // A damaged link from a mail names no entry: 404, as for an unknown one.
      malformedPathNotFound: 'Waitlist entry',
      handler: async ({ params }) => ({ body: await waitlist.leave(params.reference) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/waitlist/{entryId}',
      summary: "Take an entry off a slot's waitlist: no offer reaches it any more",
      tags: ['timeslots'],
      access: ['admin'],
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: z.object({
        id: z.uuid('Not a valid id'),
        timeSlotId: z.uuid('Not a valid id'),
        entryId: z.uuid('Not a valid id'),
      }),
      responses: {
        200: { description: 'Out of line', schema: OutOfLine },
        404: { description: 'No such entry in this slot' },
      },
      handler: async ({ params, user }) => ({
        body: await waitlist.remove(actorOf(user), params.id, params.timeSlotId, params.entryId),
      }),
    }),
  ];
}
