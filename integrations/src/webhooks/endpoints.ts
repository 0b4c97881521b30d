import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { messageOf, WEBHOOK_SECRET_PREFIX } from '@rr/contracts';
import { persistentSecret, Problem, problems, type Clock, type Config } from '@rr/platform';
import { checkOutboundUrl, type OutboundPolicy, type Resolver } from '../outbound-address.ts';

/**
 * Webhook endpoints (docs/product.md#integrations): staff register a URL and the event types it
 * gets; the webhook reactor (reactor.ts) writes a delivery per event into the outbox and the
 * delivery job (sender.ts) signs and sends it (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`).
 *
 * The signing secret must be at hand at every delivery, so it cannot be kept as a hash like an
 * API token's. It is not stored at all: it is derived, HMAC-SHA256 of the webhook signing key
 * (WEBHOOK_SIGNING_KEY, else one generated once and kept in `app_settings` like the other
 * secrets, platform/src/secrets.ts) over the endpoint's id and a random salt. With the key in the
 * configuration a copy of the database alone reveals no secret; a new salt makes a new secret.
 */

/** The Standard Webhooks secret of an endpoint: `whsec_` and 32 bytes in base64. */
export function webhookSecret(signingKey: string, endpointId: string, salt: Buffer): string {
  const mac = createHmac('sha256', signingKey).update(`webhook:${endpointId}:`).update(salt);
  return WEBHOOK_SECRET_PREFIX + mac.digest('base64');
}

/** The key the endpoints' secrets are derived from, the same in every process. */
export const webhookSigningKey = (pool: pg.Pool, config: Pick<Config, 'WEBHOOK_SIGNING_KEY'>) =>
  persistentSecret(pool, 'webhook_signing_key', config.WEBHOOK_SIGNING_KEY);

/** Where webhooks may go, from the configuration. */
export const outboundPolicyOf = (
  config: Pick<Config, 'WEBHOOK_ALLOW_HTTP' | 'WEBHOOK_ALLOWED_HOSTS'>,
): OutboundPolicy => ({
  allowHttp: config.WEBHOOK_ALLOW_HTTP,
  allowedHosts: config.WEBHOOK_ALLOWED_HOSTS,
});

/** Why an endpoint is disabled: it failed for 24 hours, or staff paused it. */
export type WebhookDisabledReason = 'failing' | 'staff';

export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: string[];
  description: string;
  /** The sites whose rooms' events it gets; empty: every site. */
  siteIds: string[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: WebhookDisabledReason | null;
  /** For 'failing': the last answer (`HTTP 500`, `ECONNREFUSED`, `timeout`, an address refused). */
  disabledDetail: string | null;
  /** The first failed attempt since the last success, while it keeps failing. */
  failingSince: string | null;
}

export interface WebhookDelivery {
  id: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  payload: string;
}

interface EndpointRow {
  id: string;
  url: string;
  event_types: string[];
  description: string;
  site_ids: string[];
  created_by: string;
  created_at: Date;
  updated_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: WebhookDisabledReason | null;
  disabled_detail: string | null;
}

const ENDPOINT_COLUMNS = `id, url, event_types, description, site_ids::text[] AS site_ids,
  created_by, created_at, updated_at, failing_since, disabled_at, disabled_reason, disabled_detail`;

const endpointOf = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  eventTypes: r.event_types,
  description: r.description,
  siteIds: r.site_ids,
  createdBy: r.created_by,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  enabled: r.disabled_at === null,
  disabledAt: r.disabled_at?.toISOString() ?? null,
  disabledReason: r.disabled_reason,
  disabledDetail: r.disabled_detail,
  failingSince: r.failing_since?.toISOString() ?? null,
});

/** Deliveries listed per endpoint: the newest. */
export const WEBHOOK_DELIVERIES_LISTED = 100;

export interface WebhookStoreOptions {
  pool: pg.Pool;
  clock: Clock;
  policy: OutboundPolicy;
  signingKey: () => Promise<string>;
  /** The resolver of the URL check (the system's by default). */
  resolve?: Resolver;
  /** Which of the site ids name a site now (the sites of an endpoint must). */
  knownSites: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** What staff write of an endpoint. */
export interface WebhookEndpointInput {
  url: string;
  eventTypes: string[];
  description: string;
  /** Empty: every site. */
  siteIds: string[];
}

const refused = (reason: string, detail: string) =>
  new Problem(400, 'webhook__url_refused', 'Webhooks cannot be sent to this URL', [reason, detail]);

export class WebhookStore {
  constructor(private readonly o: WebhookStoreOptions) {}

