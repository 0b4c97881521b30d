import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- When an entry's address was erased (WaitlistEntryErased, the day after the slot's day):
      -- the staff's line keeps the entry; the read model records that nothing personal is left.
      ALTER TABLE rm_waitlist ADD COLUMN erased_at timestamptz;
    `);
}
