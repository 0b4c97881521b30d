import { createLogger, loadConfig } from '@rr/platform';
import { openDatabase } from './database.ts';
import { openRuntime } from './runtime.ts';
import { runStaffUserRequest, staffUserRequest } from './staff-users.ts';

/** `npm run staff-user -- <username> <role>[,<role>...]` and its other actions: see staff-users.ts. */
const request = staffUserRequest(process.argv.slice(2), process.env);
if (request instanceof Error) {
  console.error(request.message);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'rr-staff-user');
const db = await openDatabase(config, logger);
const runtime = await openRuntime(db.url, config, logger);
let failed = false;
try {
  const outcome = await runStaffUserRequest(runtime.pool, request);
  if (outcome instanceof Error) {
    console.error(outcome.message);
    failed = true;
  } else {
    console.log(outcome);
    if (request.action === 'save' && request.generated)
      console.log(`password (shown once): ${request.password}`);
  }
} finally {
  await runtime.close();
  await db.stop();
}
if (failed) process.exit(1);
