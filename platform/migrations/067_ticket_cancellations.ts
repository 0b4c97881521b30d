import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Why a booked ticket was cancelled (the reservations list shows it): who cancelled
      -- ('visitor', 'library', 'closure' or 'moved'), the library's reason, and for a move the
      -- ticket that took its place. Nullable columns: no rewrite of the table, and the previous
      -- release, which does not know them, works beside it.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS cancelled_by text;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS cancel_reason text;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS moved_to uuid;

      -- The cancellations written before this release, read from their events as the tickets
      -- projection reads them (projections/src/tickets.ts), so a rebuild gives the same rows.
      UPDATE rm_tickets t
         SET cancelled_by = CASE
               WHEN e.data->>'movedTo' IS NOT NULL THEN 'moved'
               WHEN e.data->>'closureId' IS NOT NULL THEN 'closure'
               WHEN e.metadata->'actor'->>'kind' = 'visitor' THEN 'visitor'
               ELSE 'library'
             END,
             cancel_reason = e.data->>'reason',
             moved_to = (e.data->>'movedTo')::uuid
        FROM events e
       WHERE e.event_type = 'TicketCancelled'
         AND t.id = (e.data->>'ticketId')::uuid
         AND t.status = 'CANCELLED'
         AND t.cancelled_by IS NULL;

      -- A part of a booking number typed into the list's search (LIKE '%part%') finds its
      -- booking: a trigram index where pg_trgm is installed (migration 009), else without one.
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          CREATE INDEX IF NOT EXISTS rm_tickets_booking_number_search
              ON rm_tickets USING gin (booking_number gin_trgm_ops);
        END IF;
      END $$;
    `);
}
