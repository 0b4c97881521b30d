import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      CREATE TABLE room_images (
        image_id     uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        content_type text NOT NULL,
        bytes        bytea NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX room_images_room ON room_images (room_id);
      CREATE TABLE rm_rooms (
        id                       uuid PRIMARY KEY,
        version                  bigint NOT NULL,
        name                     text NOT NULL,
        description              text NOT NULL,
        capacity                 integer NOT NULL,
        open_start_type          text NOT NULL,
        open_start_value         integer NOT NULL,
        open_end_type            text NOT NULL,
        open_end_value           integer NOT NULL,
        image_id                 uuid,
        image_alt                text,
        sort_order               integer NOT NULL,
        active_reservation_count integer NOT NULL DEFAULT 0,
        created_at               timestamptz NOT NULL
      );
      CREATE INDEX rm_rooms_order ON rm_rooms (sort_order, name);
    `);
}
