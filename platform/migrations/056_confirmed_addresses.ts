import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Confirmed addresses (docs/product.md#confirmed-addresses). ticket_state keeps a booked
      -- ticket's confirmation deadline while it awaits its visitor's confirmation (TicketBooked
      -- with confirmBy; cleared by TicketConfirmed and TicketConfirmationLapsed): the release job
      -- finds the due ones by this partial index, never by a scan of every booked ticket.
      ALTER TABLE ticket_state ADD COLUMN IF NOT EXISTS confirm_by timestamptz;
      CREATE INDEX IF NOT EXISTS ticket_state_confirm_by ON ticket_state (confirm_by)
        WHERE status = 'BOOKED' AND confirm_by IS NOT NULL;

      -- The read model's side: the deadline while awaiting, when it was confirmed, and the flag of
      -- a ticket released unconfirmed (its status is then INVALID, released_at the release).
      -- Nullable columns and a constant default: no rewrite of the table, and the previous
      -- release, which does not know them, works beside them. No event carried a deadline before
      -- this release, so there is nothing to fill in.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS confirm_by timestamptz;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS confirmed_at timestamptz;
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS unconfirmed boolean NOT NULL DEFAULT false;
    `);
}
