import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The reservations list sorted by name walks personal data in name order and joins each
      -- owner's tickets; the tickets without personal data (no owner, or erased) sort first as ''
      -- and are found by this flag (set by the tickets projection on PersonalDataErased).
      ALTER TABLE rm_tickets ADD COLUMN personal_data_erased boolean NOT NULL DEFAULT false;
      UPDATE rm_tickets t SET personal_data_erased = true
       WHERE t.owner_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = t.owner_id);
      CREATE INDEX rm_tickets_without_personal_data ON rm_tickets (status, date, start_time, id)
        WHERE owner_id IS NULL OR personal_data_erased;
      CREATE INDEX rm_tickets_status ON rm_tickets (status);
      CREATE INDEX personal_data_name ON personal_data
        (lower(coalesce(last_name, '')), lower(coalesce(first_name, '')))
        INCLUDE (owner_id, last_name, first_name);
      CREATE INDEX rm_tickets_owner_order ON rm_tickets (owner_id, status, date, start_time, id);
      -- The list's search (ILIKE '%term%' over names, organisation, e-mail): a trigram index on
      -- one text holding all of them, where pg_trgm can be had; without it the search still works.
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE INDEX personal_data_search ON personal_data USING gin ((
            coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' ||
            coalesce(organisation, '') || ' ' || coalesce(email, '') || ' ' ||
            coalesce(last_name, '') || ', ' || coalesce(first_name, '')) gin_trgm_ops);
        END IF;
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm not installed: the reservations search runs without its index';
      END $$;
    `);
}
