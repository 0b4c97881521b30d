import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Mails to send, enqueued by the outbox reactor in the same transaction as its checkpoint
      -- (so each booking or cancellation enqueues exactly once), sent and retried by the sender.
      CREATE TABLE mail_outbox (
        id              text PRIMARY KEY,
        kind            text NOT NULL,
        owner_id        text NOT NULL,
        ticket_ids      uuid[] NOT NULL DEFAULT '{}',
        status          text NOT NULL DEFAULT 'pending',
        attempts        integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error      text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        sent_at         timestamptz
      );
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
    `);
}
