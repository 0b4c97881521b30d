import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The seat a ticket was moved to in its slot (TicketSeatChanged: staff at the desk, its
      -- visitor, or its seat taken out of service), kept beside the log so that a booking's mails
      -- and the reminder's push name the seat the ticket holds now, not the one its cart took
      -- (they name the tickets as the cart's stream has them). Null: never moved; the seat it was
      -- held with (TicketHeld) is its seat. Nullable columns: no rewrite of the table, and the
      -- previous release, which does not know them, works beside them during a rolling upgrade
      -- (a seat change it writes meanwhile is not kept here: that ticket's later mails name the
      -- seat its cart took, as before). Filled in from the log's seat changes.
      ALTER TABLE ticket_state ADD COLUMN IF NOT EXISTS moved_seat_id uuid;
      ALTER TABLE ticket_state ADD COLUMN IF NOT EXISTS moved_seat_label text;
      UPDATE ticket_state t SET moved_seat_id = (m.seat->>'seatId')::uuid,
                                moved_seat_label = m.seat->>'label'
        FROM (SELECT DISTINCT ON (data->>'ticketId') (data->>'ticketId')::uuid AS ticket_id,
                     data->'seat' AS seat
                FROM events WHERE event_type = 'TicketSeatChanged'
               ORDER BY data->>'ticketId', stream_version DESC) m
       WHERE t.ticket_id = m.ticket_id;
    `);
}
