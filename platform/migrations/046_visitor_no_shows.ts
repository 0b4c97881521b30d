import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The no-show rule (docs/product.md#no-show-rule): each no-show release by the key of the
      -- booking's address and the slot's day, beside the log, written with TicketNoShowReleased
      -- (the inline projection of the command side). Personal data of its own: the erasure job
      -- deletes a row once the rule's window and block have passed. Filled here from the
      -- releases so far (the tickets read model flags them); the previous release does not know
      -- the table and writes nothing to it: the next release's projection of later releases does.
      CREATE TABLE IF NOT EXISTS visitor_no_shows (
        ticket_id   uuid PRIMARY KEY,
        visitor_key text NOT NULL,
        date        date NOT NULL
      );
      CREATE INDEX IF NOT EXISTS visitor_no_shows_key ON visitor_no_shows (visitor_key);
      CREATE INDEX IF NOT EXISTS visitor_no_shows_date ON visitor_no_shows (date);
      INSERT INTO visitor_no_shows (ticket_id, visitor_key, date)
      SELECT t.id, b.visitor_key, t.date FROM rm_tickets t JOIN bookings b ON b.owner_id = t.owner_id
       WHERE t.no_show
      ON CONFLICT (ticket_id) DO NOTHING;
    `);
}
