import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A staff session carries the generation its account had at sign-in; every staff request
      -- compares it with this column (by the primary key), so a password change or "end
      -- sessions" (both raise it) refuses the sessions opened before in every process at once.
      -- Sessions opened before this column existed carry none and sign in again.
      ALTER TABLE admin_users ADD COLUMN session_generation integer NOT NULL DEFAULT 0;
    `);
}
