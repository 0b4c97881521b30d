import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A room's images beside the log are of two kinds (docs/product.md#seat-plans): the room's
      -- own ('room') and its seat plan's ('seat-plan'), one of each per room. Every image stored
      -- before is the room's.
      ALTER TABLE room_images ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'room';

      -- The plan image the rooms read model knows: its id (the bytes' key in room_images and the
      -- version in its URL), its type and, when its bytes state them, its width and height.
      ALTER TABLE rm_rooms
        ADD COLUMN IF NOT EXISTS seat_plan_image_id uuid,
        ADD COLUMN IF NOT EXISTS seat_plan_image_type text,
        ADD COLUMN IF NOT EXISTS seat_plan_image_width integer,
        ADD COLUMN IF NOT EXISTS seat_plan_image_height integer;
  `);
}
