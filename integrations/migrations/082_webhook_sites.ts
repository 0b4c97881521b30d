import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new columns with constant
// defaults: the previous release runs beside them during a rolling upgrade (its endpoints are
// for every site, its rooms of the first site until the reactor reads their next event).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The sites an endpoint gets the events of (docs/product.md#integrations); empty: every
      -- site, as every endpoint made before sites.
      ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS site_ids uuid[] NOT NULL DEFAULT '{}';
      -- The site of each room the webhook reactor knows, from the room's events (absent in an
      -- event: the first site), so the reactor tells an endpoint of some sites only their events.
      ALTER TABLE webhook_rooms ADD COLUMN IF NOT EXISTS site_id uuid NOT NULL
        DEFAULT '00000000-0000-4000-8000-000000000001';
      -- The rooms known before this release: their site as their newest details in the log name it.
      UPDATE webhook_rooms w
         SET site_id = coalesce(
               (SELECT (e.data->>'siteId')::uuid FROM events e
                 WHERE e.stream_id = 'room-' || w.room_id::text
                   AND e.event_type IN ('RoomCreated', 'RoomUpdated')
                 ORDER BY e.stream_version DESC LIMIT 1),
               '00000000-0000-4000-8000-000000000001')
       WHERE EXISTS (SELECT 1 FROM events e
                      WHERE e.stream_id = 'room-' || w.room_id::text
                        AND e.event_type IN ('RoomCreated', 'RoomUpdated')
                        AND e.data->>'siteId' IS NOT NULL);
    `);
}
