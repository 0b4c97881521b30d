import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The slots a visitor may see: with capacity and not closed. The occupancy display asks for
      -- each room's first such slot after today; over rm_time_slots_room_date that walk reads
      -- every slot of a room closed for the year (capacity 0) before it finds none, a second per
      -- request with a hundred such rooms. Over this partial index it is the index's first entry
      -- after today, or none at once. Only an index: a previous release runs unchanged beside it.
      CREATE INDEX IF NOT EXISTS rm_time_slots_open_room_date
        ON rm_time_slots (room_id, date, start_time)
        WHERE capacity > 0 AND closed_reason IS NULL;
    `);
}
