import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A transaction that has said it appends no events (rr.appends_nothing, set by
      -- NonAppenders.mark in events/src/non-appenders.ts) cannot append any: the gap-safe reads
      -- of the log may read past such a transaction while it is still open, so an event it wrote
      -- would be skipped by every subscriber. Checked in the statement trigger every append
      -- already fires (migration 010), so an append costs one setting's lookup more.
      CREATE OR REPLACE FUNCTION rr_events_appended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('rr.appends_nothing', true) = 'on' THEN
          RAISE EXCEPTION 'this transaction said it appends no events'
            USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        PERFORM pg_notify('rr_events', '');
        RETURN NULL;
      END $$;
    `);
}
