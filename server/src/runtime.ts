import { EventNotifier, EventStore, validateEvent } from '@rr/events';
import { readModelProjections, ProjectionRunner } from '@rr/projections';
import {
  createPool,
  migrate,
  persistentSecret,
  systemClock,
  type Clock,
  type Config,
  type Logger,
  type Pool,
} from '@rr/platform';
import { humanCheck, type CommandDeps } from '@rr/command-service';
import { emailKey } from '@rr/domain';

export interface Runtime {
  batchSize: number;
  pool: Pool;
  store: EventStore;
  deps: CommandDeps;
  notifier: EventNotifier;
  close(): Promise<void>;
}

export function createStore(pool: Pool): EventStore {
  return new EventStore(pool, { validate: validateEvent });
}

/** Connects to the database, migrates it, and wires the store: what every service process needs. */
export async function openRuntime(
  url: string,
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<Runtime> {
  const pool = createPool(url, config.DB_POOL_SIZE);
  await migrate(pool);
  const store = createStore(pool);
  const notifier = new EventNotifier(url);
  const keySecret = await persistentSecret(pool, 'visitor_key_secret', config.VISITOR_KEY_SECRET);
  return {
    batchSize: config.PROJECTION_BATCH_SIZE,
    pool,
    store,
    notifier,
    deps: {
      store,
      pool,
      clock,
      logger,
      timeZone: config.TIME_ZONE,
      limits: {
        holdMinutes: config.CART_HOLD_MINUTES,
        maxCartTickets: config.MAX_CART_TICKETS,
        maxTicketsPerDay: config.MAX_TICKETS_PER_DAY,
        maxTicketsPerVisitor: config.MAX_TICKETS_PER_VISITOR,
      },
      verifyHuman: humanCheck(config.RECAPTCHA_SECRET, config.RECAPTCHA_VERIFY_URL, logger),
      emailKey: (email) => emailKey(keySecret, email),
    },
    close: async () => {
      await notifier.stop();
      await pool.end();
    },
  };
}

export function startProjections(runtime: Runtime, logger: Logger): ProjectionRunner {
  const runner = new ProjectionRunner(
    {
      pool: runtime.pool,
      store: runtime.store,
      notifier: runtime.notifier,
      logger,
      batchSize: runtime.batchSize,
    },
    readModelProjections,
  );
  runner.start();
  return runner;
}

export const readModelNames = readModelProjections.map((p) => p.name);
