import { Worker } from 'node:worker_threads';
import { Problem } from '@rr/platform';
import type { CalendarImportLimits, CalendarReading } from './ical.ts';
import type { WorkerAnswer } from './calendar-reader-worker.ts';

export interface CalendarReaderOptions {
  /**
   * A reading that takes longer is stopped (a pathological recurrence rule): calendar__too_complex.
   * The server's comes from the config (HOLIDAY_IMPORT_READ_TIMEOUT_MS).
   */
  timeoutMs: number;
  /** Heap of the worker: a reading that needs more is stopped the same way (default 256 MB). */
  maxHeapMb?: number;
}

/**
 * Reads a calendar file in a worker thread, so parsing and expanding it never block the server's
 * event loop, whatever the file; one reading at a time per process (a second import waits), with
 * a time and a memory limit. The worker loads TypeScript through tsx's API: it runs the same way
 * under `node --import tsx`, under vitest and in the benchmarks.
 */
export function readCalendarOffThread(
  bytes: Uint8Array,
  limits: CalendarImportLimits,
  options: CalendarReaderOptions,
): Promise<CalendarReading> {
  const turn = queue.then(() => readInWorker(bytes, limits, options));
  queue = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

let queue: Promise<void> = Promise.resolve();

/** The compiled release (`npm run build:server`) runs JavaScript and has no tsx. */
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_URL = new URL(
  COMPILED ? './calendar-reader-worker.js' : './calendar-reader-worker.ts',
  import.meta.url,
).href;
/** An eval'd CommonJS bootstrap: registers tsx's loader (from source), then imports the worker module. */
const BOOTSTRAP = COMPILED
  ? `import(${JSON.stringify(WORKER_URL)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

function readInWorker(
  bytes: Uint8Array,
  limits: CalendarImportLimits,
  options: CalendarReaderOptions,
): Promise<CalendarReading> {
  // A copy of its own, handed over to the worker (the upload's buffer may share memory).
  const copy = new Uint8Array(bytes);
  return new Promise<CalendarReading>((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      // The compiled worker resolves the @rr packages to their compiled output as the server does.
      execArgv: COMPILED ? ['--conditions=rr-compiled'] : [],
      workerData: { bytes: copy, limits },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 256 },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(tooComplex())), options.timeoutMs);
    worker.on('message', (answer: WorkerAnswer) =>
      settle(() => (answer.ok ? resolve(answer.reading) : reject(calendarProblem(answer)))),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooComplex() : err)),
    );
    worker.on('exit', () =>
      settle(() => reject(new Error('the calendar reader stopped without an answer'))),
    );
  });
}

const tooComplex = () =>
  new Problem(
    400,
    'calendar__too_complex',
    'The calendar file takes too long or too much memory to read',
  );

/** The problem for a file the reader refused; the too_many codes name their limit (payload). */
export function calendarProblem(answer: Extract<WorkerAnswer, { ok: false }>): Problem {
  const limit = String(answer.limit ?? '');
  switch (answer.fault) {
    case 'too_many_events':
      return new Problem(
        400,
        'calendar__too_many_events',
        `The calendar file has more than ${limit} events`,
        [limit],
      );
    case 'too_many_occurrences':
      return new Problem(
        400,
        'calendar__too_many_occurrences',
        `The calendar file's events and series have more than ${limit} occurrences`,
        [limit],
      );
    case 'too_many_days':
      return new Problem(
        400,
        'calendar__too_many_days',
        `The calendar file has more than ${limit} holidays in the import window`,
        [limit],
      );
    case 'invalid':
      return new Problem(400, 'calendar__invalid_file', 'Not an iCalendar file');
  }
}
