import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Subscribers (projections, the outbox reactor) are woken once per appending transaction:
      -- a statement trigger instead of a separate pg_notify round trip by the writer. Equal
      -- notifications of one transaction are delivered once, at commit.
      CREATE FUNCTION rr_events_appended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('rr_events', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_appended AFTER INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION rr_events_appended();
    `);
}
