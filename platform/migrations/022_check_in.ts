import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Check-in and no-show release on the tickets read model (the tickets
      -- projection moves them by TicketCheckedIn, TicketCheckInUndone and TicketNoShowReleased;
      -- no such event existed before this migration, so no backfill): when the reader was
      -- checked in (null: not), and whether the ticket was released as a no-show (its status is
      -- then INVALID) and when.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS checked_in_at timestamptz;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS no_show boolean NOT NULL DEFAULT false;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS released_at timestamptz;
      -- The no-show counts of a visitor (the reservations list) and of the reports.
      CREATE INDEX IF NOT EXISTS rm_tickets_no_show ON rm_tickets (owner_id) WHERE no_show;
      CREATE INDEX IF NOT EXISTS bookings_visitor_key ON bookings (visitor_key);
    `);
}
