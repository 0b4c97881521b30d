import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new tables: the previous release
// runs beside them during a rolling upgrade.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The browsers a booking's owner allowed to show reminders as notifications
      -- (integrations/src/push): the push service's endpoint and the keys the payload is encrypted
      -- to. Personal data of the booking: deleted with it by the erasure job, and when the push
      -- service answers 404 or 410 (the browser ended the subscription).
      CREATE TABLE push_subscriptions (
        id         uuid PRIMARY KEY,
        owner_id   text NOT NULL,
        endpoint   text NOT NULL,
        p256dh     text NOT NULL,
        auth       text NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (owner_id, endpoint)
      );
      -- The push outbox: one row per reminder and subscription, written by the reminder job
      -- (projections/src/mail/reminders.ts) and sent and retried under a lease by the push job.
      -- The id names the reminder and the subscription: enqueued once. The notification's text
      -- is composed at send time from the write side (what is still booked), never stored.
      CREATE TABLE push_deliveries (
        id              text PRIMARY KEY,
        subscription_id uuid NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
        owner_id        text NOT NULL,
        ticket_ids      uuid[] NOT NULL,
        status          text NOT NULL DEFAULT 'pending',
        attempts        integer NOT NULL DEFAULT 0,
        created_at      timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        last_status_code integer,
        last_error      text,
        sent_at         timestamptz,
        leased_until    timestamptz,
        lease_owner     text
      );
      CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX push_deliveries_of_subscription ON push_deliveries (subscription_id);
    `);
}
