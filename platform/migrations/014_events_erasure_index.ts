import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The only query by event type looks for erasures after the tickets projection's checkpoint
      -- (the reservations list). An index of every event's type cost each append an index entry
      -- per event; a partial index of the erasures, in commit order, serves that query alone.
      DROP INDEX events_type;
      CREATE INDEX events_erasures ON events (transaction_id, global_position)
        WHERE event_type = 'PersonalDataErased';
    `);
}
