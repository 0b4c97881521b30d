import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Each room's seat plan beside its state (docs/product.md#seat-plans): its seats and their
      -- out-of-service ranges, as the room's decider folds them. A room of the previous release has
      -- no plan: its default is empty, and a release that does not know the column ignores it.
      ALTER TABLE room_state
        ADD COLUMN IF NOT EXISTS seat_plan jsonb NOT NULL DEFAULT '{"seats": [], "outOfService": []}';

      -- The seat plans' read model (the rooms projection): a room's seats in the order staff set
      -- them, and the ranges of days seats are out of service.
      CREATE TABLE IF NOT EXISTS rm_seats (
        room_id    uuid NOT NULL,
        id         uuid NOT NULL,
        position   integer NOT NULL,
        label      text NOT NULL,
        zone       text,
        attributes text[] NOT NULL,
        notes      text,
        x          real NOT NULL,
        y          real NOT NULL,
        rotation   integer NOT NULL,
        PRIMARY KEY (room_id, id)
      );
      CREATE TABLE IF NOT EXISTS rm_seat_out_of_service (
        id        uuid PRIMARY KEY,
        room_id   uuid NOT NULL,
        seat_id   uuid NOT NULL,
        from_date date NOT NULL,
        until     date NOT NULL,
        reason    text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS rm_seat_out_of_service_room ON rm_seat_out_of_service (room_id, from_date);

      -- A ticket's seat of its room's plan (null: none). Nullable columns: no rewrite of the table.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS seat_id uuid;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS seat_label text;
      CREATE INDEX IF NOT EXISTS rm_tickets_slot_seat ON rm_tickets (time_slot_id, seat_id) WHERE seat_id IS NOT NULL;
      -- The seat a waitlist offer holds (null: none).
      ALTER TABLE rm_waitlist ADD COLUMN IF NOT EXISTS offer_seat_id uuid;
  `);
}
