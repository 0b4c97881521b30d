import type { RecordedEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';

/**
 * The owner of a ticket's booking as the log stood before `event`, an event of the ticket's slot
 * stream (its seat change): its `TicketBooked`'s, read from the log so that a reactor depends on
 * no read model's progress. Null: the ticket was a cart's hold then, booked by nobody yet.
 */
export async function bookedOwnerBefore(
  client: PoolClient,
  event: RecordedEvent,
  ticketId: string,
): Promise<string | null> {
  const r = await client.query<{ owner_id: string }>(
    `SELECT data->>'ownerId' AS owner_id FROM events
      WHERE stream_id = $1 AND stream_version < $2 AND event_type = 'TicketBooked'
        AND data->>'ticketId' = $3
      LIMIT 1`,
    [event.streamId, event.streamVersion, ticketId],
  );
  return r.rows[0]?.owner_id ?? null;
}
