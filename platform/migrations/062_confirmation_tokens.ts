import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Confirmed addresses (docs/product.md#confirmed-addresses): the confirmation mail's link
      -- carries a random token, the secret that proves the mailbox; only its SHA-256 is kept,
      -- one row per mail sent (every link sent works), by the owner it confirms. Written by the
      -- mail sender, read by the confirmation, deleted with the booking's personal data
      -- (platform/src/confirmation-tokens.ts). A new table: the previous release does not notice
      -- it.
      CREATE TABLE IF NOT EXISTS confirmation_tokens (
        token_hash  bytea PRIMARY KEY,
        owner_id    text NOT NULL,
        created_at  timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS confirmation_tokens_owner ON confirmation_tokens (owner_id);

      -- The owner's outbox rows, by an index instead of a scan of an outbox that is never
      -- emptied: the confirmation mails sent without a token
      -- (projections/src/mail/confirmation-links.ts) and the erasure's mail errors. Built in the
      -- migration's transaction: writes to mail_outbox (the mail reactor's, the sender's) wait
      -- while it builds; bookings never wait for them.
      CREATE INDEX IF NOT EXISTS mail_outbox_owner ON mail_outbox (owner_id);
    `);
}
