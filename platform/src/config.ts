import path from 'node:path';
import { z } from 'zod';
import type { BookingLimits } from '@rr/domain/limits';
import { STAFF_ROLES } from './access.ts';
import { isLoopbackHost } from './loopback.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list of URLs of the given kind (empty = none). */
const listOf = (url: z.ZodURL) =>
  z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(url));

/** A comma-separated list of names (empty = none). */
const nameList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/**
 * STAFF_ROLE_MAP: a JSON object from a group as the identity provider sends it (a claim value,
 * an attribute value or a group's DN) to the staff roles its members get.
 */
const roleMap = z
  .string()
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().min(1, 'a group name must not be empty'),
      z
        .array(z.enum(STAFF_ROLES, { error: `roles are ${STAFF_ROLES.join(', ')}` }))
        .min(1, 'each group needs at least one role'),
      { error: 'must be a JSON object of group name to a list of roles' },
    ),
  );

const PG_PROTOCOL = /^postgres(ql)?$/;
const urlList = listOf(z.url());
/** PostgreSQL connection URLs. */
const pgUrlList = listOf(z.url({ protocol: PG_PROTOCOL }));

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: z.url({ protocol: PG_PROTOCOL }).optional(),
  // Streaming replicas for the query routes, each URL one server (platform/src/read-pools.ts).
  READ_DATABASE_URL: pgUrlList,
  DATA_DIR: z.string().min(1).default('data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  // How the connections talk to PostgreSQL (platform/src/db.ts, PoolOptions): queries sent
  // before earlier answers came, and a turn's queries in one system call. Off only to measure.
  DB_PIPELINE: bool.default(true),
  DB_COALESCE_WRITES: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TIME_ZONE: z
    .string()
    .default('Europe/Vienna')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone'),
  ADMIN_USERNAME: z.string().min(1).max(100).default('admin'),
  ADMIN_PASSWORD: z.string().min(8).max(200).optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  VISITOR_KEY_SECRET: z.string().min(32).optional(),
  COOKIE_SECURE: bool.optional(),
  TRUST_PROXY: z.string().optional(),
  SEED_DEMO_DATA: bool.default(true),
  FRONTEND_DIST: z.string().default('frontend/dist'),
  CART_HOLD_MINUTES: z.coerce.number().min(0.01).max(240).default(15),
  MAX_CART_TICKETS: z.coerce.number().int().min(1).max(50).default(5),
  MAX_TICKETS_PER_DAY: z.coerce.number().int().min(1).max(100).default(2),
  MAX_TICKETS_PER_VISITOR: z.coerce.number().int().min(1).max(1000).default(10),
  ERASURE_JOB_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  EXPIRY_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(600000).default(5000),
  // The no-show rule (docs/product.md#no-show-rule): on only with all three.
  NO_SHOW_LIMIT: z.coerce.number().int().min(1).max(100).optional(),
  NO_SHOW_WINDOW_DAYS: z.coerce.number().int().min(1).max(365).optional(),
  NO_SHOW_BLOCK_DAYS: z.coerce.number().int().min(1).max(365).optional(),
  NO_SHOW_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(600000).default(30000),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Lesesaal-Reservierung <noreply@localhost>'),
  PUBLIC_BASE_URL: z.url().optional(),
  // Who signs the mails: the library's name (without it "Ihre Bibliothek" / "Your library") and
  // the address readers may write to (left out of the mails without it).
  LIBRARY_NAME: z.string().min(1).max(200).optional(),
  LIBRARY_CONTACT_EMAIL: z.email().optional(),
  // The longest date range one closure of rooms may span (docs/product.md#closures).
  CLOSURE_MAX_DAYS: z.coerce.number().int().min(1).max(3660).default(366),
  // The waitlist's matcher records whom the limits pass over (docs/product.md#waitlist). Off
  // while a release older than those events runs beside this one: it cannot fold them.
  WAITLIST_PASS_OVER: bool.default(true),
  // The what-if replays (docs/product.md#insights): the most events one reads, how many run at
  // once in a process and how many wait for a turn (beyond them 503 insights__replay_busy with
  // this Retry-After), and the events a replay's worker reads per batch.
  WHAT_IF_MAX_EVENTS: z.coerce.number().int().min(1).max(10_000_000).default(200_000),
  WHAT_IF_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  WHAT_IF_QUEUE: z.coerce.number().int().min(0).max(1000).default(4),
  WHAT_IF_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  WHAT_IF_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  // The longest one what-if replay runs (its worker's reads included): beyond it, refused.
  WHAT_IF_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  MAIL_INTERVAL_MS: z.coerce.number().int().min(50).max(600000).default(2000),
  // How often the reminder job looks for reminders now due.
  REMINDER_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // Failed sign-ins per user name and address, per address, per user name (in a window), and
  // the longest delay they cause (identity/src/sign-in-limit.ts).
  SIGN_IN_FAILURES_PER_ACCOUNT_ADDRESS: z.coerce.number().int().min(1).max(100000).default(5),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1000000).default(50),
  SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000000).default(25),
  SIGN_IN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  SIGN_IN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  RATE_LIMIT_CARTS: z.coerce.number().int().min(1).max(1000000).default(60),
  RATE_LIMIT_OWNER_LOOKUPS: z.coerce.number().int().min(1).max(1000000).default(120),
  // "My bookings" link requests per hour, per client address and per e-mail address.
  RATE_LIMIT_MY_BOOKINGS_LINKS: z.coerce.number().int().min(1).max(1000000).default(20),
  RATE_LIMIT_MY_BOOKINGS_LINKS_PER_ADDRESS: z.coerce.number().int().min(1).max(1000000).default(3),
  READY_MAX_LAG: z.coerce.number().int().min(0).max(100000000).default(10000),
  GATEWAY_COMMAND_URLS: urlList,
  GATEWAY_QUERY_URLS: urlList,
  CSP_EXTRA_ORIGINS: urlList.transform((urls) => urls.map((u) => new URL(u).origin)),
  PROJECTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100000).default(500),
  // How long the mail and webhook outbox reactors, which nobody waits for, gather commits before
  // they read the log (projections/src/runner.ts); the read models gather 5 ms.
  PROJECTION_QUIET_GATHER_MS: z.coerce.number().int().min(0).max(10000).default(50),
  HOLIDAY_IMPORT_YEARS_BACK: z.coerce.number().int().min(0).max(100).default(1),
  HOLIDAY_IMPORT_YEARS_AHEAD: z.coerce.number().int().min(0).max(100).default(5),
  HOLIDAY_IMPORT_MAX_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  HOLIDAY_IMPORT_MAX_OCCURRENCES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  HOLIDAY_IMPORT_MAX_DAYS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  HOLIDAY_IMPORT_READ_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(30000).default(3000),
  // How long the public reads crowds poll share one answer while the read models stand still
  // (query-service/src/shared-answers.ts); 0: off.
  PUBLIC_READ_CACHE_MS: z.coerce.number().int().min(0).max(10000).default(1000),
  // Connections the kernel holds for the process to accept: a crowd opening connections at once
  // finds room instead of being dropped (Linux caps it at net.core.somaxconn).
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(4096),
  // Bounded admission per process (platform/src/load-shedding.ts, docs/product.md#overload):
  // requests running at once, waiting at most, the longest wait, and the Retry-After of a 503.
  LOAD_SHED_CONCURRENCY: z.coerce.number().int().min(1).max(100000).default(128),
  LOAD_SHED_QUEUE: z.coerce.number().int().min(0).max(1000000).default(1000),
  LOAD_SHED_MAX_WAIT_MS: z.coerce.number().int().min(1).max(60000).default(5000),
  LOAD_SHED_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
  // How many times that wait a 503 names at most, when the line is full (1: always the same).
  LOAD_SHED_RETRY_AFTER_SPREAD: z.coerce.number().int().min(1).max(20).default(5),
  // Staff sign-in with the campus identity (identity/src/staff-sso.ts): roles from groups, how
  // long such a session lasts at most, and which local accounts keep their password sign-in.
  STAFF_ROLE_MAP: roleMap.optional(),
  STAFF_SSO_SESSION_HOURS: z.coerce.number().min(0.05).max(168).default(10),
  // How long the record of staff sign-ins keeps each sign-in and refusal (the erasure job).
  STAFF_SIGN_IN_RECORD_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  LOCAL_SIGN_IN: bool.default(true),
  LOCAL_SIGN_IN_ACCOUNTS: nameList.default(['admin']),
  // LDAP / Active Directory on the sign-in form (identity/src/ldap-sign-in.ts): ldaps://, or
  // ldap:// always upgraded with StartTLS.
  LDAP_URL: z.url({ protocol: /^ldaps?$/ }).optional(),
  LDAP_BIND_DN: z.string().min(1).optional(),
  LDAP_BIND_PASSWORD: z.string().min(1).optional(),
  LDAP_SEARCH_BASE: z.string().min(1).optional(),
  LDAP_USER_FILTER: z
    .string()
    .refine((f) => f.includes('{{username}}'), 'must contain {{username}}')
    .default('(uid={{username}})'),
  LDAP_GROUPS_ATTRIBUTE: z.string().min(1).default('memberOf'),
  // A PEM file of the certificate authorities the directory's certificate is checked against
  // (the system's list when unset).
  LDAP_TLS_CA_FILE: z.string().min(1).optional(),
  LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(10000),
  // OpenID Connect (identity/src/oidc-sign-in.ts): the provider by discovery from its issuer.
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_SCOPES: z.string().min(1).default('openid profile email'),
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  OIDC_USERNAME_CLAIM: z.string().min(1).default('preferred_username'),
  OIDC_LABEL: z.string().min(1).max(100).default('Campus account'),
  // The callback the provider knows (https://host/api/auth/oidc/callback); from the request if unset.
  OIDC_REDIRECT_URI: z.url({ protocol: /^https?$/ }).optional(),
  // SAML 2.0 (identity/src/saml-sign-in.ts): the identity provider's metadata (a file or an
  // https:// URL), this service provider's entity ID, the attributes naming groups and account.
  SAML_IDP_METADATA: z.string().min(1).optional(),
  SAML_SP_ENTITY_ID: z.string().min(1).optional(),
  SAML_GROUPS_ATTRIBUTE: z.string().min(1).default('groups'),
  SAML_USERNAME_ATTRIBUTE: z.string().min(1).default('NameID'),
  // PEM files: the key signs the sign-in requests, the certificate goes into the SP metadata.
  SAML_SP_KEY: z.string().min(1).optional(),
  SAML_SP_CERT: z.string().min(1).optional(),
  SAML_LABEL: z.string().min(1).max(100).default('Campus account (SAML)'),
  // Where the provider posts its answer; from SAML_SP_ENTITY_ID's origin when that is a URL.
  SAML_ACS_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Webhooks (platform/src/webhooks.ts): http:// besides https://, hosts (names or addresses as
  // written in the URL) exempt from the internal-address check, how often the delivery job looks
  // for due deliveries, and the key the endpoints' secrets are derived from.
  WEBHOOK_ALLOW_HTTP: bool.default(false),
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    ),
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).max(600000).default(1000),
  // Webhook attempts under way at once in one process, and to one endpoint over every process
  // that sends (projections/src/webhooks/sender.ts): endpoints are served side by side, so a
  // hanging one holds only its own places; one per endpoint keeps its deliveries one after another.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().min(1).max(100).default(1),
  WEBHOOK_SIGNING_KEY: z.string().min(32).optional(),
  // The server's own pg_dump archives (server/src/backup.ts): every this many hours (0: off),
  // the newest BACKUP_KEEP kept in BACKUP_DIR (default DATA_DIR/backups); PostgreSQL's client
  // programs from PG_BIN_DIR (default: Debian's newest /usr/lib/postgresql/N/bin, else PATH).
  BACKUP_INTERVAL_HOURS: z.coerce.number().min(0).max(8760).default(0),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10000).default(7),
  BACKUP_DIR: z.string().min(1).optional(),
  PG_BIN_DIR: z.string().min(1).optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

