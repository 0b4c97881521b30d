import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Why a hold ended (TicketReleased's reason): the cart shows the holds a closure of their
      -- slot ended (docs/product.md#closures). A nullable column: no rewrite of the table, and the
      -- previous release, which does not know it, works beside it. Holds ended before this
      -- release keep it empty until a rebuild fills it from their events.
      ALTER TABLE rm_tickets ADD COLUMN IF NOT EXISTS release_reason text;
    `);
}
