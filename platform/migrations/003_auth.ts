import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      CREATE TABLE admin_users (
        username      text PRIMARY KEY,
        password_hash text NOT NULL,
        roles         text[] NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE sessions (
        sid    varchar NOT NULL PRIMARY KEY,
        sess   json NOT NULL,
        expire timestamp(6) NOT NULL
      );
      CREATE INDEX sessions_expire ON sessions (expire);
      CREATE TABLE app_settings (
        key   text PRIMARY KEY,
        value text NOT NULL
      );
    `);
}
