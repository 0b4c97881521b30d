import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Write side: what slot commands decide on inside their transaction (no overlaps per room and date).
      CREATE TABLE timeslot_guard (
        time_slot_id uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        start_min    integer NOT NULL,
        end_min      integer NOT NULL
      );
      CREATE INDEX timeslot_guard_room_date ON timeslot_guard (room_id, date);
      -- Write side: blacklisted addresses, kept out of the event log (events carry entry_key).
      CREATE TABLE blacklist_emails (
        entry_key text PRIMARY KEY,
        email     text NOT NULL UNIQUE
      );
      CREATE TABLE rm_time_slots (
        id           uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        start_time   text NOT NULL,
        end_time     text NOT NULL,
        capacity     integer NOT NULL,
        ticket_count integer NOT NULL DEFAULT 0,
        version      bigint NOT NULL
      );
      CREATE INDEX rm_time_slots_room_date ON rm_time_slots (room_id, date, start_time);
      CREATE INDEX rm_time_slots_date ON rm_time_slots (date, start_time);
      CREATE INDEX rm_time_slots_overbooked ON rm_time_slots (date, start_time) WHERE ticket_count > capacity;
      CREATE TABLE rm_holidays (
        id          uuid PRIMARY KEY,
        version     integer NOT NULL,
        name        text NOT NULL,
        description text,
        date        date NOT NULL
      );
      CREATE INDEX rm_holidays_date ON rm_holidays (date);
      CREATE TABLE rm_blacklist (
        entry_key   text PRIMARY KEY,
        expired_at  date NOT NULL,
        description text,
        version     bigint NOT NULL
      );
    `);
}
