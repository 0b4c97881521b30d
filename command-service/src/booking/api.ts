import { ConfirmationInput } from '@rr/contracts';
import { SeatWish, type SeatAttribute } from '@rr/contracts/seats';
import {
  defineRoute,
  fromContract,
  messages,
  ownerIdParam,
  Problem,
  z,
  type RouteDef,
} from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { CartAnswer, CartTicket } from './cart-answer.ts';
import { cartCommands } from './cart-commands.ts';
import { bookingCommands } from './book.ts';
import { cancelTickets } from './cancel.ts';
import { confirmBooking } from './confirm.ts';
import { moveTicket } from './move.ts';
import { moveToSeat } from '../rooms/seat-moves.ts';
import { VisitorOwnerBody } from './owner.ts';

/** The tickets a visitor cancels (`?ids=a,b`): one to 50 ids, as every cancelling link sends. */
export const TicketIdsQuery = z.object({
  ids: z
    .string()
    .max(2000)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.uuid('Not a valid id')).min(1, messages.required).max(50)),
});

/** What a visitor's cancellation answers. */
export const CancelledAnswer = z.object({ cancelled: z.number(), position: z.string() });

/**
 * A ticket wanted: the slot, and in a room with a seat plan the seat (`seatId`) or the
 * attributes any free seat must have (`seatAttributes`), not both (docs/product.md#seat-plans).
 */
const TicketCreation = z
  .object({ timeSlotId: z.uuid('Not a valid id') })
  .extend(fromContract(SeatWish).shape)
  .refine((b) => !(b.seatId && b.seatAttributes?.length), {
    path: ['seatAttributes'],
    message: 'Ask for a seat or for attributes, not both',
  })
  .openapi('TicketCreation');
const seatWishOf = (b: {
  seatId?: string | undefined;
  seatAttributes?: SeatAttribute[] | undefined;
}) =>
  b.seatId
    ? { seatId: b.seatId }
    : b.seatAttributes?.length
      ? { attributes: b.seatAttributes }
      : undefined;
/** A seat wanted in the ticket's own slot: the seat or the attributes (neither: any free seat). */
const SeatChange = fromContract(SeatWish)
  .refine((b) => !(b.seatId && b.seatAttributes?.length), {
    path: ['seatAttributes'],
    message: 'Ask for a seat or for attributes, not both',
  })
  .openapi('SeatChange');
const SeatChangedTicket = z
  .object({
    id: z.uuid(),
    timeSlotId: z.uuid(),
    seat: z.object({ id: z.uuid(), label: z.string() }).nullable(),
    position: z.string(),
  })
  .openapi('SeatChangedTicket');
/** The confirmation's body: the token of the mail's link; none (no body) is refused like a wrong one. */
const ConfirmationBody = fromContract(ConfirmationInput).optional().openapi('ConfirmationInput');
const TxParams = z.object({ transactionId: z.uuid('Not a valid id') });
const MovedTicket = CartTicket.extend({
  ownerId: z.string(),
  bookingNumber: z.string(),
  position: z.string(),
}).openapi('MovedTicket');

/** The visitor's routes: the cart, the booking, the cancellation link of the mail. */
export function bookingCommandRoutes(deps: CommandDeps): RouteDef[] {
  return [...cartRoutes(deps), ...ownerLinkRoutes(deps)];
}

