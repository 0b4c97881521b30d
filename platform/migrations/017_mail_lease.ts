import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The sender no longer holds a row lock (and so a transaction id) while it talks to SMTP:
      -- the gap-safe projections wait behind the oldest open transaction, so a hung SMTP server
      -- froze every read model. A sender now claims a mail with a lease (one short statement,
      -- times from the clock), sends it outside any transaction and records the result only while
      -- it still owns the lease; a crashed sender's lease expires and the mail is tried again.
      ALTER TABLE mail_outbox ADD COLUMN leased_until timestamptz, ADD COLUMN lease_owner text;
      -- SMTP replies ("550 <address> ... rejected") kept recipients' addresses in last_error,
      -- even after the erasure: the errors of erased owners go, the others lose their addresses.
      UPDATE mail_outbox m SET last_error = NULL
       WHERE last_error IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = m.owner_id);
      UPDATE mail_outbox SET last_error = regexp_replace(last_error, '[^\\s<>()"'',;:]+@[^\\s<>()"'',;:]+', '<address>', 'g')
       WHERE last_error LIKE '%@%';
    `);
}
