import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- SAML sign-ins (platform/src/saml-sign-in.ts). The IDs of the requests sent to the
      -- identity provider: a response must answer one of them (InResponseTo), once, in time;
      -- every process sees them, since the provider's answer may reach any. Times from the clock.
      CREATE TABLE saml_requests (
        id         text PRIMARY KEY,
        value      text NOT NULL,
        created_at timestamptz NOT NULL
      );
      -- The IDs of the assertions signed in with: each is used once, kept until it lapses.
      CREATE TABLE saml_assertions_used (
        id         text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX saml_assertions_used_expires ON saml_assertions_used (expires_at);
    `);
}
