import type { Server } from 'node:http';
import {
  ConfigError,
  EmbeddedPostgresError,
  createLogger,
  createReadPools,
  loadConfig,
  type Config,
  type Logger,
  listen,
  closeGracefully,
} from '@rr/platform';
import { ensureFirstAdmin, sessionMiddleware, type SessionMiddleware } from '@rr/identity';
import {
  startErasureJob,
  startExpiryJob,
  startNoShowJob,
  startWaitlistJob,
} from '@rr/command-service';
import { EventNotifier } from '@rr/events';
import { READ_MODELS_CHANNEL, startReminderJob } from '@rr/projections';
import { createApp, type Role } from './app.ts';
import { createGateway } from './gateway.ts';
import { openDatabase } from './database.ts';
import {
  mailDirOf,
  openRuntime,
  poolOptionsOf,
  readModelNames,
  startMailSender,
  startProjections,
  startPushSender,
  startWalletUpdater,
  startWebhookSender,
} from './runtime.ts';
import { seedDemoData } from './seed.ts';
import { startBackupJob } from './backup.ts';
import { recordRelease } from './release.ts';

/** How long a stop (SIGTERM, SIGINT) may take before the process exits anyway, with code 1. */
const SHUTDOWN_SECONDS = 15;

/**
 * One entry for every process of the product. SERVICE_ROLE picks what it runs:
 *   all        (default, `npm start`) API, projections and the built frontend on one port
 *   command    the command-service (writes)
 *   query      the query-service (reads)
 *   projector  the projection runner only
 */
async function main(): Promise<void> {
  const role = (process.env.SERVICE_ROLE ?? 'all') as Role | 'projector' | 'gateway';
  if (!['all', 'command', 'query', 'projector', 'gateway'].includes(role))
    throw new ConfigError(
      `SERVICE_ROLE must be all, command, query, projector or gateway, not ${role}`,
    );
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, `rr-${role}`);
  if (role === 'gateway') return runGateway(config, logger);
  const db = await openDatabase(config, logger);
  const runtime = await openRuntime(db.url, config, logger);
  await recordRelease(runtime.pool, runtime.deps.clock);
  await runtime.notifier.start();

  if (role === 'all' || role === 'command') {
    await ensureFirstAdmin(runtime.pool, config.ADMIN_USERNAME, config.ADMIN_PASSWORD, logger);
  }
  const runner = role === 'all' || role === 'projector' ? startProjections(runtime, logger) : null;
  if (role === 'all' && config.SEED_DEMO_DATA) {
    // Through the API, so after the projections started (its reads wait for them). The product
    // serves without its demo: a failure is logged, not fatal.
    try {
      const demo = await seedDemoData(runtime.deps, config, logger, readModelNames);
      if (demo) logger.info(demo, 'seeded demo data into the empty database');
    } catch (err) {
      logger.error({ err: String(err) }, 'demo seed failed; serving without the full demo');
    }
  }
  // Jobs run in every process of these roles, a projector standing by too: each decision is taken
  // on the locked streams (two rounds at once decide once), and a projector's death leaves them
  // running in the others.
  const expiry =
    role === 'all' || role === 'projector'
      ? startExpiryJob(runtime.deps, config.EXPIRY_JOB_INTERVAL_MS)
      : null;
  // The waitlist's matcher (offers freed seats, lapses offers), at the expiry's pace.
  const waitlist =
    role === 'all' || role === 'projector'
      ? startWaitlistJob(runtime.deps, config.EXPIRY_JOB_INTERVAL_MS)
      : null;
  const noShows =
    role === 'all' || role === 'projector'
      ? startNoShowJob(runtime.deps, config.NO_SHOW_JOB_INTERVAL_MS)
      : null;
  const mail =
    role === 'all' || role === 'projector' ? startMailSender(runtime, config, logger) : null;
  const webhooks =
    role === 'all' || role === 'projector' ? startWebhookSender(runtime, config, logger) : null;
  const pushes =
    role === 'all' || role === 'projector' ? startPushSender(runtime, config, logger) : null;
  const walletUpdates =
    role === 'all' || role === 'projector' ? startWalletUpdater(runtime, config, logger) : null;
  const reminders =
    role === 'all' || role === 'projector'
      ? startReminderJob(
          { pool: runtime.pool, clock: runtime.deps.clock, logger, timeZone: config.TIME_ZONE },
          config.REMINDER_JOB_INTERVAL_MS,
        )
      : null;
  const erasure =
    role === 'all' || role === 'projector'
      ? startErasureJob(runtime.deps, config.ERASURE_JOB_INTERVAL_MS, {
          mailDir: mailDirOf(config),
        })
      : null;

  // The server's own pg_dump archives (BACKUP_INTERVAL_HOURS, off by default), beside the jobs.
  const backups =
    (role === 'all' || role === 'projector') && config.BACKUP_INTERVAL_HOURS > 0
      ? startBackupJob(db.url, config, logger)
      : null;

  // Reads on streaming replicas (READ_DATABASE_URL): only the query routes; the primary's pool
  // keeps sessions (written on sign-in and touch), migrations, secrets and everything else.
  const reads =
    (role === 'all' || role === 'query') && config.READ_DATABASE_URL.length > 0
      ? createReadPools(config.READ_DATABASE_URL, runtime.pool, config.DB_POOL_SIZE, {
          logger,
          connections: poolOptionsOf(config),
        })
      : null;
  await reads?.ready();
  // Live availability's watcher learns from the projector when the read models moved.
  const readModelsMoved =
    (role === 'all' || role === 'query') && config.LIVE_WAKE
      ? new EventNotifier(db.url, READ_MODELS_CHANNEL)
      : null;
  await readModelsMoved?.start();
  let server: Server | null = null;
  let sessions: SessionMiddleware | null = null;
  if (role !== 'projector') {
    sessions = await sessionMiddleware(runtime.pool, {
      secret: config.SESSION_SECRET,
      secureCookie: config.COOKIE_SECURE,
    });
    const app = createApp({
      role,
      deps: runtime.deps,
      config,
      logger,
      sessions,
      readModels: readModelNames,
      serveFrontend: role === 'all',
      reads,
      readModelsMoved,
    });
    server = await listen(app, config.PORT, config.HOST, config.LISTEN_BACKLOG);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info({ port, host: config.HOST }, 'listening');
    if (role === 'all')
      console.log(
        `Reading-room reservations: http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}/ (admin: /admin/)`,
      );
  }

  // Each part stops in turn (SIGTERM, SIGINT); one that hangs is named when the deadline forces
  // the exit, so an operator (and the rolling-upgrade test) learns which part did not let go.
  stopOnSignals(logger, [
    // Stop accepting connections; requests in flight finish first.
    ['the HTTP server', () => (server ? closeGracefully(server) : undefined)],
    ['the hold expiry job', () => expiry?.stop()],
    ['the reminder job', () => reminders?.stop()],
    ['the waitlist job', () => waitlist?.stop()],
    ['the no-show job', () => noShows?.stop()],
    ['the mail job', () => mail?.stop()],
    ['the webhook job', () => webhooks?.stop()],
    ['the push job', () => pushes?.stop()],
    ['the wallet update job', () => walletUpdates?.stop()],
    ['the erasure job', () => erasure?.stop()],
    ['the backup job', () => backups?.stop()],
    ['the projections', () => runner?.stop()],
    ["the read models' notifications", () => readModelsMoved?.stop()],
    ['the sessions', () => Promise.resolve(sessions?.close())],
    ['the read replicas', () => reads?.close()],
    ['the database pools', () => runtime.close()],
    ['the embedded database', () => db.stop()],
  ]);
}

