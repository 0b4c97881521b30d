import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Failed sign-ins, counted per user name and client address ('account_address', subject a
      -- JSON array of both), per address ('address') and per user name ('account'), shared by
      -- every process (platform/src/sign-in-limit.ts decides; sign-in-limit-store.ts writes).
      -- Every time here is the application clock's, given as a parameter: no defaults. A row whose
      -- window has ended and whose delay has run out (expires_at) is deleted by later attempts.
      CREATE TABLE sign_in_failures (
        scope           text NOT NULL CHECK (scope IN ('account_address', 'address', 'account')),
        subject         text NOT NULL,
        failures        integer NOT NULL CHECK (failures >= 0),
        window_start    timestamptz NOT NULL,
        last_failure_at timestamptz NOT NULL,
        expires_at      timestamptz NOT NULL,
        PRIMARY KEY (scope, subject)
      );
      CREATE INDEX sign_in_failures_expiry ON sign_in_failures (expires_at);
    `);
}
