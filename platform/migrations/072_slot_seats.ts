import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The seats of the room's plan staff chose a slot to offer (TimeSlotSeatsChosen,
      -- docs/product.md#seat-plans): their ids separated by commas (a plain column, so the
      -- timeslots projection's batch writer unnests it as any other). Null: every seat in service.
      ALTER TABLE rm_time_slots ADD COLUMN IF NOT EXISTS seat_ids text;
  `);
}
