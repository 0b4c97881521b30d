import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Staff lifting a no-show block (docs/product.md#no-show-rule): per key of an address the
      -- last release day the lift covers, who lifted it and when. The releases themselves are no
      -- stream of their own (visitor_no_shows follows TicketNoShowReleased), so the lift is kept
      -- beside them as a row with its actor. Erased with the releases it covers: once they are
      -- gone, the row says nothing more. The previous release neither reads nor writes it.
      CREATE TABLE IF NOT EXISTS visitor_no_show_lifts (
        visitor_key    text PRIMARY KEY,
        lifted_through date NOT NULL,
        actor          jsonb NOT NULL,
        lifted_at      timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS visitor_no_show_lifts_through ON visitor_no_show_lifts (lifted_through);
    `);
}
