import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The reservations list sorted by name reads the tickets without personal data in date
      -- order from this index, up to its page's end. A list of some rooms (a site's, or one room)
      -- checks each ticket's room: with the room in the index, from the index alone, so the
      -- planner reads this index instead of the date index, which passes every other ticket of
      -- the days before (60 ms against under 1 ms for a site's first page, 168,000 tickets).
      -- Built beside the old one (writes to the table wait, reads go on), which is dropped last:
      -- reads wait only for the drop and the commit.
      CREATE INDEX rm_tickets_without_personal_data_next
        ON rm_tickets (status, date, start_time, id) INCLUDE (room_id)
        WHERE owner_id IS NULL OR personal_data_erased;
      DROP INDEX rm_tickets_without_personal_data;
      ALTER INDEX rm_tickets_without_personal_data_next RENAME TO rm_tickets_without_personal_data;
    `);
}
