import { createLogger, loadConfig } from '@rr/platform';
import { readModelProjectionsIn, rebuildReadModels } from '@rr/projections';
import { openDatabase } from './database.ts';
import { openRuntime } from './runtime.ts';

/**
 * `npm run rebuild`: rebuilds every read model from the event log beside the live tables and swaps
 * them in with the checkpoints in one short transaction (the log is read once for all of them);
 * the service keeps serving reads meanwhile.
 */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'rr-rebuild');
const db = await openDatabase(config, logger);
const runtime = await openRuntime(db.url, config, logger);
const started = performance.now();
const results = await rebuildReadModels(
  runtime.pool,
  runtime.store,
  readModelProjectionsIn(config.TIME_ZONE),
);
const ms = Math.round(performance.now() - started);
for (const r of results) console.log(`rebuilt ${r.name}: ${r.applied} of ${r.events} events`);
console.log(
  `rebuilt ${results.length} read models from ${results[0]?.events ?? 0} events in ${ms} ms`,
);
await runtime.close();
await db.stop();