/**
 * The limits of the booking rules: the type is the domain's (@rr/domain limits.ts), the values
 * are these variables'. The one source of every copy: the deciders, the calendar's marks and
 * `GET /api/settings` (the visitor app) take them from here.
 */
export type { BookingLimits };

export function bookingLimitsOf(
  config: Pick<
    Config,
    | 'CART_HOLD_MINUTES'
    | 'MAX_CART_TICKETS'
    | 'MAX_TICKETS_PER_DAY'
    | 'MAX_TICKETS_PER_VISITOR'
    | 'NO_SHOW_LIMIT'
    | 'NO_SHOW_WINDOW_DAYS'
    | 'NO_SHOW_BLOCK_DAYS'
  >,
): BookingLimits {
  const {
    NO_SHOW_LIMIT: limit,
    NO_SHOW_WINDOW_DAYS: windowDays,
    NO_SHOW_BLOCK_DAYS: blockDays,
  } = config;
  return {
    holdMinutes: config.CART_HOLD_MINUTES,
    maxCartTickets: config.MAX_CART_TICKETS,
    maxTicketsPerDay: config.MAX_TICKETS_PER_DAY,
    maxTicketsPerVisitor: config.MAX_TICKETS_PER_VISITOR,
    ...(limit && windowDays && blockDays ? { noShowRule: { limit, windowDays, blockDays } } : {}),
  };
}

