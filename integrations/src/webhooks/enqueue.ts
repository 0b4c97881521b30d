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
 * The endpoints of `e` that take events of type `$1` recorded at `$2`: subscribed to the type,
 * enabled, and existing then.
 */
const TAKING = `$1 = ANY(e.event_types) AND e.disabled_at IS NULL AND e.created_at <= $2`;

/**
 * Whether any endpoint takes `type` as recorded by `event` (its sites aside). A handler asks
 * before it looks up a payload, so a library with no endpoint for it (most have none) pays one
 * look-up of the small endpoints table per event, not the payload's reads of the log.
 */
export async function anyEndpointTakes(
  client: PoolClient,
  event: RecordedEvent,
  type: WebhookEventType,
): Promise<boolean> {
  const r = await client.query(`SELECT 1 FROM webhook_endpoints e WHERE ${TAKING} LIMIT 1`, [
    type,
    event.createdAt,
  ]);
  return r.rows.length > 0;
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
     SELECT 'msg_' || left(encode(sha256(convert_to(e.id::text || ':' || $3, 'UTF8')), 'hex'), 32),
            e.id, $1, $4, $2, $2
       FROM webhook_endpoints e
      WHERE ${TAKING}
        AND (cardinality(e.site_ids) = 0
             OR e.site_ids && (ARRAY(SELECT site_id FROM webhook_rooms WHERE room_id = ANY($5::uuid[]))
                               || $6::uuid[]))
     ON CONFLICT (id) DO NOTHING`,
    [type, event.createdAt, event.eventId, payload, roomIds, about.siteIds ?? []],
  );
}
