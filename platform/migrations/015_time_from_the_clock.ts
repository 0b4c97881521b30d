import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Time has one source: the application's injected clock. An event's time and a mail's due
      -- time are written from it; a database default of now() let the database's time into
      -- comparisons with the clock (a mail enqueued at the database's time was not due for a
      -- clock behind it). Without the defaults, an insert that forgets the time fails at once.
      ALTER TABLE events ALTER COLUMN created_at DROP DEFAULT;
      ALTER TABLE mail_outbox ALTER COLUMN next_attempt_at DROP DEFAULT;
      ALTER TABLE mail_outbox ALTER COLUMN created_at DROP DEFAULT;
      ALTER TABLE bookings ALTER COLUMN created_at DROP DEFAULT;
      -- What keeps a default of now(): records of when something happened to the installation
      -- (schema_migrations.applied_at, projection_checkpoints.updated_at, admin_users.created_at,
      -- room_images.created_at). No rule reads them; tests/api/clock.int.test.ts holds the list.
    `);
}
