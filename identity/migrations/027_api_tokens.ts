import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- API tokens of machines (platform/src/api-tokens.ts): only the SHA-256 of the secret is
      -- kept, looked up by it. Every process reads this table on every bearer request, so a
      -- revocation holds everywhere at once. Times come from the clock (no defaults).
      CREATE TABLE api_tokens (
        id           uuid PRIMARY KEY,
        name         text NOT NULL,
        roles        text[] NOT NULL,
        secret_hash  bytea NOT NULL UNIQUE,
        created_by   text NOT NULL,
        created_at   timestamptz NOT NULL,
        expires_at   timestamptz,
        last_used_at timestamptz,
        revoked_at   timestamptz
      );
      -- Names of tokens in use are unique: the history and the list name a token by it.
      CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens (name) WHERE revoked_at IS NULL;
    `);
}
