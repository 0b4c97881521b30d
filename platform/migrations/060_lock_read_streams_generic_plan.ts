import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- rr_lock_read_streams (migration 043) planned its read of the events on every call
      -- (force_custom_plan), so that no statistics could choose a scan of the whole log. With
      -- every join method but the nested loop and the sequential scan switched off for the
      -- function, the one plan left is the nested loop over the given ids with the primary key of
      -- events, whatever the statistics: it is planned once per connection and kept (about 60
      -- microseconds of PostgreSQL's time less per command that locks streams). Only the setting
      -- changes: same body, signature and result.
      ALTER FUNCTION rr_lock_read_streams(text[], bigint[])
        SET plan_cache_mode = force_generic_plan;
    `);
}
