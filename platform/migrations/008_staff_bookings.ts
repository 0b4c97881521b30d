import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Staff may book a person without an e-mail address (a booking taken by phone): no mail then.
      ALTER TABLE personal_data ALTER COLUMN email DROP NOT NULL;
      ALTER TABLE personal_data ALTER COLUMN phone DROP NOT NULL;
      CREATE INDEX rm_tickets_date ON rm_tickets (date, start_time);
      CREATE INDEX rm_tickets_booking_number ON rm_tickets (booking_number);
    `);
}
