import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  startIntervalJob,
  type Clock,
  type IntervalJob,
  type Logger,
  type Pool,
} from '@rr/platform';
import { deadlineAfter, post, passing, STOPPED, type Outcome } from '../outbound-request.ts';
import { webhookSecret } from './endpoints.ts';
import { checkOutboundUrl, type OutboundPolicy, type Resolver } from '../outbound-address.ts';

/** How long one attempt may take, connection to the end of the answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a claimed delivery is its sender's: far longer than an attempt. */
export const WEBHOOK_LEASE_MS = 2 * 60_000;
/** Deliveries are retried until this long after their event; an endpoint failing this long is disabled. */
export const WEBHOOK_RETRY_MS = 24 * 60 * 60_000;

/**
 * The delays after the 1st, 2nd, … failed attempt: the first retry within a minute, then
 * growing, at most four hours apart, until WEBHOOK_RETRY_MS have passed since the event.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 60 * 60_000,
  4 * 60 * 60_000,
];

export const retryDelayMs = (failures: number): number =>
  WEBHOOK_RETRY_DELAYS_MS[Math.min(failures, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ??
  WEBHOOK_RETRY_DELAYS_MS[0]!;

export interface WebhookSenderOptions {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  policy: OutboundPolicy;
  signingKey: () => Promise<string>;
  intervalMs: number;
  /** Attempts under way at once in this process (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts under way at once to one endpoint, over every process that sends (WEBHOOK_CONCURRENCY_PER_ENDPOINT). */
  concurrencyPerEndpoint: number;
  resolve?: Resolver;
  leaseMs?: number;
}

interface DueRow {
  id: string;
  endpoint_id: string;
  payload: string;
  attempts: number;
  created_at: Date;
  url: string;
  secret_salt: Buffer;
}

/**
 * Claims due deliveries of enabled endpoints that nobody holds, at most $6 of them and at most
 * $5 under way per endpoint: one short statement (the mail sender's lease, see MailSender), due
 * by the injected clock. What is under way at an endpoint are its running leases, in any process,
 * and this process's own attempts ($4, whose leases a jump of the clock may have overtaken: never
 * claimed twice here). Each endpoint's oldest due come first, and every endpoint's first place
 * before any endpoint's second, endpoints failing now after the others: an endpoint with a
 * backlog of failures never takes the room of the others. Per endpoint it reads at most $5 due
 * rows and its leased ones (the partial indexes of migration 061), whatever its backlog. The
 * outer conditions repeat the inner ones: a row another sender claimed meanwhile is not taken
 * twice.
 */
const CLAIM = `
  WITH due AS (
    SELECT x.id, x.next_attempt_at, x.created_at, y.failing_since IS NOT NULL AS failing,
           u.n + row_number() OVER (PARTITION BY y.id ORDER BY x.next_attempt_at, x.created_at) AS place
      FROM webhook_endpoints y
     CROSS JOIN LATERAL (
       SELECT count(*) AS n FROM webhook_deliveries z
        WHERE z.endpoint_id = y.id AND z.lease_owner IS NOT NULL AND z.status = 'pending'
          AND (z.leased_until > $1 OR z.id = ANY($4::text[]))) u
     CROSS JOIN LATERAL (
       SELECT w.id, w.next_attempt_at, w.created_at FROM webhook_deliveries w
        WHERE w.endpoint_id = y.id AND w.status = 'pending' AND w.next_attempt_at <= $1
          AND (w.leased_until IS NULL OR w.leased_until <= $1) AND w.id <> ALL($4::text[])
        ORDER BY w.next_attempt_at, w.created_at LIMIT $5) x
     WHERE y.disabled_at IS NULL
  )
  UPDATE webhook_deliveries d SET leased_until = $2, lease_owner = $3
    FROM webhook_endpoints e
   WHERE d.id IN (SELECT id FROM due WHERE place <= $5
                   ORDER BY place, failing, next_attempt_at, created_at LIMIT $6)
     AND e.id = d.endpoint_id
     AND d.status = 'pending' AND (d.leased_until IS NULL OR d.leased_until <= $1)
  RETURNING d.id, d.endpoint_id, d.payload, d.attempts, d.created_at, e.url, e.secret_salt`;

