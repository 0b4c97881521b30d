import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
const NONE =
  '{"checkInMinutesBefore": null, "noShowReleaseMinutes": null, "waitlistOfferMinutes": null, "reminderHoursBefore": null}';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The reading-room services of each room (check-in, no-show release, waitlist,
      -- reminders), each null while off, as the room's last RoomServicesChanged names them: on
      -- the write side's room_state (commands decide on it) and on the rooms read model (jobs and
      -- the staff screens read it). Rooms without that event use none of them.
      ALTER TABLE room_state ADD COLUMN IF NOT EXISTS services jsonb NOT NULL DEFAULT '${NONE}'::jsonb;
      ALTER TABLE rm_rooms ADD COLUMN IF NOT EXISTS services jsonb NOT NULL DEFAULT '${NONE}'::jsonb;
      WITH last AS (
        SELECT DISTINCT ON (stream_id) substr(stream_id, 6)::uuid AS room_id, data - 'roomId' AS services
          FROM events WHERE stream_id ~ '^room-[0-9a-f-]{36}$' AND event_type = 'RoomServicesChanged'
         ORDER BY stream_id, stream_version DESC
      )
      UPDATE room_state r SET services = last.services FROM last WHERE r.room_id = last.room_id;
      UPDATE rm_rooms r SET services = s.services FROM room_state s WHERE s.room_id = r.id;
    `);
}
