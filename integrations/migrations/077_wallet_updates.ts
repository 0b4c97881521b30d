import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new tables: the previous release
// runs beside them during a rolling upgrade.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Apple Wallet passes a device registered for updates (integrations/src/wallet): the pass
      -- (its serial number, the first ticket of the move chain) with its owner and when it last
      -- changed (the web service's update tag and Last-Modified), and the devices' push tokens.
      -- Personal data of the booking: deleted with it by the erasure job; a registration also
      -- when the device unregisters or Apple's push service answers 410.
      CREATE TABLE wallet_apple_passes (
        serial     uuid PRIMARY KEY,
        owner_id   text NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX wallet_apple_passes_of_owner ON wallet_apple_passes (owner_id);
      CREATE TABLE wallet_apple_registrations (
        device_id    text NOT NULL,
        pass_type_id text NOT NULL,
        serial       uuid NOT NULL REFERENCES wallet_apple_passes(serial) ON DELETE CASCADE,
        push_token   text NOT NULL,
        created_at   timestamptz NOT NULL,
        PRIMARY KEY (device_id, pass_type_id, serial)
      );
      CREATE INDEX wallet_apple_registrations_of_serial ON wallet_apple_registrations (serial);
      -- Google Wallet objects whose save link was handed out: the ones an update is sent for.
      -- Erased with the booking's personal data.
      CREATE TABLE wallet_google_objects (
        serial     uuid PRIMARY KEY,
        owner_id   text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX wallet_google_objects_of_owner ON wallet_google_objects (owner_id);
      -- The wallet update outbox: one row per event that moved or ended a ticket of an owner with
      -- a registered pass or a handed-out Google object, written by the wallet reactor (on its own
      -- checkpoint, the id the event's) and sent and retried under a lease by the update job.
      CREATE TABLE wallet_updates (
        id               text PRIMARY KEY,
        owner_id         text NOT NULL,
        ticket_id        uuid NOT NULL,
        status           text NOT NULL DEFAULT 'pending',
        attempts         integer NOT NULL DEFAULT 0,
        created_at       timestamptz NOT NULL,
        next_attempt_at  timestamptz NOT NULL,
        last_error       text,
        done_at          timestamptz,
        leased_until     timestamptz,
        lease_owner      text
      );
      CREATE INDEX wallet_updates_due ON wallet_updates (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX wallet_updates_of_owner ON wallet_updates (owner_id);
    `);
}
