import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The label of the seat a waitlist offer holds (docs/product.md#how-tickets-take-seats), as
      -- its SeatOffered event names it: the offer mail names the seat. Null: none (a room without
      -- a seat plan, an offer of an older release). Nullable: no rewrite of the table.
      ALTER TABLE waitlist_entries ADD COLUMN IF NOT EXISTS offer_seat_label text;
  `);
}
