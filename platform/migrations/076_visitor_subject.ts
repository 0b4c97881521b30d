import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- One person, one set of limits (docs/product.md#one-person-one-set-of-limits): a booking
      -- or a waitlist entry made while signed in with the campus identity counts for the keyed
      -- hash of the provider's subject (issuer and subject), not for its address's key. The key
      -- is no personal data (as visitor_key); the subject itself is the booking's personal data
      -- and goes with its row at the erasure. Empty for guests and for everything written before.
      ALTER TABLE bookings ADD COLUMN IF NOT EXISTS subject_key text;
      ALTER TABLE waitlist_entries ADD COLUMN IF NOT EXISTS subject_key text;
      ALTER TABLE personal_data ADD COLUMN IF NOT EXISTS subject text;
      -- What a booking's limits count by: the no-show rule's record and staff's no-show counts.
      CREATE INDEX IF NOT EXISTS bookings_limits_key ON bookings ((COALESCE(subject_key, visitor_key)));
  `);
}
