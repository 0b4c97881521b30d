import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- How often a ticket changed its seat in its slot (TicketSeatChanged), kept beside the log
      -- so that the calendar entry a booking's mails and feed publish for it counts each change as
      -- a revision: a calendar then takes the new seat (its location) instead of keeping the
      -- entry it has. A default of 0 does not rewrite the table; the previous release, which does
      -- not know the column, works beside it during a rolling upgrade (a seat change it writes
      -- meanwhile is not counted: that entry's next revision comes with its next change).
      -- Filled in from the log's seat changes.
      ALTER TABLE ticket_state ADD COLUMN IF NOT EXISTS seat_changes integer NOT NULL DEFAULT 0;
      UPDATE ticket_state t SET seat_changes = m.n
        FROM (SELECT (data->>'ticketId')::uuid AS ticket_id, count(*)::int AS n
                FROM events WHERE event_type = 'TicketSeatChanged'
               GROUP BY data->>'ticketId') m
       WHERE t.ticket_id = m.ticket_id;
    `);
}
