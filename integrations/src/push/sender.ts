import { randomUUID } from 'node:crypto';
import webpush from 'web-push';
import {
  startIntervalJob,
  type Clock,
  type IntervalJob,
  type Logger,
  type Pool,
  type WebPushSettings,
} from '@rr/platform';
import { checkOutboundUrl, type OutboundPolicy, type Resolver } from '../outbound-address.ts';
import { deadlineAfter, passing, post, STOPPED, type Outcome } from '../outbound-request.ts';
import { forgetPushSubscription } from './subscriptions.ts';

/** How long one attempt may take, address check to the answer's last byte. */
export const PUSH_TIMEOUT_MS = 10_000;
/** How long a claimed notification is its sender's: far longer than an attempt. */
export const PUSH_LEASE_MS = 2 * 60_000;
/** How long the push service keeps a notification for a browser that is offline (TTL). */
export const PUSH_TTL_SECONDS = 4 * 60 * 60;
/** Attempts of one notification at most; the delays before the 2nd, 3rd, …: growing. */
export const PUSH_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000];
export const PUSH_MAX_ATTEMPTS = PUSH_RETRY_DELAYS_MS.length + 1;
/** Notifications claimed per round. */
const BATCH = 20;

/** What a notification shows: its title, its text and the page a click opens. */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
}

/**
 * The text of a reminder's notification, composed at send time from the write side in the
 * booking's language (the projections' part, given by the server); null when nothing is left to
 * remind of (cancelled meanwhile): the notification is skipped.
 */
export type ComposePush = (reminder: {
  ownerId: string;
  ticketIds: string[];
}) => Promise<PushMessage | null>;

export interface PushSenderOptions {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  vapid: WebPushSettings;
  policy: OutboundPolicy;
  compose: ComposePush;
  intervalMs: number;
  resolve?: Resolver;
}

interface DueRow {
  id: string;
  subscription_id: string;
  owner_id: string;
  ticket_ids: string[];
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

const CLAIM = `
  UPDATE push_deliveries d SET leased_until = $2, lease_owner = $3
    FROM push_subscriptions s
   WHERE d.id IN (SELECT id FROM push_deliveries
                   WHERE status = 'pending' AND next_attempt_at <= $1
                     AND (leased_until IS NULL OR leased_until <= $1)
                   ORDER BY next_attempt_at, created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
     AND s.id = d.subscription_id
  RETURNING d.id, d.subscription_id, d.owner_id, d.ticket_ids, d.attempts, s.endpoint, s.p256dh, s.auth`;

/**
 * The push job: sends the due notifications of the push outbox outside any transaction (a
 * hanging push service holds no transaction and no pooled connection), encrypted to the
 * browser's keys (RFC 8291, aes128gcm) and signed with the VAPID key (RFC 8292) by `web-push`,
 * to the address checked before each attempt (the webhooks' rule: https, no internal address),
 * under one deadline. 404 or 410 from the push service ends the subscription (the browser gave
 * it up); other failures are tried again after growing delays, PUSH_MAX_ATTEMPTS times at most.
 */
export class PushSender {
  private job: IntervalJob | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly o: PushSenderOptions) {}

  start(): void {
    this.job = startIntervalJob('push', () => this.sendDue(), this.o.intervalMs, this.o.logger);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.job?.stop();
  }

  /** Sends what is due now (one batch after another); answers how many attempts it made. */
  async sendDue(): Promise<number> {
    let attempts = 0;
    while (!this.stopping.signal.aborted) {
      const lease = randomUUID();
      const now = this.o.clock.now();
      const claimed = await this.o.pool.query<DueRow>(CLAIM, [
        now,
        new Date(now.getTime() + PUSH_LEASE_MS),
        lease,
        BATCH,
      ]);
      // A notification whose attempt could not be recorded keeps its lease until it runs out,
      // then it is due again; the others of the batch go on.
      await Promise.all(
        claimed.rows.map((row) =>
          this.deliver(row, lease).catch((err: unknown) =>
            this.o.logger.warn({ push: row.id, err: String(err) }, 'push attempt not recorded'),
          ),
        ),
      );
      attempts += claimed.rows.length;
      if (claimed.rows.length < BATCH) break;
    }
    return attempts;
  }

