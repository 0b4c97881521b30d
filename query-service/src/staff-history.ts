import { defineRoute, problems, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/** The audit history of a ticket and of a time slot, from the event log. */

const HistoryEntry = z
  .object({
    at: z.string(),
    event: z.string(),
    what: z.string(),
    actor: z.object({
      kind: z.string(),
      username: z.string().optional(),
      job: z.string().optional(),
    }),
  })
  .openapi('HistoryEntry');

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
    default:
      return type;
  }
}

export function historyRoutes({ pool }: QueryDeps) {
  async function history(streamFilter: string, args: unknown[]) {
    const r = await pool.query<{
      event_type: string;
      data: Record<string, unknown>;
      metadata: { actor: { kind: string; username?: string; job?: string } };
      created_at: Date;
    }>(
      `SELECT event_type, data, metadata, created_at FROM events WHERE ${streamFilter} ORDER BY transaction_id, global_position`,
      args,
    );
    return r.rows.map((e) => ({
      at: e.created_at.toISOString(),
      event: e.event_type,
      what: describe(e.event_type, e.data),
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
        return {
          body: await history(
            `(stream_id = $1 AND data->>'ticketId' = $3) OR (stream_id = $2 AND ((event_type = 'OwnerDataChanged' AND data->>'ticketId' = $3) OR event_type = 'PersonalDataErased'))`,
            [`timeslot-${row.time_slot_id}`, `transaction-${row.transaction_id}`, params.id],
          ),
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
        body: await history(
          `stream_id = $1 AND (data->>'roomId' IS NULL OR data->>'roomId' = $2)`,
          [`timeslot-${params.timeSlotId}`, params.id],
        ),
      }),
    }),
  } satisfies Record<string, RouteDef>;
}
