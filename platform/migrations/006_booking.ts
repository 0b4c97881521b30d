import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Write side: one row per booking (order); owner ids are 128-bit random and go in mail links.
      CREATE TABLE bookings (
        owner_id       text PRIMARY KEY,
        transaction_id uuid NOT NULL UNIQUE,
        visitor_key    text NOT NULL,
        booking_number text NOT NULL UNIQUE,
        language       text NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now()
      );
      -- Write side: personal data, never in events or logs; deleted the day after the booked day.
      CREATE TABLE personal_data (
        owner_id      text PRIMARY KEY REFERENCES bookings(owner_id) ON DELETE CASCADE,
        salutation    text NOT NULL,
        title         text,
        first_name    text NOT NULL,
        last_name     text NOT NULL,
        organisation  text,
        email         text NOT NULL,
        phone         text,
        accessibility boolean NOT NULL DEFAULT false,
        erase_after   date NOT NULL
      );
      CREATE INDEX personal_data_erase_after ON personal_data (erase_after);
      CREATE TABLE rm_transactions (
        id         uuid PRIMARY KEY,
        status     text NOT NULL,
        expires_at timestamptz,
        owner_id   text,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX rm_transactions_open ON rm_transactions (expires_at) WHERE status = 'NEW';
      CREATE TABLE rm_tickets (
        id             uuid PRIMARY KEY,
        transaction_id uuid NOT NULL,
        owner_id       text,
        time_slot_id   uuid NOT NULL,
        room_id        uuid NOT NULL,
        date           date NOT NULL,
        start_time     text NOT NULL,
        end_time       text NOT NULL,
        status         text NOT NULL,
        booking_number text,
        created_at     timestamptz NOT NULL,
        booked_at      timestamptz,
        cancelled_at   timestamptz
      );
      CREATE INDEX rm_tickets_transaction ON rm_tickets (transaction_id);
      CREATE INDEX rm_tickets_owner ON rm_tickets (owner_id);
      CREATE INDEX rm_tickets_slot ON rm_tickets (time_slot_id);
      CREATE INDEX rm_tickets_room_date ON rm_tickets (room_id, date) WHERE status IN ('NEW', 'BOOKED');
    `);
}
