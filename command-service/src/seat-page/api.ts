import { SeatCheckInInput, WalkInInput } from '@rr/contracts';
import { UNDO_CHECK_IN_MINUTES } from '@rr/domain';
import { defineRoute, fromContract, Problem, z, type RouteDef } from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { checkInAtSeat } from './check-in.ts';
import { walkIn } from './walk-in.ts';

const SeatParams = z.object({
  roomId: z.uuid('Not a valid id'),
  seatId: z.uuid('Not a valid id'),
});

const SeatCheckInBody = fromContract(SeatCheckInInput).openapi('SeatCheckInInput');
const WalkInBody = fromContract(WalkInInput).openapi('WalkInInput');

const SeatCheckInResult = z
  .object({
    ticketId: z.uuid(),
    status: z.enum(['NEW', 'BOOKED', 'INVALID', 'CANCELLED']),
    checkedInAt: z.string().nullable(),
    undoMinutes: z.number().int().openapi({ description: 'How long a check-in can be undone' }),
    position: z.string(),
  })
  .openapi('SeatCheckInResult');

const WalkInResult = z
  .object({
    ownerId: z.string().openapi({ description: "The booking's owner link id (its page)" }),
    bookingNumber: z.string(),
    ticketId: z.uuid(),
    checkedInAt: z.string().nullable(),
    seat: z.object({ id: z.uuid(), label: z.string() }).nullable(),
    position: z.string(),
  })
  .openapi('WalkInResult');

const checkInRefusals = {
  400: { description: 'validation__error' },
  404: { description: 'No booking with this number and address' },
  409: {
    description:
      "check_in__other_seat (payload: 'seat', the label of the seat the booking holds), check_in__no_ticket_here (no booked ticket of the booking in this room today), check_in__not_offered, check_in__not_open (payload: 'window', opens, closes), check_in__already_checked_in, check_in__not_checked_in, check_in__undo_expired",
  },
  429: { description: 'http__too_many_requests (counted with the owner-id lookups)' },
};

/** The visitor's commands at a seat, reached by the seat's QR code (docs/product.md#at-the-seat). */
export function seatPageCommandRoutes(deps: CommandDeps): RouteDef[] {
  const checkIn =
    (type: 'CheckIn' | 'UndoCheckIn') =>
    async ({
      params,
      body,
    }: {
      params: z.output<typeof SeatParams>;
      body: z.output<typeof SeatCheckInBody>;
    }) => {
      const answer = await checkInAtSeat(deps, params, body, type);
      return { body: { ...answer, undoMinutes: UNDO_CHECK_IN_MINUTES } };
    };
  return [
    defineRoute({
      method: 'post',
      path: '/rooms/{roomId}/seats/{seatId}/check-in',
      summary:
        "Check in at the seat with the booking's number and e-mail address (the desk's window)",
      tags: ['visitor'],
      access: 'public',
      params: SeatParams,
      body: SeatCheckInBody,
      responses: {
        200: { description: 'Checked in', schema: SeatCheckInResult },
        ...checkInRefusals,
      },
      handler: checkIn('CheckIn'),
    }),
    defineRoute({
      method: 'post',
      path: '/rooms/{roomId}/seats/{seatId}/check-in/undo',
      summary: `Undo a check-in at the seat (within ${UNDO_CHECK_IN_MINUTES} minutes of it)`,
      tags: ['visitor'],
      access: 'public',
      params: SeatParams,
      body: SeatCheckInBody,
      responses: {
        200: { description: 'Undone', schema: SeatCheckInResult },
        ...checkInRefusals,
      },
      handler: checkIn('UndoCheckIn'),
    }),
    defineRoute({
      method: 'post',
      path: '/rooms/{roomId}/seats/{seatId}/walk-in',
      summary:
        'Book the free seat at once for the rest of the slot under way (walk-in; every rule of a booking; human check when configured)',
      tags: ['visitor'],
      access: 'public',
      params: SeatParams,
      query: z.object({ 'g-recaptcha-response': z.string().max(4000).optional() }),
      body: WalkInBody,
      responses: {
        201: {
          description: 'Booked (and checked in in a room with check-in)',
          schema: WalkInResult,
        },
        400: { description: 'validation__error, recaptcha__validation_error' },
        403: {
          description:
            'booking__email_blacklisted, booking__no_show_blocked, booking__email_domain_not_allowed, booking__sign_in_required, booking__affiliation_not_allowed',
        },
        404: { description: 'No such slot in the room, or no such seat on its plan' },
        409: {
          description:
            'walk_in__not_under_way (the slot has not started or has ended), seat__taken, ticket__validation_error (the per-visitor limits, timeslot_not_open, timeslot_no_tickets_left)',
        },
        429: { description: 'http__too_many_requests (counted with new carts)' },
      },
      handler: async ({ params, body, query, req }) => {
        if (!(await deps.verifyHuman(query['g-recaptcha-response'])))
          throw new Problem(400, 'recaptcha__validation_error', 'The human check failed');
        return { status: 201, body: await walkIn(deps, params, body, req.signedInVisitor ?? null) };
      },
    }),
  ];
}
