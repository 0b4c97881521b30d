import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The waitlist. Beside the log, written in the transaction of each waitlist
      -- event: the entry's e-mail address (personal data, never in the events; erased the day
      -- after the slot's day) and its status and offer, which find the matcher's candidate slots
      -- and the offer mail's recipient. Decisions are made on the slot's stream only.
      CREATE TABLE waitlist_entries (
        entry_id         uuid PRIMARY KEY,
        time_slot_id     uuid NOT NULL,
        visitor_key      text NOT NULL,
        email            text,
        language         text NOT NULL,
        status           text NOT NULL DEFAULT 'waiting',
        offer_id         text UNIQUE,
        offer_expires_at timestamptz,
        erase_after      date NOT NULL
      );
      CREATE INDEX waitlist_entries_open ON waitlist_entries (time_slot_id)
        WHERE status IN ('waiting', 'offered');
      CREATE INDEX waitlist_entries_erase ON waitlist_entries (erase_after) WHERE email IS NOT NULL;

      -- The read model of staff's slot page: each slot's line, no personal data.
      CREATE TABLE rm_waitlist (
        entry_id         uuid PRIMARY KEY,
        time_slot_id     uuid NOT NULL,
        line_position    bigint NOT NULL,
        language         text NOT NULL,
        status           text NOT NULL,
        joined_at        timestamptz NOT NULL,
        offer_expires_at timestamptz,
        ticket_id        uuid
      );
      CREATE INDEX rm_waitlist_slot ON rm_waitlist (time_slot_id, line_position);
      CREATE INDEX rm_waitlist_ticket ON rm_waitlist (ticket_id) WHERE ticket_id IS NOT NULL;
    `);
}