/** How the what-if replays of the insights run (docs/product.md#insights). */
export interface WhatIfSettings {
  /** The database a replay's worker reads with a connection of its own. */
  databaseUrl: string;
  /** The most events one replay reads (WHAT_IF_MAX_EVENTS). */
  maxEvents: number;
  /** Replays running at once in the process (WHAT_IF_CONCURRENCY). */
  concurrency: number;
  /** Replays waiting for a turn, at most (WHAT_IF_QUEUE). */
  queue: number;
  /** The Retry-After of a replay refused as busy (WHAT_IF_RETRY_AFTER_SECONDS). */
  retryAfterSeconds: number;
  /** Events a worker reads per batch (WHAT_IF_BATCH_SIZE). */
  batchSize: number;
  /** The longest one replay runs, its reads included (WHAT_IF_TIMEOUT_SECONDS). */
  timeoutMs: number;
}

export const whatIfSettingsOf = (
  config: Pick<
    Config,
    | 'WHAT_IF_MAX_EVENTS'
    | 'WHAT_IF_CONCURRENCY'
    | 'WHAT_IF_QUEUE'
    | 'WHAT_IF_RETRY_AFTER_SECONDS'
    | 'WHAT_IF_BATCH_SIZE'
    | 'WHAT_IF_TIMEOUT_SECONDS'
  >,
  databaseUrl: string,
): WhatIfSettings => ({
  databaseUrl,
  maxEvents: config.WHAT_IF_MAX_EVENTS,
  concurrency: config.WHAT_IF_CONCURRENCY,
  queue: config.WHAT_IF_QUEUE,
  retryAfterSeconds: config.WHAT_IF_RETRY_AFTER_SECONDS,
  batchSize: config.WHAT_IF_BATCH_SIZE,
  timeoutMs: config.WHAT_IF_TIMEOUT_SECONDS * 1000,
});

