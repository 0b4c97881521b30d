import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { PUSH_SUBSCRIPTIONS_PER_OWNER, type PushSubscriptionInput } from '@rr/contracts';
import { inTransaction, Problem, problems, type Clock, type Config } from '@rr/platform';
import { checkOutboundUrl, type OutboundPolicy, type Resolver } from '../outbound-address.ts';

/*
 * The browsers a booking's owner allowed to show its reminders as notifications
 * (docs/product.md#reminders): kept beside the booking's personal data and erased with it.
 */

/** Where push may go (WEB_PUSH_ALLOW_HTTP, WEB_PUSH_ALLOWED_HOSTS): the webhooks' address rule. */
export const pushPolicyOf = (
  config: Pick<Config, 'WEB_PUSH_ALLOW_HTTP' | 'WEB_PUSH_ALLOWED_HOSTS'>,
): OutboundPolicy => ({
  allowHttp: config.WEB_PUSH_ALLOW_HTTP,
  allowedHosts: config.WEB_PUSH_ALLOWED_HOSTS,
});

const refused = (reason: string, detail: string) =>
  new Problem(400, 'push__endpoint_refused', 'Notifications cannot be sent to this endpoint', [
    reason,
    detail,
  ]);

export interface PushSubscriptionStoreOptions {
  pool: pg.Pool;
  clock: Clock;
  policy: OutboundPolicy;
  /** Whether the server sends push (its VAPID keys configured); without, nothing is kept. */
  enabled: boolean;
  /** The resolver of the endpoint check (the system's by default). */
  resolve?: Resolver;
}

export class PushSubscriptionStore {
  constructor(private readonly o: PushSubscriptionStoreOptions) {}

  /**
   * Keeps a browser's subscription for the owner (the same endpoint again takes its new keys).
   * Refused: an endpoint push would never be sent to (400 push__endpoint_refused), an owner
   * without personal data (404: unknown or erased), more than PUSH_SUBSCRIPTIONS_PER_OWNER
   * (409 push__subscriptions_limit). The owner's personal data is locked until the commit, so an
   * erasure running meanwhile deletes the subscription with it. Without push configured: 404.
   */
  async subscribe(ownerId: string, input: PushSubscriptionInput): Promise<void> {
    if (!this.o.enabled) throw problems.notFound('Web push');
    const check = await checkOutboundUrl(input.endpoint, this.o.policy, this.o.resolve);
    if (!check.ok) throw refused(check.reason, check.detail);
    await inTransaction(this.o.pool, async (client) => {
      const owner = await client.query(
        'SELECT 1 FROM personal_data WHERE owner_id = $1 FOR SHARE',
        [ownerId],
      );
      if (!owner.rowCount) throw problems.notFound('Booking');
      const existing = await client.query<{ endpoint: string }>(
        'SELECT endpoint FROM push_subscriptions WHERE owner_id = $1 FOR UPDATE',
        [ownerId],
      );
      const known = existing.rows.some((r) => r.endpoint === input.endpoint);
      if (!known && existing.rows.length >= PUSH_SUBSCRIPTIONS_PER_OWNER)
        throw new Problem(
          409,
          'push__subscriptions_limit',
          `At most ${PUSH_SUBSCRIPTIONS_PER_OWNER} devices get notifications`,
          [String(PUSH_SUBSCRIPTIONS_PER_OWNER)],
        );
      await client.query(
        `INSERT INTO push_subscriptions (id, owner_id, endpoint, p256dh, auth, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (owner_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth`,
        [
          randomUUID(),
          ownerId,
          input.endpoint,
          input.keys.p256dh,
          input.keys.auth,
          this.o.clock.now(),
        ],
      );
    });
  }

  /** Ends a subscription of the owner; false when there is none of that endpoint. */
  async unsubscribe(ownerId: string, endpoint: string): Promise<boolean> {
    const r = await this.o.pool.query(
      'DELETE FROM push_subscriptions WHERE owner_id = $1 AND endpoint = $2',
      [ownerId, endpoint],
    );
    return (r.rowCount ?? 0) > 0;
  }
}

/**
 * Erases an owner's subscriptions (and their notifications not yet sent), in the erasure's
 * transaction of the owner's personal data.
 */
export async function erasePushSubscriptionsOf(
  client: pg.ClientBase,
  ownerId: string,
): Promise<number> {
  const r = await client.query('DELETE FROM push_subscriptions WHERE owner_id = $1', [ownerId]);
  return r.rowCount ?? 0;
}

/** Forgets a subscription the push service no longer knows (404, 410): its browser ended it. */
export async function forgetPushSubscription(pool: pg.Pool, id: string): Promise<void> {
  await pool.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}

/**
 * Enqueues the push notifications of due reminders: `dueSql` selects (owner_id, date, ticket_ids)
 * of the reminders due now (the reminder job's rule, see projections/src/mail/reminders.ts), one
 * row per subscription of their owners, each once (the id names the reminder and subscription).
 */
export async function enqueueReminderPushes(
  pool: pg.Pool,
  dueSql: string,
  params: unknown[],
  now: Date,
): Promise<number> {
  const r = await pool.query(
    `WITH due AS (${dueSql})
     INSERT INTO push_deliveries (id, subscription_id, owner_id, ticket_ids, created_at, next_attempt_at)
     SELECT 'reminder:' || d.owner_id || ':' || d.date || ':' || s.id, s.id, d.owner_id, d.ticket_ids,
            $${params.length + 1}::timestamptz, $${params.length + 1}::timestamptz
       FROM due d JOIN push_subscriptions s ON s.owner_id = d.owner_id
     ON CONFLICT (id) DO NOTHING`,
    [...params, now],
  );
  return r.rowCount ?? 0;
}
