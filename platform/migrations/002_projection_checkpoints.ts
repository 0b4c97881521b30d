import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      CREATE TABLE projection_checkpoints (
        name       text PRIMARY KEY,
        last_tx    xid8 NOT NULL DEFAULT '0',
        last_gp    bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `);
}