  private async deliver(row: DueRow, lease: string): Promise<void> {
    const message = await this.o.compose({ ownerId: row.owner_id, ticketIds: row.ticket_ids });
    if (!message) {
      await this.finish(row, lease, 'skipped', null, null);
      return;
    }
    const outcome = await this.attempt(row, message).catch((err: unknown): Outcome => ({
      ok: false,
      status: null,
      error: String(err),
    }));
    if (!outcome.ok && outcome.error === STOPPED) {
      await this.o.pool.query(
        'UPDATE push_deliveries SET leased_until = NULL, lease_owner = NULL WHERE id = $1 AND lease_owner = $2',
        [row.id, lease],
      );
      return;
    }
    if (outcome.ok) {
      await this.finish(row, lease, 'sent', outcome.status, null);
      this.o.logger.info({ push: row.id, status: outcome.status }, 'push notification sent');
      return;
    }
    if (outcome.status === 404 || outcome.status === 410) {
      // The browser ended the subscription: forgotten, with its notifications.
      await forgetPushSubscription(this.o.pool, row.subscription_id);
      this.o.logger.info({ push: row.id, status: outcome.status }, 'push subscription gone');
      return;
    }
    const failures = row.attempts + 1;
    const delay = PUSH_RETRY_DELAYS_MS[failures - 1];
    if (delay === undefined) await this.finish(row, lease, 'failed', outcome.status, outcome.error);
    else
      await this.o.pool.query(
        `UPDATE push_deliveries SET attempts = attempts + 1, next_attempt_at = $3,
                last_status_code = $4, last_error = $5, leased_until = NULL, lease_owner = NULL
          WHERE id = $1 AND lease_owner = $2`,
        [
          row.id,
          lease,
          new Date(this.o.clock.now().getTime() + delay),
          outcome.status,
          outcome.error,
        ],
      );
    this.o.logger.warn(
      { push: row.id, attempts: failures, status: outcome.status, error: outcome.error },
      delay === undefined ? 'push not delivered; given up' : 'push not delivered; will retry',
    );
  }

  /** Records the end of a notification (sent, skipped or given up) while the lease is ours. */
  private async finish(
    row: DueRow,
    lease: string,
    status: 'sent' | 'skipped' | 'failed',
    code: number | null,
    error: string | null,
  ): Promise<void> {
    await this.o.pool.query(
      `UPDATE push_deliveries SET status = $3, attempts = attempts + $4, last_status_code = $5,
              last_error = $6, sent_at = CASE WHEN $3 = 'sent' THEN $7::timestamptz END,
              leased_until = NULL, lease_owner = NULL
        WHERE id = $1 AND lease_owner = $2`,
      [row.id, lease, status, status === 'skipped' ? 0 : 1, code, error, this.o.clock.now()],
    );
  }

  /** One attempt under one deadline, from the address check to the answer's last byte. */
  private async attempt(row: DueRow, message: PushMessage): Promise<Outcome> {
    const deadline = deadlineAfter(PUSH_TIMEOUT_MS, this.stopping.signal);
    try {
      const check = await Promise.race([
        checkOutboundUrl(row.endpoint, this.o.policy, this.o.resolve),
        passing(deadline.signal),
      ]);
      if ('error' in check) return check;
      if (!check.ok)
        return { ok: false, status: null, error: `refused (${check.reason}): ${check.detail}` };
      // web-push encrypts and signs; the request itself goes to the address checked (a DNS
      // answer changed since cannot rebind it), which sendNotification's own request cannot.
      // The VAPID token's expiry is the machine's time: the push service checks it by its own.
      const request = webpush.generateRequestDetails(
        { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
        JSON.stringify(message),
        {
          TTL: PUSH_TTL_SECONDS,
          urgency: 'high',
          vapidDetails: this.o.vapid,
        },
      );
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
      );
      headers['User-Agent'] = 'reading-room-reservations-push';
      return await post(
        check.url,
        check.addresses[0]!,
        headers,
        request.body ?? Buffer.alloc(0),
        deadline.signal,
      );
    } finally {
      deadline.clear();
    }
  }
}