/** The cart (transaction) from its first ticket to its booking with the owner data. */
function cartRoutes(deps: CommandDeps): RouteDef[] {
  const carts = cartCommands(deps);
  const bookings = bookingCommands(deps);

  return [
    defineRoute({
      method: 'post',
      path: '/transactions',
      summary: 'Create a reservation cart holding its first ticket (human check when configured)',
      tags: ['visitor'],
      access: 'public',
      query: z.object({ 'g-recaptcha-response': z.string().max(4000).optional() }),
      body: TicketCreation,
      responses: {
        201: { description: 'Cart created', schema: CartAnswer },
        409: { description: 'ticket__validation_error with the rule as payload' },
      },
      handler: async ({ body, query }) => {
        if (!(await deps.verifyHuman(query['g-recaptcha-response']))) {
          throw new Problem(400, 'recaptcha__validation_error', 'The human check failed');
        }
        return { status: 201, body: await carts.newCart(body.timeSlotId, seatWishOf(body)) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/transactions/{transactionId}/tickets',
      summary: 'Add a ticket (hold a seat) to the cart',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      body: TicketCreation,
      responses: {
        201: { description: 'Added', schema: CartAnswer },
        404: { description: 'No such cart' },
        409: { description: 'Refused: ticket__validation_error, transaction__expired' },
      },
      handler: async ({ params, body }) => ({
        status: 201,
        body: await carts.addTicket(params.transactionId, body.timeSlotId, seatWishOf(body)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/transactions/{transactionId}/tickets/{ticketId}',
      summary: 'Remove a ticket from the cart (frees its seat)',
      tags: ['visitor'],
      access: 'public',
      params: TxParams.extend({ ticketId: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'Removed', schema: CartAnswer },
        404: { description: 'No such cart or ticket' },
      },
      handler: async ({ params }) => ({
        body: await carts.removeTicket(params.transactionId, params.ticketId),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/transactions/{transactionId}/touch',
      summary: 'Keep the cart alive: its holds last another hold period',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      responses: {
        200: { description: 'Touched', schema: CartAnswer },
        409: { description: 'transaction__expired' },
      },
      handler: async ({ params }) => ({ body: await carts.touch(params.transactionId) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/transactions/{transactionId}',
      summary: 'Remove the cart and free every seat it holds (also the panic button)',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      responses: {
        200: { description: 'Removed', schema: z.object({ position: z.string() }) },
        404: { description: 'No such cart' },
      },
      handler: async ({ params }) => {
        const { position } = await carts.remove(params.transactionId);
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/transactions/{transactionId}/booking',
      summary:
        'Book the cart with the owner data; per-visitor limits and the blacklist are decided in the same transaction',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      body: VisitorOwnerBody,
      responses: {
        200: {
          description: 'Booked',
          schema: z
            .object({
              ownerId: z.string(),
              bookingNumber: z.string(),
              tickets: z.array(CartTicket),
              position: z.string(),
            })
            .openapi('BookingResult'),
        },
        400: { description: 'validation__error' },
        403: {
          description:
            'booking__email_blacklisted, booking__no_show_blocked, booking__email_domain_not_allowed, booking__sign_in_required, booking__affiliation_not_allowed',
        },
        409: { description: 'ticket__validation_error (per-visitor limits), transaction__expired' },
      },
      handler: async ({ params, body, req }) => ({
        body: await bookings.book(params.transactionId, body, req.signedInVisitor ?? null),
      }),
    }),
  ];
}

/** What the links of the booking's mails do with its tickets: cancel, confirm, move. */
function ownerLinkRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'delete',
      path: '/owners/{ownerId}/tickets',
      summary:
        'Cancel booked tickets of an owner (the link in the confirmation mail); only tickets whose slot has not started',
      tags: ['visitor'],
      access: 'public',
      params: z.object({ ownerId: ownerIdParam }),
      query: TicketIdsQuery,
      responses: {
        200: {
          description: 'Cancelled',
          schema: CancelledAnswer,
        },
        404: { description: 'Unknown or malformed owner id, or unknown ticket' },
        409: { description: 'ticket__not_cancelable' },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, query }) => {
        const { answer, position } = await cancelTickets(
          deps,
          new Map([[params.ownerId, query.ids]]),
          { kind: 'visitor' },
        );
        return { body: { cancelled: answer, position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/owners/{ownerId}/confirm',
      summary:
        "Confirm a booking's address with the token of the confirmation mail's link (the owner page, opened by that link, posts it; a GET never confirms, as mail scanners open links; the owner id alone never confirms): its tickets awaiting confirmation are booked for good; confirming twice changes nothing",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ ownerId: ownerIdParam }),
      body: ConfirmationBody,
      responses: {
        200: {
          description: 'Confirmed: how many tickets this request confirmed (0: confirmed already)',
          schema: z
            .object({ confirmed: z.number().int(), position: z.string() })
            .openapi('ConfirmedAnswer'),
        },
        403: {
          description:
            "booking__confirmation_link_invalid: no token, or not one of the owner's confirmation mails",
        },
        404: { description: 'Unknown or malformed owner id' },
        409: {
          description:
            'booking__confirmation_lapsed: not confirmed in time, its tickets were released',
        },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, body }) => {
        const { answer, position } = await confirmBooking(deps, params.ownerId, body?.token);
        return { body: { confirmed: answer, position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/owners/{ownerId}/tickets/{ticketId}/move',
      summary:
        'Move a booked ticket to another slot of its room with a free seat, in one step: the new ticket keeps the booking number; a refusal leaves the booking as it was',
      tags: ['visitor'],
      access: 'public',
      params: z.object({ ownerId: ownerIdParam, ticketId: z.uuid('Not a valid id') }),
      body: TicketCreation,
      responses: {
        200: { description: 'Moved: the new ticket', schema: MovedTicket },
        404: { description: 'Unknown or malformed owner id, unknown ticket or time slot' },
        409: {
          description:
            'ticket__validation_error with the slot rule (timeslot_no_tickets_left, timeslot_not_open for another room or outside the window, per-visitor limits), ticket__not_cancelable, booking__confirmation_lapsed',
        },
        403: {
          description:
            'booking__email_blacklisted, booking__no_show_blocked, booking__email_domain_not_allowed (the person rules of a booking)',
        },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, body }) => {
        const { answer, position } = await moveTicket(
          deps,
          params.ownerId,
          params.ticketId,
          body.timeSlotId,
          seatWishOf(body),
        );
        return { body: { ...answer, position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/owners/{ownerId}/tickets/{ticketId}/seat',
      summary:
        'Change the seat of a booked ticket keeping its slot (a room with a seat plan): that seat, or a free seat with the attributes (none asked for: any free seat); only while the ticket is cancelable',
      tags: ['visitor'],
      access: 'public',
      params: z.object({ ownerId: ownerIdParam, ticketId: z.uuid('Not a valid id') }),
      body: SeatChange,
      responses: {
        200: {
          description: 'Changed (or on that seat already): the ticket',
          schema: SeatChangedTicket,
        },
        404: {
          description:
            "Unknown or malformed owner id, unknown ticket or another owner's, no such seat on the room's plan (or no plan)",
        },
        409: {
          description:
            'seat__taken, seat__none_matching, ticket__validation_error (timeslot_no_tickets_left: no seat free), ticket__not_cancelable',
        },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, body }) => {
        const { answer, position } = await moveToSeat(
          deps,
          { kind: 'visitor' },
          { ticketId: params.ticketId, ownerId: params.ownerId, wish: seatWishOf(body) ?? {} },
        );
        return { body: { ...answer, position } };
      },
    }),
  ];
}
