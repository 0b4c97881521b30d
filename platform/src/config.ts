import path from 'node:path';
import { z } from 'zod';
import { bool, hostList, listOf } from './config-values.ts';
import { ssoConfigProblems, staffSignInConfig } from './config-sign-in.ts';
import { webPushConfig, webPushConfigProblems } from './config-push.ts';
import { walletConfig, walletConfigProblems } from './config-wallet.ts';
import { visitorSignInConfig, visitorSignInConfigProblems } from './config-visitor-sign-in.ts';

const PG_PROTOCOL = /^postgres(ql)?$/;
const urlList = listOf(z.url());
/** PostgreSQL connection URLs. */
const pgUrlList = listOf(z.url({ protocol: PG_PROTOCOL }));

export const ConfigSchema = z.object({
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
  // Group commit of the cart commands (events/src/commit-group.ts): commands that arrive while
  // others are written share one transaction, at most this many, in at most this many at once.
  GROUP_COMMIT: bool.default(true),
  GROUP_COMMIT_MAX_MEMBERS: z.coerce.number().int().min(2).max(64).default(32),
  GROUP_COMMIT_GROUPS: z.coerce.number().int().min(1).max(32).default(2),
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
  // The per-visitor maxima per site (true) or across every site (docs/product.md#one-person-one-set-of-limits).
  LIMITS_PER_SITE: bool.default(false),
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
  // Seat plans (docs/product.md#seat-plans): the largest body that sets a room's seats (JSON or
  // CSV; 2000 seats with long notes fit in 1 MB) and the largest plan image (PNG, JPEG or SVG).
  SEAT_PLAN_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(16_777_216).default(1_048_576),
  SEAT_PLAN_IMAGE_MAX_BYTES: z.coerce.number().int().min(1024).max(16_777_216).default(2_097_152),
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
  ...staffSignInConfig.shape,
  ...walletConfig.shape,
  ...visitorSignInConfig.shape,
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
  // How long the read models gather commits after a notification before they read the log
  // (projections/src/runner.ts): commits close together are applied as one batch.
  PROJECTION_GATHER_MS: z.coerce.number().int().min(0).max(1000).default(5),
  // The same for the mail and webhook outbox reactors, which nobody waits for.
  PROJECTION_QUIET_GATHER_MS: z.coerce.number().int().min(0).max(10000).default(50),
  // The most events the outbox reactors take into one transaction. A reader of the log reads no
  // event committed after a transaction holding an id began, until it ends, unless it is told the
  // transaction appends no events (the projection runner tells its own groups: NonAppenders): an
  // outbox's long batch, catching up after a rush, would hold every other reader back that long.
  PROJECTION_QUIET_BATCH_SIZE: z.coerce.number().int().min(1).max(100000).default(25),
  // The time an outbox reactor's transaction aims at: it takes as many events it handles as the
  // time per such event last measured fits in (projections/src/transaction-pacer.ts), so a slow or
  // busy machine's outbox holds such readers back no longer than a fast one's.
  PROJECTION_QUIET_TRANSACTION_MS: z.coerce.number().int().min(1).max(10000).default(20),
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
  // Live availability (query-service/src/live-availability.ts): the open streams a query process
  // serves at most (one more is answered 503, the client polls instead), how often its one watcher
  // looks whether the read models moved, and the comment line that keeps idle streams open.
  LIVE_STREAMS_MAX: z.coerce.number().int().min(0).max(1_000_000).default(5000),
  LIVE_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(250),
  // The watcher woken by the projector's notification that the read models moved (off only to
  // measure: it then learns of them at its next poll), and the least time between two of its
  // looks when woken, so a stream of batches makes it read the watched months at most so often.
  LIVE_WAKE: bool.default(true),
  LIVE_WAKE_GAP_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
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
  // Webhooks (integrations/src/webhooks): http:// besides https://, hosts (names or addresses as
  // written in the URL) exempt from the internal-address check, how often the delivery job looks
  // for due deliveries, and the key the endpoints' secrets are derived from.
  WEBHOOK_ALLOW_HTTP: bool.default(false),
  WEBHOOK_ALLOWED_HOSTS: hostList,
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).max(600000).default(1000),
  // Webhook attempts under way at once in one process, and to one endpoint over every process
  // that sends (integrations/src/webhooks/sender.ts): endpoints are served side by side, so a
  // hanging one holds only its own places; one per endpoint keeps its deliveries one after another.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().min(1).max(100).default(1),
  WEBHOOK_SIGNING_KEY: z.string().min(32).optional(),
  ...webPushConfig.shape,
  // The server's own pg_dump archives (server/src/backup.ts): every this many hours (0: off),
  // the newest BACKUP_KEEP kept in BACKUP_DIR (default DATA_DIR/backups); PostgreSQL's client
  // programs from PG_BIN_DIR (default: Debian's newest /usr/lib/postgresql/N/bin, else PATH).
  BACKUP_INTERVAL_HOURS: z.coerce.number().min(0).max(8760).default(0),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10000).default(7),
  BACKUP_DIR: z.string().min(1).optional(),
  PG_BIN_DIR: z.string().min(1).optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

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
  const sso = [
    ...ssoConfigProblems(config),
    ...webPushConfigProblems(config),
    ...walletConfigProblems(config),
    ...visitorSignInConfigProblems(config),
  ];
  if (sso.length)
    throw new ConfigError(`Invalid configuration:\n${sso.map((l) => `  ${l}`).join('\n')}`);
  return {
    ...config,
    DATA_DIR: path.resolve(cwd, config.DATA_DIR),
    ...(config.BACKUP_DIR ? { BACKUP_DIR: path.resolve(cwd, config.BACKUP_DIR) } : {}),
    FRONTEND_DIST: path.resolve(cwd, config.FRONTEND_DIST),
  };
}
