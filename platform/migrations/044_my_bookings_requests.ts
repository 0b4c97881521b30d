import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A visitor's request for the "my bookings" link (docs/product.md#my-bookings): the address
      -- the mail goes to and its key (the bookings' visitor key, which finds them), kept beside
      -- the log like the other personal data and deleted by the erasure once the link has
      -- expired. The link names the row's id with a MAC, never the address.
      CREATE TABLE IF NOT EXISTS my_bookings_requests (
        id          uuid PRIMARY KEY,
        email       text NOT NULL,
        visitor_key text NOT NULL,
        language    text NOT NULL,
        created_at  timestamptz NOT NULL,
        expires_at  timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS my_bookings_requests_expiry ON my_bookings_requests (expires_at);
    `);
}
