import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A waiting entry the matcher passed over (WaitlistEntryPassedOver: the per-visitor limits
      -- bar it) until an offer or its return to the line (WaitlistEntryBackInLine): it keeps its
      -- place but claims no freed seat, and staff's line marks it. A constant default: no rewrite
      -- of the table, and the previous release, which does not know the column, works beside it.
      ALTER TABLE rm_waitlist ADD COLUMN IF NOT EXISTS passed_over boolean NOT NULL DEFAULT false;
    `);
}
