import {
  EventNotifier,
  EventStore,
  validateEvent,
  type CommitGroupSettings,
  type Projection,
} from '@rr/events';
import {
  composeReminderPush,
  mailOutboxReactor,
  MailSender,
  readModelProjections,
  readModelProjectionsIn,
  ProjectionRunner,
} from '@rr/projections';
import {
  outboundPolicyOf,
  pushPolicyOf,
  PushSender,
  webhookReactor,
  walletReactor,
  WalletUpdater,
  WebhookSender,
  webhookSigningKey,
} from '@rr/integrations';
import path from 'node:path';
import {
  bookingLimitsOf,
  createPool,
  migrate,
  persistentSecret,
  systemClock,
  type Clock,
  type Config,
  type Logger,
  type Pool,
  type PoolOptions,
  whatIfSettingsOf,
  seatPlanLimitsOf,
  webPushSettingsOf,
  walletsConfigured,
} from '@rr/platform';
import { calendarImportSettings, humanCheck, type CommandDeps } from '@rr/command-service';
import { SCHEMA_MIGRATION_DIRS } from './schema.ts';
import {
  checkInCodes,
  emailKey,
  myBookingsLinks,
  subjectKey,
  waitlistReferences,
} from '@rr/platform';

/**
 * How the projection runner batches and gathers (PROJECTION_BATCH_SIZE, PROJECTION_GATHER_MS,
 * PROJECTION_QUIET_GATHER_MS, PROJECTION_QUIET_BATCH_SIZE, PROJECTION_QUIET_TRANSACTION_MS).
 */
export const projectionSettingsOf = (config: Config) => ({
  batchSize: config.PROJECTION_BATCH_SIZE,
  gatherMs: config.PROJECTION_GATHER_MS,
  quietGatherMs: config.PROJECTION_QUIET_GATHER_MS,
  quietBatchSize: config.PROJECTION_QUIET_BATCH_SIZE,
  quietTransactionMs: config.PROJECTION_QUIET_TRANSACTION_MS,
});

export interface Runtime {
  projectionSettings: ReturnType<typeof projectionSettingsOf>;
  pool: Pool;
  store: EventStore;
  deps: CommandDeps;
  notifier: EventNotifier;
  close(): Promise<void>;
}

/** How the process's connections talk to PostgreSQL (platform/src/db.ts). */
export const poolOptionsOf = (config: Config): PoolOptions => ({
  pipeline: config.DB_PIPELINE,
  coalesceWrites: config.DB_COALESCE_WRITES,
});

/** How the visitors' commands share their commits (GROUP_COMMIT…); undefined: each alone. */
export const groupCommitOf = (
  config: Pick<Config, 'GROUP_COMMIT' | 'GROUP_COMMIT_MAX_MEMBERS' | 'GROUP_COMMIT_GROUPS'>,
): CommitGroupSettings | undefined =>
  config.GROUP_COMMIT
    ? { maxMembers: config.GROUP_COMMIT_MAX_MEMBERS, maxGroups: config.GROUP_COMMIT_GROUPS }
    : undefined;

/**
 * The event store of a process: events checked against the catalogue, recorded at the clock's
 * time, the visitors' commands sharing their commits as configured (groupCommitOf).
 */
export function createStore(pool: Pool, clock: Clock, config?: Config): EventStore {
  return new EventStore(pool, {
    validate: validateEvent,
    clock,
    groupCommit: config && groupCommitOf(config),
  });
}

