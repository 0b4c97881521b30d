import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only a new nullable column: the
// previous release runs beside it during a rolling upgrade, writes rows without it and reads the
// rows this release writes (their username is empty, as for a refusal of the provider).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A refused sign-in of a name no account has keeps no name, only a keyed hash of it
      -- (HMAC, platform/src/staff-sso.ts), which staff match against a name they type.
      ALTER TABLE staff_sign_ins ADD COLUMN IF NOT EXISTS username_key text;
      CREATE INDEX IF NOT EXISTS staff_sign_ins_username_key ON staff_sign_ins (username_key)
        WHERE username_key IS NOT NULL;
    `);
}
