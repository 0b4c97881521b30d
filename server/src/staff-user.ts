import { createLogger, loadConfig } from '@rr/platform';
import { openDatabase } from './database.ts';
import { openRuntime } from './runtime.ts';
import { saveStaffUser, staffUserRequest } from './staff-users.ts';

/** `npm run staff-user -- <username> <role>[,<role>...]`: see staff-users.ts. */
const request = staffUserRequest(process.argv.slice(2), process.env);
if (request instanceof Error) {
  console.error(request.message);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'rr-staff-user');
const db = await openDatabase(config, logger);
const runtime = await openRuntime(db.url, config, logger);
try {
  await saveStaffUser(runtime.pool, request);
  console.log(`staff user ${request.username}: roles ${request.roles.join(', ')}`);
  if (request.generated) console.log(`password (shown once): ${request.password}`);
} finally {
  await runtime.close();
  await db.stop();
}
