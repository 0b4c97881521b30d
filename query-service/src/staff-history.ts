import { timeSlotStreamId, transactionStreamId, type RecordedEvent } from '@rr/events';
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
    actor: z.object({
      kind: z.string(),
      username: z.string().optional(),
      job: z.string().optional(),
      tokenId: z.string().optional(),
      name: z.string().optional(),
    }),
  })
  .openapi('HistoryEntry');

/** An event's data as an object (every event's data is one). */
const dataOf = (e: RecordedEvent) => (e.data ?? {}) as Record<string, unknown>;

/** What an event means in a reservation's history. */
function describe(type: string, data: Record<string, unknown>): string {
  switch (type) {
    case 'TicketHeld':
      return 'held';
    case 'TicketHoldExtended':
      return 'hold-extended';
    case 'TicketReleased':
      return data.reason === 'expired' ? 'expired' : 'released';
    case 'TicketBooked':
      return 'booked';
    case 'TicketCancelled':
      return 'cancelled';
    case 'OwnerDataChanged':
      return 'owner-changed';
    case 'PersonalDataErased':
      return 'personal-data-erased';
    case 'TimeSlotCreated':
      return 'slot-created';
    case 'TimeSlotUpdated':
      return 'slot-changed';
    case 'TimeSlotCapacityChanged':
      return 'capacity-changed';
    case 'TimeSlotDeleted':
      return 'slot-deleted';
    case 'TimeSlotClosed':
      return 'slot-closed';
    default:
      return type;
  }
}

export function historyRoutes({ pool, store }: QueryDeps) {
  /** The events of the streams that `keep` selects, in commit order, as history entries. */
  async function history(streamIds: string[], keep: (e: RecordedEvent) => boolean) {
    const events = await store.readStreams(streamIds, pool);
    return events.filter(keep).map((e) => ({
      at: e.createdAt.toISOString(),
      event: e.type,
      what: describe(e.type, dataOf(e)),
      ...(typeof dataOf(e).reason === 'string' && e.type !== 'TicketReleased'
        ? { reason: dataOf(e).reason as string }
        : {}),
      actor: e.metadata.actor,
    }));
  }

  const staff = ['admin', 'reports'] as ('admin' | 'reports')[];
  return {
    ticket: defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}/history',
      summary: 'Audit history of a ticket from the event log: what happened, when, by whom',
      tags: ['staff'],
      access: staff,
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
          body: await history([slotStream, cartStream], (e) => {
            const ticketId = dataOf(e).ticketId;
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
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      responses: { 200: { description: 'History', schema: z.array(HistoryEntry) } },
      handler: async ({ params }) => ({
        body: await history([timeSlotStreamId(params.timeSlotId)], (e) => {
          const roomId = dataOf(e).roomId;
          return roomId == null || roomId === params.id;
        }),
      }),
    }),
  } satisfies Record<string, RouteDef>;
}
