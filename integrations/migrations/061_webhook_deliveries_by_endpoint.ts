import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new indexes: the previous release
// runs beside them during a rolling upgrade.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The delivery job serves the endpoints side by side (projections/src/webhooks/sender.ts):
      -- each claim reads every enabled endpoint's oldest due deliveries and its attempts under
      -- way. Both partial indexes hold the few rows that matter (pending ones; leased ones), so
      -- a claim reads a handful of rows per endpoint, never the backlog of an endpoint that is
      -- down nor the history of delivered ones.
      CREATE INDEX IF NOT EXISTS webhook_deliveries_pending_of_endpoint
        ON webhook_deliveries (endpoint_id, next_attempt_at, created_at) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS webhook_deliveries_leased_of_endpoint
        ON webhook_deliveries (endpoint_id) WHERE lease_owner IS NOT NULL;
    `);
}