/** The limits of an empty environment: the defaults of the variables above, nowhere else. */
export const defaultBookingLimits: BookingLimits = bookingLimitsOf(ConfigSchema.parse({}));

/** The library's time zone when TIME_ZONE is not set. */
export const defaultTimeZone: string = ConfigSchema.parse({}).TIME_ZONE;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const relevant = Object.fromEntries(
    Object.keys(ConfigSchema.shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = ConfigSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const sso = ssoConfigProblems(config);
  if (sso.length)
    throw new ConfigError(`Invalid configuration:\n${sso.map((l) => `  ${l}`).join('\n')}`);
  return {
    ...config,
    DATA_DIR: path.resolve(cwd, config.DATA_DIR),
    ...(config.BACKUP_DIR ? { BACKUP_DIR: path.resolve(cwd, config.BACKUP_DIR) } : {}),
    FRONTEND_DIST: path.resolve(cwd, config.FRONTEND_DIST),
  };
}

/** Whether staff may sign in with the campus identity (any provider configured). */
export const ssoConfigured = (
  config: Pick<Config, 'LDAP_URL' | 'OIDC_ISSUER' | 'SAML_IDP_METADATA'>,
): boolean =>
  config.LDAP_URL !== undefined ||
  config.OIDC_ISSUER !== undefined ||
  config.SAML_IDP_METADATA !== undefined;

/** The SAML ACS URL: SAML_ACS_URL, or /api/auth/saml/acs at the origin of a URL entity ID. */
export function samlAcsUrl(
  config: Pick<Config, 'SAML_ACS_URL' | 'SAML_SP_ENTITY_ID'>,
): string | null {
  if (config.SAML_ACS_URL) return config.SAML_ACS_URL;
  if (!config.SAML_SP_ENTITY_ID || !URL.canParse(config.SAML_SP_ENTITY_ID)) return null;
  const entity = new URL(config.SAML_SP_ENTITY_ID);
  if (entity.protocol !== 'https:' && entity.protocol !== 'http:') return null;
  return `${entity.origin}/api/auth/saml/acs`;
}

/** What the settings of the campus identity lack together (each variable alone is checked above). */
function ssoConfigProblems(config: Config): string[] {
  const problems: string[] = [];
  if (ssoConfigured(config) && !config.STAFF_ROLE_MAP)
    problems.push(
      'STAFF_ROLE_MAP: required with a campus sign-in (LDAP_URL, OIDC_ISSUER, SAML_IDP_METADATA): a JSON object of group to roles',
    );
  if (config.LDAP_URL && !config.LDAP_SEARCH_BASE)
    problems.push('LDAP_SEARCH_BASE: required with LDAP_URL');
  if (config.OIDC_ISSUER && !config.OIDC_CLIENT_ID)
    problems.push('OIDC_CLIENT_ID: required with OIDC_ISSUER');
  if (config.OIDC_ISSUER) {
    const issuer = new URL(config.OIDC_ISSUER);
    if (issuer.protocol !== 'https:' && !isLoopbackHost(issuer.hostname))
      problems.push('OIDC_ISSUER: must be https:// (plain http only on loopback, for tests)');
  }
  if (config.SAML_IDP_METADATA) {
    if (!config.SAML_SP_ENTITY_ID)
      problems.push('SAML_SP_ENTITY_ID: required with SAML_IDP_METADATA');
    else if (!samlAcsUrl(config))
      problems.push('SAML_ACS_URL: required when SAML_SP_ENTITY_ID is not an http(s) URL');
    if (
      /^[a-z]+:\/\//i.test(config.SAML_IDP_METADATA) &&
      !config.SAML_IDP_METADATA.startsWith('https://')
    )
      problems.push('SAML_IDP_METADATA: a file path or an https:// URL');
    if ((config.SAML_SP_KEY === undefined) !== (config.SAML_SP_CERT === undefined))
      problems.push('SAML_SP_KEY and SAML_SP_CERT: set both, or neither');
  }
  if ((config.LDAP_BIND_DN === undefined) !== (config.LDAP_BIND_PASSWORD === undefined))
    problems.push('LDAP_BIND_DN and LDAP_BIND_PASSWORD: set both, or neither (anonymous search)');
  if (!config.LOCAL_SIGN_IN && !ssoConfigured(config) && config.LOCAL_SIGN_IN_ACCOUNTS.length === 0)
    problems.push(
      'LOCAL_SIGN_IN_ACCOUNTS: with LOCAL_SIGN_IN=false and no campus sign-in, nobody could sign in',
    );
  return problems;
}
