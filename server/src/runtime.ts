import { EventNotifier, EventStore, validateEvent } from '@rr/events';
import { readModelProjections, ProjectionRunner } from '@rr/projections';
import {
  ConfigError,
  createPool,
  migrate,
  persistentSecret,
  systemClock,
  type Clock,
  type Config,
  type Logger,
  type Pool,
} from '@rr/platform';
import type { CommandDeps } from '@rr/command-service';
import { emailKey } from '@rr/domain';

export interface Runtime {
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
    pool,
    store,
    notifier,
    deps: {
      store,
      pool,
      clock,
      logger,
      timeZone: config.TIME_ZONE,
      emailKey: (email) => emailKey(keySecret, email),
    },
    close: async () => {
      await notifier.stop();
      await pool.end();
    },
  };
}

/** Events per projection batch: PROJECTION_BATCH_SIZE when set (tests use small ones), else the default. */
function projectionBatchSize(raw = process.env.PROJECTION_BATCH_SIZE): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw new ConfigError(`PROJECTION_BATCH_SIZE must be an integer from 1 to 100000, not ${raw}`);
  return n;
}

export function startProjections(runtime: Runtime, logger: Logger): ProjectionRunner {
  const runner = new ProjectionRunner(
    {
      pool: runtime.pool,
      store: runtime.store,
      notifier: runtime.notifier,
      logger,
      batchSize: projectionBatchSize(),
    },
    readModelProjections,
  );
  runner.start();
  return runner;
}

export const readModelNames = readModelProjections.map((p) => p.name);
