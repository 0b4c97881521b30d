import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The seat a booked ticket was moved to (TicketSeatChanged), for the wallet update of that
      -- move: the update waits until the read models show the ticket on it, as an update of a
      -- ticket's end waits until they show the end. Null: an update of a ticket's move to
      -- another slot or its end. A nullable column: no rewrite, and the previous release, which
      -- writes no seat changes' updates, works beside it during a rolling upgrade.
      ALTER TABLE wallet_updates ADD COLUMN IF NOT EXISTS seat_id uuid;
    `);
}
