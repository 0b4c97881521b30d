import { createLogger, loadConfig } from '@rr/platform';
import { readModelProjections, rebuildProjection } from '@rr/projections';
import { openDatabase } from './database.ts';
import { openRuntime } from './runtime.ts';

/** `npm run rebuild`: rebuilds every read model from the event log, each in one transaction. */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'rr-rebuild');
const db = await openDatabase(config, logger);
const runtime = await openRuntime(db.url, config, logger);
for (const p of readModelProjections) {
  const started = Date.now();
  const n = await rebuildProjection(runtime.pool, runtime.store, p);
  console.log(`rebuilt ${p.name}: ${n} events in ${Date.now() - started} ms`);
}
await runtime.close();
await db.stop();