  /**
   * Refuses a URL the delivery job would never send to (400 webhook__url_refused), and sites no
   * site is (400 validation__error, `invalid` on each: an endpoint of no site would get nothing).
   */
  private async check(input: WebhookEndpointInput): Promise<void> {
    if (input.siteIds.length) {
      const known = await this.o.knownSites(input.siteIds);
      const errors = input.siteIds.flatMap((id, i) =>
        known.has(id.toLowerCase())
          ? []
          : [{ field: `siteIds.${i}`, rule: 'invalid', message: messageOf({ key: 'invalid' }) }],
      );
      if (errors.length) throw problems.validation(errors);
    }
    const check = await checkOutboundUrl(input.url, this.o.policy, this.o.resolve);
    if (!check.ok) throw refused(check.reason, check.detail);
  }

  async create(
    input: WebhookEndpointInput & { createdBy: string },
  ): Promise<WebhookEndpoint & { secret: string }> {
    await this.check(input);
    const id = randomUUID();
    const salt = randomBytes(16);
    const now = this.o.clock.now();
    const r = await this.o.pool.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, url, event_types, description, site_ids, secret_salt, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $8::uuid[], $5, $6, $7, $7) RETURNING ${ENDPOINT_COLUMNS}`,
      [
        id,
        input.url,
        input.eventTypes,
        input.description,
        salt,
        input.createdBy,
        now,
        input.siteIds,
      ],
    );
    const secret = webhookSecret(await this.o.signingKey(), id, salt);
    return { ...endpointOf(r.rows[0]!), secret };
  }

  async list(): Promise<WebhookEndpoint[]> {
    const r = await this.o.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at DESC, url`,
    );
    return r.rows.map(endpointOf);
  }

  async get(id: string): Promise<WebhookEndpoint | null> {
    const r = await this.o.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`,
      [id],
    );
    return r.rows[0] ? endpointOf(r.rows[0]) : null;
  }

  /**
   * Changes an endpoint. Switching it on clears its failures (a fresh 24 hours); switching it off
   * pauses it (its pending deliveries wait). Null when there is none of that id.
   */
  async update(
    id: string,
    input: WebhookEndpointInput & { enabled: boolean },
  ): Promise<WebhookEndpoint | null> {
    await this.check(input);
    const r = await this.o.pool.query<EndpointRow>(
      `UPDATE webhook_endpoints
          SET url = $2, event_types = $3, description = $4, updated_at = $5, site_ids = $7::uuid[],
              disabled_at = CASE WHEN $6 THEN NULL ELSE COALESCE(disabled_at, $5) END,
              disabled_reason = CASE WHEN $6 THEN NULL ELSE COALESCE(disabled_reason, 'staff') END,
              disabled_detail = CASE WHEN $6 THEN NULL ELSE disabled_detail END,
              failing_since = CASE WHEN $6 AND disabled_at IS NOT NULL THEN NULL ELSE failing_since END
        WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [
        id,
        input.url,
        input.eventTypes,
        input.description,
        this.o.clock.now(),
        input.enabled,
        input.siteIds,
      ],
    );
    return r.rows[0] ? endpointOf(r.rows[0]) : null;
  }

  /** Deletes an endpoint with its deliveries; false when there is none of that id. */
  async remove(id: string): Promise<boolean> {
    const r = await this.o.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
    return (r.rowCount ?? 0) > 0;
  }

  /** The newest deliveries of an endpoint; null when there is no such endpoint. */
  async deliveries(id: string): Promise<WebhookDelivery[] | null> {
    if (!(await this.get(id))) return null;
    const r = await this.o.pool.query<{
      id: string;
      event_type: string;
      status: WebhookDelivery['status'];
      attempts: number;
      created_at: Date;
      next_attempt_at: Date;
      last_attempt_at: Date | null;
      last_status_code: number | null;
      last_error: string | null;
      delivered_at: Date | null;
      payload: string;
    }>(
      `SELECT id, event_type, status, attempts, created_at, next_attempt_at, last_attempt_at,
              last_status_code, last_error, delivered_at, payload
         FROM webhook_deliveries WHERE endpoint_id = $1
        ORDER BY created_at DESC, id LIMIT ${WEBHOOK_DELIVERIES_LISTED}`,
      [id],
    );
    return r.rows.map((d) => ({
      id: d.id,
      eventType: d.event_type,
      status: d.status,
      attempts: d.attempts,
      createdAt: d.created_at.toISOString(),
      nextAttemptAt: d.status === 'pending' ? d.next_attempt_at.toISOString() : null,
      lastAttemptAt: d.last_attempt_at?.toISOString() ?? null,
      lastStatusCode: d.last_status_code,
      lastError: d.last_error,
      deliveredAt: d.delivered_at?.toISOString() ?? null,
      payload: d.payload,
    }));
  }
}
