import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The lists sorted by a name (visitors', rooms', holidays') sort in German order whatever
      -- the database's own collation, by the collation rr_names (platform/src/name-order.ts):
      -- ICU's de-AT, where "Öhlinger" comes with the O's and "Müller" beside "Muller" (a
      -- database made with C or C.UTF-8, as the embedded one on most machines, put umlauts after
      -- "Z"). On a PostgreSQL built without ICU it is the database's own collation, as before.
      DO $$
      BEGIN
        CREATE COLLATION IF NOT EXISTS rr_names (provider = icu, locale = 'de-AT');
      EXCEPTION WHEN OTHERS THEN
        EXECUTE format('CREATE COLLATION IF NOT EXISTS rr_names (provider = libc, locale = %L)',
                       (SELECT datcollate FROM pg_database WHERE datname = current_database()));
      END $$;
      -- The reservations list sorted by name walks personal data in this order. Built beside the
      -- old index (writes to the table wait, reads go on), which is dropped last.
      CREATE INDEX personal_data_name_next ON personal_data
        ((lower(coalesce(last_name, '')) COLLATE rr_names),
         (lower(coalesce(first_name, '')) COLLATE rr_names))
        INCLUDE (owner_id, last_name, first_name);
      DROP INDEX personal_data_name;
      ALTER INDEX personal_data_name_next RENAME TO personal_data_name;
    `);
}
