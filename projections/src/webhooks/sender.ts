import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import {
  checkOutboundUrl,
  startIntervalJob,
  webhookSecret,
  type Clock,
  type IntervalJob,
  type Logger,
  type OutboundPolicy,
  type Pool,
  type Resolver,
} from '@rr/platform';

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
 * Claims the oldest due delivery of an enabled endpoint that nobody holds: one short statement
 * (the mail sender's lease, see MailSender), due by the injected clock.
 */
const CLAIM = `
  UPDATE webhook_deliveries d SET leased_until = $2, lease_owner = $3
    FROM webhook_endpoints e
   WHERE d.id = (SELECT x.id FROM webhook_deliveries x
                   JOIN webhook_endpoints y ON y.id = x.endpoint_id AND y.disabled_at IS NULL
                  WHERE x.status = 'pending' AND x.next_attempt_at <= $1
                    AND (x.leased_until IS NULL OR x.leased_until <= $1)
                  ORDER BY x.next_attempt_at, x.created_at LIMIT 1 FOR UPDATE OF x SKIP LOCKED)
     AND e.id = d.endpoint_id
     AND d.status = 'pending' AND (d.leased_until IS NULL OR d.leased_until <= $1)
  RETURNING d.id, d.endpoint_id, d.payload, d.attempts, d.created_at, e.url, e.secret_salt`;

/** What an attempt came to: a 2xx answer, or the failure recorded (status code or error). */
type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * Sends one request to the address checked, never to another: the connection's lookup answers
 * that address (DNS is not asked again), TLS still verifies the certificate for the host name.
 * Redirects are answers like any other (a failure), never followed.
 */
function post(
  url: URL,
  address: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const lib = url.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = lib.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: false,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': 'reading-room-reservations-webhooks',
        },
        // The one address checked, whatever the name resolves to by now (DNS rebinding).
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
              address,
            ]);
          else callback(null, address.address, address.family);
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The answer's body is not needed: read and dropped (at most 64 KB, then cut off).
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 65_536) res.destroy();
        });
        const finish = () =>
          done(
            status >= 200 && status < 300
              ? { ok: true, status }
              : {
                  ok: false,
                  status,
                  error: status >= 300 && status < 400 ? `redirect not followed` : `HTTP ${status}`,
                },
          );
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: 'timeout' });
    }, WEBHOOK_TIMEOUT_MS);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ ok: false, status: null, error: err.code ?? err.message }),
    );
    req.end(body);
  });
}

/**
 * The delivery job: sends due deliveries of the webhook outbox, one at a time, outside any
 * transaction (a hanging receiver holds no transaction and no pooled connection, see the
 * MailSender), signed with the endpoint's secret (Standard Webhooks). A delivery keeps its
 * webhook-id on every attempt; a failure is retried after growing delays for 24 hours from its
 * event, then given up; an endpoint whose attempts have all failed for 24 hours is disabled with
 * the last answer as its reason. The address is checked again before every attempt.
 */
export class WebhookSender {
  private job: IntervalJob | null = null;
  private readonly leaseMs: number;

  constructor(private readonly o: WebhookSenderOptions) {
    this.leaseMs = o.leaseMs ?? WEBHOOK_LEASE_MS;
  }

  start(): void {
    this.job = startIntervalJob(
      'webhook delivery',
      () => this.sendDue(),
      this.o.intervalMs,
      this.o.logger,
    );
  }

  async stop(): Promise<void> {
    await this.job?.stop();
  }

  /** Attempts every due delivery once; answers how many were delivered. */
  async sendDue(max = 100): Promise<number> {
    let delivered = 0;
    for (let i = 0; i < max; i++) {
      const outcome = await this.sendOne();
      if (outcome === 'none') break;
      if (outcome === 'delivered') delivered += 1;
    }
    return delivered;
  }

  private async sendOne(): Promise<'none' | 'delivered' | 'failed'> {
    const lease = randomUUID();
    const now = this.o.clock.now();
    const claimed = await this.o.pool.query<DueRow>(CLAIM, [
      now,
      new Date(now.getTime() + this.leaseMs),
      lease,
    ]);
    const row = claimed.rows[0];
    if (!row) return 'none';
    const outcome = await this.attempt(row).catch((err: unknown): Outcome => ({
      ok: false,
      status: null,
      error: String(err),
    }));
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
      return 'delivered';
    }
    const failures = row.attempts + 1;
    const giveUp = at.getTime() - row.created_at.getTime() >= WEBHOOK_RETRY_MS;
    await this.o.pool.query(
      `UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, next_attempt_at = $4,
              last_attempt_at = $5, last_status_code = $6, last_error = $7,
              leased_until = NULL, lease_owner = NULL
        WHERE id = $1 AND lease_owner = $2`,
      [
        row.id,
        lease,
        giveUp ? 'failed' : 'pending',
        new Date(at.getTime() + retryDelayMs(failures)),
        at,
        outcome.status,
        outcome.error,
      ],
    );
    // The endpoint's failures: since when, and disabled once that is 24 hours ago.
    await this.o.pool.query(
      `UPDATE webhook_endpoints
          SET failing_since = COALESCE(failing_since, $2::timestamptz),
              disabled_at = CASE WHEN disabled_at IS NULL AND COALESCE(failing_since, $2::timestamptz) <= $2::timestamptz - $4::interval
                                 THEN $2::timestamptz ELSE disabled_at END,
              disabled_reason = CASE WHEN disabled_at IS NULL AND COALESCE(failing_since, $2::timestamptz) <= $2::timestamptz - $4::interval
                                     THEN 'failing' ELSE disabled_reason END,
              disabled_detail = CASE WHEN disabled_at IS NULL AND COALESCE(failing_since, $2::timestamptz) <= $2::timestamptz - $4::interval
                                     THEN $3 ELSE disabled_detail END
        WHERE id = $1`,
      [row.endpoint_id, at, outcome.error, `${WEBHOOK_RETRY_MS} milliseconds`],
    );
    this.o.logger.warn(
      { webhookId: row.id, attempts: failures, status: outcome.status, error: outcome.error },
      giveUp ? 'webhook not delivered; given up' : 'webhook not delivered; will retry',
    );
    return 'failed';
  }

  private async attempt(row: DueRow): Promise<Outcome> {
    const check = await checkOutboundUrl(row.url, this.o.policy, this.o.resolve);
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
    );
  }
}
