import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Which releases have run on this database (server/src/release.ts): every process records
      -- its version and commit when it starts, so an operator sees after an upgrade which
      -- releases still run, and after a restore which release wrote the backup. A new table
      -- only (an expansion): the previous release runs beside it during a rolling upgrade.
      -- Times come from the clock (no defaults).
      CREATE TABLE release_history (
        version          text NOT NULL,
        commit           text NOT NULL,
        first_started_at timestamptz NOT NULL,
        last_started_at  timestamptz NOT NULL,
        starts           bigint NOT NULL,
        PRIMARY KEY (version, commit)
      );
    `);
}
