/**
 * `npm run bench:holiday-import`: how fast a visitor stays while staff import the worst iCalendar
 * files (tests/support/holiday-import-load.ts: a series amplification, 79,000 events in 5 MB, the
 * largest accepted file), against the same visitor alone on the same app and database just
 * before. Prints the visitor's latencies, the event loop's delay, the health checks and the
 * imports' times, and the ratio of the p99s. The app runs in this process, as in the test.
 */
import { ManualClock } from '@rr/platform';
import { createUser } from '@rr/identity';
import { EventStore, validateEvent } from '@rr/events';
import { Client, startTestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import {
  HOLIDAY_IMPORT_FILES,
  runHolidayImportLoad,
  type LoadFigures,
} from '../support/holiday-import-load.ts';
import {
  percentiles,
  positiveNumber,
  printTable,
  round,
  runMain,
  withBenchDatabase,
  writeResults,
} from './lib.ts';

// The scenario's clock: the import window is 2025-01-01..2031-12-31, the slot a week ahead.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const SLOT_DAY = '2026-11-30';
/** Seconds the visitor books alone for the baseline (half before, half after a pause). */
const BASELINE_SECONDS = positiveNumber('BENCH_SECONDS', 10);

runMain(() =>
  withBenchDatabase({ poolSize: 20 }, async (bench) => {
    const store = new EventStore(bench.pool, { validate: validateEvent, clock });
    const app = await startTestApp(
      { url: bench.url, pool: bench.pool, store, drop: () => Promise.resolve() },
      clock,
    );
    try {
      await createUser(bench.pool, 'bench', 'bench password', ['admin']);
      const admin = new Client(app.baseUrl);
      const login = await admin.login('bench', 'bench password');
      if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
      const roomId = await createRoom(admin, 'Lesesaal Last');
      const slotId = await createSlot(admin, roomId, SLOT_DAY, '09:00', '17:00', 99_999);
      const scenario = { baseUrl: app.baseUrl, admin, roomId, slotId, slotDay: SLOT_DAY };

      // A warm-up the figures leave out: the first requests of a fresh process compile its code.
      await runHolidayImportLoad({
        ...scenario,
        files: [],
        quietMs: 1000,
        healthTimeoutMs: 10_000,
      });
      console.log(`the visitor alone for ${BASELINE_SECONDS} s ...`);
      const alone = await runHolidayImportLoad({
        ...scenario,
        files: [],
        quietMs: (BASELINE_SECONDS * 1000) / 2,
        healthTimeoutMs: 10_000,
      });
      console.log('the visitor while staff import the worst files ...');
      const during = await runHolidayImportLoad({
        ...scenario,
        files: HOLIDAY_IMPORT_FILES(),
        quietMs: 500,
        healthTimeoutMs: 10_000,
      });

      const row = (what: string, f: LoadFigures) => {
        const p = percentiles(f.latenciesMs);
        return [
          what,
          p.count,
          p.p50,
          p.p99,
          p.max,
          f.eventLoop.p99Ms,
          f.eventLoop.maxMs,
          `${f.health.answered}/${f.health.asked}`,
          Math.round(f.health.slowestMs),
          f.failures.length,
        ];
      };
      printTable(
        [
          'visitor',
          'requests',
          'p50 ms',
          'p99 ms',
          'max ms',
          'loop p99',
          'loop max',
          'health',
          'slowest health ms',
          'failed',
        ],
        [row('alone (baseline)', alone), row('during the imports', during)],
      );
      console.log();
      printTable(
        ['file', 'KiB', 'events', 'status', 'answer', 'import ms'],
        during.imports.map((f) => [
          f.file,
          Math.round(f.bytes / 1024),
          f.events,
          f.status,
          typeof f.body.error === 'string' ? f.body.error : `imported ${String(f.body.imported)}`,
          f.importMs,
        ]),
      );
      for (const failure of [...alone.failures, ...during.failures].slice(0, 5))
        console.log(`failed: ${failure.slice(0, 200)}`);
      const aloneP = percentiles(alone.latenciesMs);
      const duringP = percentiles(during.latenciesMs);
      const ratio = aloneP.p99 > 0 ? round(duringP.p99 / aloneP.p99) : 0;
      console.log(
        `\nvisitor p99 during the imports over alone: ${duringP.p99} / ${aloneP.p99} ms = ${ratio}` +
          `; RSS peak ${during.rss.peakMiB} MiB (before ${during.rss.beforeMiB} MiB)`,
      );
      await writeResults('holidayImport', {
        alone: { latencyMs: aloneP, eventLoop: alone.eventLoop, health: alone.health },
        during: {
          latencyMs: duringP,
          eventLoop: during.eventLoop,
          health: during.health,
          failures: during.failures.length,
          imports: during.imports.map(({ file, bytes, events, status, importMs }) => ({
            file,
            bytes,
            events,
            status,
            importMs,
          })),
          rssMiB: during.rss,
        },
        p99RatioToAlone: ratio,
      });
    } finally {
      await app.close();
    }
  }),
);
