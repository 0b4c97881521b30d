import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Webhook endpoints staff registered (platform/src/webhooks.ts). The signing secret is not
      -- stored: it is derived from the webhook signing key and secret_salt (new salt, new secret).
      -- failing_since is the first failed attempt since the last success; an endpoint failing for
      -- 24 hours is disabled (reason 'failing', the last answer as detail), staff may pause one
      -- (reason 'staff'). Times come from the clock (no defaults).
      CREATE TABLE webhook_endpoints (
        id              uuid PRIMARY KEY,
        url             text NOT NULL,
        event_types     text[] NOT NULL,
        description     text NOT NULL DEFAULT '',
        secret_salt     bytea NOT NULL,
        created_by      text NOT NULL,
        created_at      timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL,
        failing_since   timestamptz,
        disabled_at     timestamptz,
        disabled_reason text,
        disabled_detail text
      );
      -- The webhook outbox: one row per endpoint and event, written by the webhook reactor in the
      -- transaction of its checkpoint (projections/src/webhooks/reactor.ts), sent and retried by
      -- the delivery job under a lease like the mail outbox. The id is the webhook-id header,
      -- the same on every attempt; the payload is the exact body signed.
      CREATE TABLE webhook_deliveries (
        id               text PRIMARY KEY,
        endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_type       text NOT NULL,
        payload          text NOT NULL,
        status           text NOT NULL DEFAULT 'pending',
        attempts         integer NOT NULL DEFAULT 0,
        created_at       timestamptz NOT NULL,
        next_attempt_at  timestamptz NOT NULL,
        last_attempt_at  timestamptz,
        last_status_code integer,
        last_error       text,
        delivered_at     timestamptz,
        leased_until     timestamptz,
        lease_owner      text
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
      -- What the reactor knows of slots and rooms to describe an event (room, date, times, seats),
      -- folded from the log in its own transactions: the payloads never wait for the read models.
      CREATE TABLE webhook_slots (
        time_slot_id uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        date         text NOT NULL,
        start_time   text NOT NULL,
        end_time     text NOT NULL,
        capacity     integer NOT NULL,
        booked       integer NOT NULL DEFAULT 0
      );
      CREATE TABLE webhook_rooms (
        room_id uuid PRIMARY KEY,
        name    text NOT NULL
      );
    `);
}
