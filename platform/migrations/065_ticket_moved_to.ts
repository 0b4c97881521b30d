import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A rebooking's cancelled ticket names the ticket that took its place (TicketCancelled's
      -- movedTo), so the visitor's page and staff's lists say "moved to <slot>" rather than
      -- "cancelled" (docs/product.md#rebooking). A nullable column: no rewrite of the table, and
      -- the previous release, which does not know it, works beside it. Moves made before this
      -- release keep it empty until a rebuild fills it from their events.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS moved_to uuid;
    `);
}