/**
 * The delivery job: sends due deliveries of the webhook outbox outside any transaction (a hanging
 * receiver holds no transaction and no pooled connection, see the MailSender), signed with the
 * endpoint's secret (Standard Webhooks). Endpoints are served side by side: each round claims
 * what there is room for (`concurrency` in this process, `concurrencyPerEndpoint` to one
 * endpoint) and starts those attempts without waiting for them, and each attempt that ends makes
 * room for the next claim at once; so an endpoint that hangs, drips or fails only ever holds its
 * own places, and its retries wait in the outbox by their due time, holding none. A delivery
 * keeps its webhook-id on every attempt; a failure is retried after growing delays for 24 hours
 * from its event, then given up; an endpoint whose attempts have all failed for 24 hours is
 * disabled with the last answer as its reason. The address is checked again before every attempt.
 */
export class WebhookSender {
  private job: IntervalJob | null = null;
  private readonly leaseMs: number;
  /** The attempts under way in this process, by delivery id. */
  private readonly underWay = new Map<string, Promise<void>>();
  /** Aborted by stop(): no more claims, and the attempts under way are cut off. */
  private readonly stopping = new AbortController();
  /** The claims running now; another asked for meanwhile runs after them. */
  private claiming: Promise<number> | null = null;
  private claimAgain = false;

  constructor(private readonly o: WebhookSenderOptions) {
    this.leaseMs = o.leaseMs ?? WEBHOOK_LEASE_MS;
  }

  start(): void {
    this.job = startIntervalJob(
      'webhook delivery',
      () => this.startDue(),
      this.o.intervalMs,
      this.o.logger,
    );
  }

  /**
   * Ends the job: no more claims; the attempts under way are cut off and their deliveries left
   * due for the next sender (an attempt cut off by a stop counts as none).
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.job?.stop();
    await this.claiming;
    await Promise.all(this.underWay.values());
  }

  /**
   * Starts attempts of due deliveries while there is room, without waiting for them; answers
   * how many it started. Called while claims run, it has them claim once more when done (an
   * attempt that ended meanwhile made room they did not see).
   */
  startDue(): Promise<number> {
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    this.claiming = this.claimWhileRoom().finally(() => (this.claiming = null));
    return this.claiming;
  }

  private async claimWhileRoom(): Promise<number> {
    let started = 0;
    do {
      this.claimAgain = false;
      while (!this.stopping.signal.aborted) {
        const room = this.o.concurrency - this.underWay.size;
        if (room <= 0) break;
        const rows = await this.claim(room);
        started += rows.length;
        if (rows.length < room) break;
      }
    } while (this.claimAgain && !this.stopping.signal.aborted);
    return started;
  }

  /** Claims up to `room` due deliveries and starts their attempts. */
  private async claim(room: number): Promise<DueRow[]> {
    const lease = randomUUID();
    const now = this.o.clock.now();
    const claimed = await this.o.pool.query<DueRow>(CLAIM, [
      now,
      new Date(now.getTime() + this.leaseMs),
      lease,
      [...this.underWay.keys()],
      this.o.concurrencyPerEndpoint,
      room,
    ]);
    for (const row of claimed.rows) {
      const attempt = this.deliver(row, lease)
        .catch((err: unknown) =>
          this.o.logger.warn(
            { webhookId: row.id, err: String(err) },
            'webhook attempt not recorded',
          ),
        )
        .finally(() => {
          this.underWay.delete(row.id);
          if (!this.stopping.signal.aborted)
            this.startDue().catch((err: unknown) =>
              this.o.logger.warn({ err: String(err) }, 'webhook delivery round failed'),
            );
        });
      this.underWay.set(row.id, attempt);
    }
    return claimed.rows;
  }

