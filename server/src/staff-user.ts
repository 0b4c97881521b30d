import { createLogger, loadConfig } from '@rr/platform';
import { openDatabase } from './database.ts';
import { openRuntime } from './runtime.ts';
import { staffUserCommand } from './staff-users.ts';

/** `npm run staff-user -- <username> <role>[,<role>...]` and its other actions: see staff-users.ts. */
const outcome = await staffUserCommand(process.argv.slice(2), process.env, async (use) => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'rr-staff-user');
  const db = await openDatabase(config, logger);
  const runtime = await openRuntime(db.url, config, logger);
  try {
    return await use(runtime.pool);
  } finally {
    await runtime.close();
    await db.stop();
  }
});
for (const line of outcome.out) console.log(line);
for (const line of outcome.err) console.error(line);
if (outcome.code !== 0) process.exit(outcome.code);
