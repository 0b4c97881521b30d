import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Who checked a ticket's reader in (the staff user's or API token's name, from the actor
      -- of the check-in event), so the check-in screen can say when and by whom. The tickets
      -- projection moves it with checked_in_at; rows checked in before this migration take the
      -- actor of their latest check-in event from the log.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS checked_in_by text;
      UPDATE rm_tickets t
         SET checked_in_by = coalesce(e.metadata->'actor'->>'username',
                                      e.metadata->'actor'->>'name',
                                      e.metadata->'actor'->>'job',
                                      e.metadata->'actor'->>'kind')
        FROM (SELECT DISTINCT ON (data->>'ticketId') data->>'ticketId' AS ticket_id, metadata
                FROM events
               WHERE event_type = 'TicketCheckedIn'
               ORDER BY data->>'ticketId', global_position DESC) e
       WHERE t.checked_in_at IS NOT NULL AND t.id::text = e.ticket_id;
    `);
}
