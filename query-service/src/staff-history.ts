import {
  handlersFor,
  ignore,
  timeSlotStream,
  timeSlotStreamId,
  transactionStream,
  transactionStreamId,
  type RecordedEvent,
} from '@rr/events';
import type { HistoryWhat } from '@rr/contracts';
import { defineRoute, problems, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/**
 * The audit history of a ticket and of a time slot, from the event log. Read through the event
 * store (`readStreams`), so old event shapes are upcast (events/src/upcasting.ts) before they are
 * filtered and described, as every other reader of the log sees them; only the connection is the
 * query side's (a replica with READ_DATABASE_URL).
 */

const HistoryEntry = z
  .object({
    at: z.string(),
    event: z.string(),
    what: z.string(),
    reason: z
      .string()
      .optional()
      .openapi({ description: "Staff's reason of a cancellation or a closure" }),
    movedTo: z
      .object({ date: z.string(), startTime: z.string(), endTime: z.string() })
      .optional()
      .openapi({ description: "A rebooking (what 'moved'): the slot the ticket moved to" }),
    seat: z.string().optional().openapi({
      description:
        "The label of the seat of the room's plan the ticket took (what 'held') or was moved to (what 'seat-changed')",
    }),
    actor: z.object({
      kind: z.string(),
      username: z.string().optional(),
      job: z.string().optional(),
      tokenId: z.string().optional(),
      name: z.string().optional(),
    }),
  })
  .openapi('HistoryEntry');

/** What an event means in a reservation's history, and what the filters select it by. */
interface Facts {
  /** One of the history's words: the staff app has a label for each, never the event's name. */
  what: HistoryWhat;
  /** Staff's reason of a cancellation or a closure. */
  reason?: string | undefined;
  /** A rebooking: the ticket that took this one's place. */
  movedTo?: string | undefined;
  /** The seat of the room's plan a hold took or a seat change gave (its label). */
  seat?: string | undefined;
  ticketId?: string;
  roomId?: string;
}

const ticket =
  (what: HistoryWhat) =>
  (e: { data: { ticketId: string } }): Facts => ({ what, ticketId: e.data.ticketId });
const slot =
  (what: HistoryWhat) =>
  (e: { data: { roomId: string } }): Facts => ({ what, roomId: e.data.roomId });
const named = (what: HistoryWhat) => (): Facts => ({ what });

/** Every event of the streams a history reads, as the history says it (exported for its test). */
export const historyFacts = handlersFor(timeSlotStream, transactionStream).with<void, Facts>({
  TimeSlotCreated: slot('slot-created'),
  TimeSlotUpdated: slot('slot-changed'),
  TimeSlotCapacityChanged: slot('capacity-changed'),
  TimeSlotSeatsChosen: slot('seats-chosen'),
  TimeSlotDeleted: slot('slot-deleted'),
  TimeSlotClosed: (e) => ({ ...slot('slot-closed')(e), reason: e.data.reason }),
  TicketHeld: (e) => ({ ...ticket('held')(e), seat: e.data.seat?.label }),
  TicketHoldExtended: ticket('hold-extended'),
  TicketReleased: (e) => ticket(e.data.reason === 'expired' ? 'expired' : 'released')(e),
  TicketBooked: ticket('booked'),
  TicketCancelled: (e) =>
    e.data.movedTo
      ? { ...ticket('moved')(e), movedTo: e.data.movedTo }
      : { ...ticket('cancelled')(e), reason: e.data.reason },
  TicketCheckedIn: ticket('checked-in'),
  TicketCheckInUndone: ticket('check-in-undone'),
  TicketSeatChanged: (e) => ({
    ...ticket('seat-changed')(e),
    reason: e.data.reason,
    seat: e.data.seat.label,
  }),
  TicketNoShowReleased: ticket('no-show-released'),
  TicketConfirmed: ticket('confirmed'),
  TicketConfirmationLapsed: ticket('confirmation-lapsed'),
  WaitlistJoined: named('waitlist-joined'),
  SeatOffered: named('seat-offered'),
  SeatOfferLapsed: named('seat-offer-lapsed'),
  SeatOfferTaken: ticket('seat-offer-taken'),
  WaitlistEntryErased: named('waitlist-entry-erased'),
  WaitlistLeft: named('waitlist-left'),
  WaitlistEntryRemovedByStaff: named('waitlist-entry-removed'),
  WaitlistEntryPassedOver: named('waitlist-entry-passed-over'),
  WaitlistEntryBackInLine: named('waitlist-entry-back-in-line'),
  TransactionStarted: named('cart-started'),
  TicketAddedToTransaction: ticket('added-to-cart'),
  TicketRemovedFromTransaction: ticket('removed-from-cart'),
  TransactionTouched: named('cart-touched'),
  TransactionBooked: named('cart-booked'),
  TransactionRemoved: named('cart-removed'),
  TransactionExpired: named('cart-expired'),
  PersonalDataErased: named('personal-data-erased'),
  OwnerDataChanged: ticket('owner-changed'),
});

type Slot = { date: string; startTime: string; endTime: string };

/** The slot of each ticket a cart's stream added: where a rebooking moved a ticket to. */
const cartSlots = handlersFor(transactionStream).with<Map<string, Slot>>({
  TransactionStarted: ignore,
  TicketAddedToTransaction: ({ data: { ticketId, date, startTime, endTime } }, slots) =>
    void slots.set(ticketId, { date, startTime, endTime }),
  TicketRemovedFromTransaction: ignore,
  TransactionTouched: ignore,
  TransactionBooked: ignore,
  TransactionRemoved: ignore,
  TransactionExpired: ignore,
  PersonalDataErased: ignore,
  OwnerDataChanged: ignore,
});

export function historyRoutes({ pool, store }: QueryDeps) {
  /** The events of the streams that `keep` selects, in commit order, as history entries. */
  async function history(streamIds: string[], keep: (e: RecordedEvent, facts: Facts) => boolean) {
    const events = await store.readStreams(streamIds, pool);
    // The slots of the cart's tickets: where a rebooking moved a ticket to.
    const slots = new Map<string, Slot>();
    for (const e of events) cartSlots.handle(e, slots);
    return events.flatMap((e) => {
      const f = historyFacts.handle(e);
      if (!f || !keep(e, f)) return [];
      const { what, reason, seat } = f;
      const movedTo = f.movedTo === undefined ? undefined : slots.get(f.movedTo);
      return [
        {
          at: e.createdAt.toISOString(),
          event: e.type,
          what,
          ...(reason !== undefined ? { reason } : {}),
          ...(movedTo ? { movedTo } : {}),
          ...(seat !== undefined ? { seat } : {}),
          actor: e.metadata.actor,
        },
      ];
    });
  }

  const staff = ['admin', 'reports'] as ('admin' | 'reports')[];
  return {
    ticket: defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}/history',
      summary: 'Audit history of a ticket from the event log: what happened, when, by whom',
      tags: ['staff'],
      access: staff,
      sites: { path: { id: 'ticket' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'History', schema: z.array(HistoryEntry) },
        404: { description: 'No such ticket' },
      },
      handler: async ({ params }) => {
        const t = await pool.query<{
          transaction_id: string;
          time_slot_id: string;
          owner_id: string | null;
        }>('SELECT transaction_id, time_slot_id, owner_id FROM rm_tickets WHERE id = $1', [
          params.id,
        ]);
        const row = t.rows[0];
        if (!row) throw problems.notFound('Ticket');
        const slotStream = timeSlotStreamId(row.time_slot_id);
        const cartStream = transactionStreamId(row.transaction_id);
        return {
          body: await history([slotStream, cartStream], (e, { ticketId }) => {
            if (e.streamId === slotStream) return ticketId === params.id;
            return (
              (e.type === 'OwnerDataChanged' && ticketId === params.id) ||
              e.type === 'PersonalDataErased'
            );
          }),
        };
      },
    }),
    slot: defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/history',
      summary: 'Audit history of a time slot from the event log',
      tags: ['staff'],
      access: staff,
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      responses: { 200: { description: 'History', schema: z.array(HistoryEntry) } },
      handler: async ({ params }) => ({
        body: await history(
          [timeSlotStreamId(params.timeSlotId)],
          (_e, { roomId }) => roomId === undefined || roomId === params.id,
        ),
      }),
    }),
  } satisfies Record<string, RouteDef>;
}