/** A named step of a process's stop: the HTTP server, a job, the pools. */
type StopPart = [name: string, stop: () => Promise<unknown> | undefined];

/** On SIGTERM or SIGINT, stops the parts in turn, and exits with code 1 if that takes too long. */
function stopOnSignals(logger: Logger, parts: StopPart[]): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    let stoppingPart = parts[0]![0];
    const force = setTimeout(() => {
      logger.error(
        { signal, part: stoppingPart, seconds: SHUTDOWN_SECONDS },
        'shutdown did not finish in time: exiting with code 1',
      );
      process.exit(1);
    }, SHUTDOWN_SECONDS * 1000);
    force.unref();
    for (const [name, stop] of parts) {
      stoppingPart = name;
      await stop();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** SERVICE_ROLE=gateway: routes /api writes to GATEWAY_COMMAND_URLS and reads to GATEWAY_QUERY_URLS, serves the SPA. */
async function runGateway(config: Config, logger: Logger): Promise<void> {
  if (!config.GATEWAY_COMMAND_URLS.length || !config.GATEWAY_QUERY_URLS.length) {
    throw new ConfigError(
      'The gateway needs GATEWAY_COMMAND_URLS and GATEWAY_QUERY_URLS (comma-separated URLs)',
    );
  }
  const app = createGateway({
    commandUrls: config.GATEWAY_COMMAND_URLS,
    queryUrls: config.GATEWAY_QUERY_URLS,
    frontendDist: config.FRONTEND_DIST,
    cspExtraOrigins: config.CSP_EXTRA_ORIGINS,
    logger,
  });
  const server = await listen(app, config.PORT, config.HOST, config.LISTEN_BACKLOG);
  logger.info({ port: config.PORT }, 'gateway listening');
  const stop = () => void closeGracefully(server).then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  // The cause and what to do, in words (PostgreSQL's last lines are in the message).
  else if (err instanceof EmbeddedPostgresError) console.error(`Start-up failed: ${err.message}`);
  else console.error('Start-up failed:', err);
  process.exit(1);
});
