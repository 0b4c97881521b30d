import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Where an account signs in: its own password (local) or the campus identity (LDAP, OpenID
      -- Connect, SAML). An account of the campus identity has no password here: its roles are
      -- set from its groups at every sign-in (platform/src/staff-sso.ts).
      ALTER TABLE admin_users
        ADD COLUMN source text NOT NULL DEFAULT 'local'
          CHECK (source IN ('local', 'ldap', 'oidc', 'saml')),
        ADD COLUMN last_sign_in_at timestamptz,
        ALTER COLUMN password_hash DROP NOT NULL,
        ADD CONSTRAINT admin_users_local_has_password
          CHECK (source <> 'local' OR password_hash IS NOT NULL);
      -- Every staff sign-in and every refused one: how, which account (as given), when, and why
      -- a refusal was one. Never a password or a token. Times come from the clock.
      CREATE TABLE staff_sign_ins (
        id       bigserial PRIMARY KEY,
        at       timestamptz NOT NULL,
        method   text NOT NULL CHECK (method IN ('local', 'ldap', 'oidc', 'saml')),
        username text NOT NULL,
        outcome  text NOT NULL CHECK (outcome IN ('signed-in', 'refused')),
        reason   text
      );
      CREATE INDEX staff_sign_ins_at ON staff_sign_ins (at DESC);
    `);
}
