import type { RecordedEvent } from '@rr/events';
import type { WebhookEventType } from '@rr/contracts';
import type { PoolClient } from '@rr/platform';

// The one place that decides which endpoints an event of the log goes to (the webhook reactor,
// reactor.ts, calls it for every event it tells): docs/product.md#integrations.

/** What an event is about: the rooms it names, and sites besides theirs (a room's former site). */
export interface About {
  roomIds: readonly (string | null | undefined)[];
  siteIds?: readonly string[];
}

/**
 * Writes one delivery per endpoint that takes `type`, is enabled, existed when the event was
 * recorded and gets the sites the event is about: every endpoint of all sites (no sites named),
 * one of some sites when a room of the event (its site as the reactor knows it) or a site named
 * besides is one of them (docs/product.md#integrations). An event whose rooms the reactor does
 * not know goes to the endpoints of all sites only. The body is fixed here, so every attempt
 * sends (and signs) the same bytes.
 */
export async function enqueue(
  client: PoolClient,
  event: RecordedEvent,
  type: WebhookEventType,
  data: Record<string, unknown>,
  about: About,
): Promise<void> {
  const payload = JSON.stringify({ type, timestamp: event.createdAt.toISOString(), data });
  const roomIds = [...new Set(about.roomIds.filter((id): id is string => !!id))];
  await client.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, payload, created_at, next_attempt_at)
     SELECT 'msg_' || left(encode(sha256(convert_to(e.id::text || ':' || $1, 'UTF8')), 'hex'), 32),
            e.id, $2, $3, $4, $4
       FROM webhook_endpoints e
      WHERE $2 = ANY(e.event_types) AND e.disabled_at IS NULL AND e.created_at <= $4
        AND (cardinality(e.site_ids) = 0
             OR e.site_ids && (ARRAY(SELECT site_id FROM webhook_rooms WHERE room_id = ANY($5::uuid[]))
                               || $6::uuid[]))
     ON CONFLICT (id) DO NOTHING`,
    [event.eventId, type, payload, event.createdAt, roomIds, about.siteIds ?? []],
  );
}