/** Connects to the database, migrates it, and wires the store: what every service process needs. */
export async function openRuntime(
  url: string,
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<Runtime> {
  const pool = createPool(url, config.DB_POOL_SIZE, poolOptionsOf(config));
  await migrate(pool, SCHEMA_MIGRATION_DIRS);
  const store = createStore(pool, clock, config);
  const notifier = new EventNotifier(url);
  const keySecret = await persistentSecret(pool, 'visitor_key_secret', config.VISITOR_KEY_SECRET);
  return {
    projectionSettings: projectionSettingsOf(config),
    pool,
    store,
    notifier,
    deps: {
      store,
      pool,
      clock,
      logger,
      timeZone: config.TIME_ZONE,
      limits: bookingLimitsOf(config),
      calendarImport: calendarImportSettings(config),
      closureMaxDays: config.CLOSURE_MAX_DAYS,
      seatPlans: seatPlanLimitsOf(config),
      waitlistPassOver: config.WAITLIST_PASS_OVER,
      whatIf: whatIfSettingsOf(config, url),
      staffSignInRecordDays: config.STAFF_SIGN_IN_RECORD_DAYS,
      verifyHuman: humanCheck(config.RECAPTCHA_SECRET, config.RECAPTCHA_VERIFY_URL, logger),
      emailKey: (email) => emailKey(keySecret, email),
      subjectKey: (subject) => subjectKey(keySecret, subject),
      checkInCodes: checkInCodes(keySecret),
      waitlistReferences: waitlistReferences(keySecret),
      myBookingsLinks: myBookingsLinks(keySecret),
    },
    close: async () => {
      await notifier.stop();
      await pool.end();
    },
  };
}

/**
 * The reactors that fill the outboxes from the log (mails, webhook deliveries, wallet pass
 * updates), each on its own checkpoint beside the read models.
 */
export const outboxReactors: readonly Projection[] = [
  mailOutboxReactor,
  webhookReactor,
  walletReactor,
];

export function startProjections(runtime: Runtime, logger: Logger): ProjectionRunner {
  const runner = new ProjectionRunner(
    {
      pool: runtime.pool,
      store: runtime.store,
      notifier: runtime.notifier,
      logger,
      ...runtime.projectionSettings,
    },
    [readModelProjectionsIn(runtime.deps.timeZone), ...outboxReactors],
  );
  runner.start();
  return runner;
}

/** Where mails go as .eml files without SMTP_URL (the sender writes, the erasure job deletes). */
export const mailDirOf = (config: Config): string => path.join(config.DATA_DIR, 'mail');

/** The mail sender: SMTP_URL, or .eml files under DATA_DIR/mail when no SMTP server is configured. */
export function startMailSender(runtime: Runtime, config: Config, logger: Logger): MailSender {
  const sender = new MailSender({
    pool: runtime.pool,
    store: runtime.store,
    logger,
    clock: runtime.deps.clock,
    smtpUrl: config.SMTP_URL,
    mailDir: mailDirOf(config),
    from: config.MAIL_FROM,
    publicBaseUrl: config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}/`,
    timeZone: config.TIME_ZONE,
    intervalMs: config.MAIL_INTERVAL_MS,
    checkInCodes: runtime.deps.checkInCodes,
    waitlistReferences: runtime.deps.waitlistReferences,
    myBookingsLinks: runtime.deps.myBookingsLinks,
    library: { name: config.LIBRARY_NAME, contactEmail: config.LIBRARY_CONTACT_EMAIL },
  });
  sender.start();
  return sender;
}

/**
 * The webhook delivery job: sends the webhook outbox the webhook reactor fills (beside the mail
 * sender, in the processes that run the projections).
 */
export function startWebhookSender(
  runtime: Pick<Runtime, 'pool' | 'deps'>,
  config: Config,
  logger: Logger,
): WebhookSender {
  let signingKey: Promise<string> | null = null;
  const sender = new WebhookSender({
    pool: runtime.pool,
    clock: runtime.deps.clock,
    logger,
    policy: outboundPolicyOf(config),
    signingKey: () =>
      (signingKey ??= webhookSigningKey(runtime.pool, config).catch((err: unknown) => {
        signingKey = null;
        throw err;
      })),
    intervalMs: config.WEBHOOK_INTERVAL_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    concurrencyPerEndpoint: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
  });
  sender.start();
  return sender;
}

/**
 * The push job (reminders as notifications, integrations/src/push) when VAPID keys are configured:
 * beside the mail sender, composing each reminder from the write side as the mail does.
 */
export function startPushSender(
  runtime: Pick<Runtime, 'pool' | 'store' | 'deps'>,
  config: Config,
  logger: Logger,
): PushSender | null {
  const vapid = webPushSettingsOf(config);
  if (!vapid) return null;
  const sender = new PushSender({
    pool: runtime.pool,
    clock: runtime.deps.clock,
    logger,
    vapid,
    policy: pushPolicyOf(config),
    compose: composeReminderPush({
      pool: runtime.pool,
      store: runtime.store,
      clock: runtime.deps.clock,
      timeZone: config.TIME_ZONE,
      baseUrl: config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}/`,
    }),
    intervalMs: config.WEB_PUSH_INTERVAL_MS,
  });
  sender.start();
  return sender;
}

/** The read models' names (the same in every time zone). */
export const readModelNames = readModelProjections.map((p) => p.name);

/**
 * The wallet update job (moved and cancelled tickets' saved passes, integrations/src/wallet)
 * when a wallet is configured: beside the mail sender, sending the outbox the wallet reactor fills.
 */
export function startWalletUpdater(
  runtime: Pick<Runtime, 'pool' | 'deps'>,
  config: Config,
  logger: Logger,
): WalletUpdater | null {
  const wallets = walletsConfigured(config);
  if (!wallets.apple && !wallets.google) return null;
  const updater = new WalletUpdater({
    pool: runtime.pool,
    clock: runtime.deps.clock,
    logger,
    config,
    timeZone: config.TIME_ZONE,
    checkInCodes: runtime.deps.checkInCodes,
    intervalMs: config.WALLET_UPDATE_INTERVAL_MS,
  });
  updater.start();
  return updater;
}