  /** One attempt of a claimed delivery, and its outcome recorded while the lease is still ours. */
  private async deliver(row: DueRow, lease: string): Promise<void> {
    const outcome = await this.attempt(row).catch((err: unknown): Outcome => ({
      ok: false,
      status: null,
      error: String(err),
    }));
    if (!outcome.ok && outcome.error === STOPPED) {
      await this.o.pool.query(
        `UPDATE webhook_deliveries SET leased_until = NULL, lease_owner = NULL
          WHERE id = $1 AND lease_owner = $2`,
        [row.id, lease],
      );
      return;
    }
    const at = this.o.clock.now();
    if (outcome.ok) {
      await this.o.pool.query(
        `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,
                last_attempt_at = $3, last_status_code = $4, last_error = NULL, delivered_at = $3,
                leased_until = NULL, lease_owner = NULL
          WHERE id = $1 AND lease_owner = $2`,
        [row.id, lease, at, outcome.status],
      );
      await this.o.pool.query(
        'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
        [row.endpoint_id],
      );
      this.o.logger.info({ webhookId: row.id, status: outcome.status }, 'webhook delivered');
      return;
    }
    const failures = row.attempts + 1;
    const giveUp = at.getTime() - row.created_at.getTime() >= WEBHOOK_RETRY_MS;
    // The attempt and the endpoint's failures (since when, and disabled once that is 24 hours
    // ago) in one statement: nobody reads a delivery given up beside its endpoint not yet
    // disabled.
    await this.o.pool.query(
      `WITH attempt AS (
         UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, next_attempt_at = $4,
                last_attempt_at = $5, last_status_code = $6, last_error = $7,
                leased_until = NULL, lease_owner = NULL
          WHERE id = $1 AND lease_owner = $2)
       UPDATE webhook_endpoints
          SET failing_since = COALESCE(failing_since, $5::timestamptz),
              disabled_at = CASE WHEN disabled_at IS NULL AND COALESCE(failing_since, $5::timestamptz) <= $5::timestamptz - $9::interval
                                 THEN $5::timestamptz ELSE disabled_at END,
              disabled_reason = CASE WHEN disabled_at IS NULL AND COALESCE(failing_since, $5::timestamptz) <= $5::timestamptz - $9::interval
                                     THEN 'failing' ELSE disabled_reason END,
              disabled_detail = CASE WHEN disabled_at IS NULL AND COALESCE(failing_since, $5::timestamptz) <= $5::timestamptz - $9::interval
                                     THEN $7 ELSE disabled_detail END
        WHERE id = $8`,
      [
        row.id,
        lease,
        giveUp ? 'failed' : 'pending',
        new Date(at.getTime() + retryDelayMs(failures)),
        at,
        outcome.status,
        outcome.error,
        row.endpoint_id,
        `${WEBHOOK_RETRY_MS} milliseconds`,
      ],
    );
    this.o.logger.warn(
      { webhookId: row.id, attempts: failures, status: outcome.status, error: outcome.error },
      giveUp ? 'webhook not delivered; given up' : 'webhook not delivered; will retry',
    );
  }

  /**
   * One attempt under one deadline, from the address check to the answer's last byte (or the
   * sender's stop, whichever comes first).
   */
  private async attempt(row: DueRow): Promise<Outcome> {
    const deadline = deadlineAfter(WEBHOOK_TIMEOUT_MS, this.stopping.signal);
    try {
      return await this.attemptUntil(row, deadline.signal);
    } finally {
      deadline.clear();
    }
  }

  private async attemptUntil(row: DueRow, deadline: AbortSignal): Promise<Outcome> {
    const check = await Promise.race([
      checkOutboundUrl(row.url, this.o.policy, this.o.resolve),
      passing(deadline),
    ]);
    if ('error' in check) return check;
    if (!check.ok)
      return { ok: false, status: null, error: `refused (${check.reason}): ${check.detail}` };
    const secret = webhookSecret(await this.o.signingKey(), row.endpoint_id, row.secret_salt);
    const timestamp = this.o.clock.now();
    const signature = new Webhook(secret).sign(row.id, timestamp, row.payload);
    return post(
      check.url,
      check.addresses[0]!,
      {
        'webhook-id': row.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      row.payload,
      deadline,
    );
  }
}
