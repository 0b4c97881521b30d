import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  bookingLimitsOf,
  checkInCodes,
  waitlistReferences,
  myBookingsLinks,
  createLogger,
  createPool,
  loadConfig,
  systemClock,
  whatIfSettingsOf,
  seatPlanLimitsOf,
} from '@rr/platform';
import { calendarImportSettings } from '@rr/command-service';
import { openApiDocument } from './app.ts';
import { createStore } from './runtime.ts';

/** `npm run openapi`: writes the OpenAPI document (from the zod schemas) to .tmp/openapi.json. */
const pool = createPool('postgres://unused@127.0.0.1:1/unused');
const config = loadConfig({});
const doc = openApiDocument(
  {
    store: createStore(pool, systemClock),
    pool,
    clock: systemClock,
    timeZone: 'Europe/Vienna',
    emailKey: () => '',
    subjectKey: () => '',
    checkInCodes: checkInCodes('unused'),
    waitlistReferences: waitlistReferences('unused'),
    myBookingsLinks: myBookingsLinks('unused'),
    limits: bookingLimitsOf(config),
    calendarImport: calendarImportSettings(config),
    closureMaxDays: config.CLOSURE_MAX_DAYS,
    seatPlans: seatPlanLimitsOf(config),
    whatIf: whatIfSettingsOf(config, ''),
    staffSignInRecordDays: config.STAFF_SIGN_IN_RECORD_DAYS,
    verifyHuman: () => Promise.resolve(true),
    logger: createLogger('silent'),
  },
  config,
);
const out = path.resolve(process.argv[2] ?? '.tmp/openapi.json');
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(doc, null, 2) + '\n');
await pool.end();
console.log(`wrote ${out}`);
