import path from 'node:path';
import { z } from 'zod';
import type { BookingLimits } from '@rr/domain/limits';

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
  NO_SHOW_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(600000).default(30000),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Lesesaal-Reservierung <noreply@localhost>'),
  PUBLIC_BASE_URL: z.url().optional(),
  MAIL_INTERVAL_MS: z.coerce.number().int().min(50).max(600000).default(2000),
  // How often the reminder job looks for reminders now due.
  REMINDER_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // Failed sign-ins per user name and address, per address, per user name (in a window), and
  // the longest delay they cause (platform/src/sign-in-limit.ts).
  SIGN_IN_FAILURES_PER_ACCOUNT_ADDRESS: z.coerce.number().int().min(1).max(100000).default(5),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1000000).default(50),
  SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000000).default(25),
  SIGN_IN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  SIGN_IN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  RATE_LIMIT_CARTS: z.coerce.number().int().min(1).max(1000000).default(60),
  RATE_LIMIT_OWNER_LOOKUPS: z.coerce.number().int().min(1).max(1000000).default(120),
  READY_MAX_LAG: z.coerce.number().int().min(0).max(100000000).default(10000),
  GATEWAY_COMMAND_URLS: urlList,
  GATEWAY_QUERY_URLS: urlList,
  CSP_EXTRA_ORIGINS: urlList.transform((urls) => urls.map((u) => new URL(u).origin)),
  PROJECTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100000).default(500),
  HOLIDAY_IMPORT_YEARS_BACK: z.coerce.number().int().min(0).max(100).default(1),
  HOLIDAY_IMPORT_YEARS_AHEAD: z.coerce.number().int().min(0).max(100).default(5),
  HOLIDAY_IMPORT_MAX_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  HOLIDAY_IMPORT_MAX_OCCURRENCES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  HOLIDAY_IMPORT_MAX_DAYS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(30000).default(3000),
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
    'CART_HOLD_MINUTES' | 'MAX_CART_TICKETS' | 'MAX_TICKETS_PER_DAY' | 'MAX_TICKETS_PER_VISITOR'
  >,
): BookingLimits {
  return {
    holdMinutes: config.CART_HOLD_MINUTES,
    maxCartTickets: config.MAX_CART_TICKETS,
    maxTicketsPerDay: config.MAX_TICKETS_PER_DAY,
    maxTicketsPerVisitor: config.MAX_TICKETS_PER_VISITOR,
  };
}

/** The limits of an empty environment: the defaults of the variables above, nowhere else. */
export const defaultBookingLimits: BookingLimits = bookingLimitsOf(ConfigSchema.parse({}));

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
  return {
    ...config,
    DATA_DIR: path.resolve(cwd, config.DATA_DIR),
    ...(config.BACKUP_DIR ? { BACKUP_DIR: path.resolve(cwd, config.BACKUP_DIR) } : {}),
    FRONTEND_DIST: path.resolve(cwd, config.FRONTEND_DIST),
  };
}
