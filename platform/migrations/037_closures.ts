import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A closed slot (TimeSlotClosed) keeps its row: staff see it with the closure's reason, the
      -- visitor calendar and the seat rule leave it out. Null: open.
      ALTER TABLE rm_time_slots ADD COLUMN IF NOT EXISTS closed_reason text;
      -- Staff's reason of a cancellation (TicketCancelled.reason) or of a closure, which the
      -- cancellation mail and the waitlist's closure mail state. Null: none given.
      ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS reason text;
    `);
}
