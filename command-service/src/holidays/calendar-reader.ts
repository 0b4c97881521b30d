import { Worker } from 'node:worker_threads';
import { Problem } from '@rr/platform';
import type { CalendarImportLimits, CalendarReading } from './ical.ts';
import type { WorkerAnswer, WorkerReading } from './calendar-reader-worker.ts';

export interface CalendarReaderOptions {
  /**
   * A reading that takes longer is stopped (a pathological recurrence rule): calendar__too_complex.
   * The server's comes from the config (HOLIDAY_IMPORT_READ_TIMEOUT_MS).
   */
  timeoutMs: number;
  /** Heap of the worker: a reading that needs more is stopped the same way (default 256 MB). */
  maxHeapMb?: number;
  /** How long the worker is kept for the next reading after one ends (default a minute). */
  keepMs?: number;
}

/**
 * Reads a calendar file in a worker thread, so parsing and expanding it never block the server's
 * event loop, whatever the file; one reading at a time per process (a second import waits), with
 * a time and a memory limit. The worker loads TypeScript through tsx's API: it runs the same way
 * under `node --import tsx`, under vitest and in the benchmarks.
 *
 * Starting the worker costs more than reading most files (loading its modules: about 1.6 s of CPU
 * from source, where tsx compiles them), so one worker serves the readings that follow within
 * `keepMs` of each other. A reading it had to stop (time or memory) ends it: the next one starts
 * afresh, as does one with another heap limit. Between readings the worker never keeps the
 * process alive.
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
const DEFAULT_HEAP_MB = 256;
const DEFAULT_KEEP_MS = 60_000;

/** The worker kept between readings, with the heap limit it was started with. */
let kept: { worker: Worker; heapMb: number; idle: NodeJS.Timeout | null } | null = null;
let started = 0;

/** How many reader threads this process has started (the tests see one serve several readings). */
export const calendarReaderThreadsStarted = (): number => started;
/** Whether a reader thread is kept for the next reading. */
export const calendarReaderKept = (): boolean => kept !== null;

function readerThread(heapMb: number) {
  if (kept && kept.heapMb === heapMb) {
    if (kept.idle) clearTimeout(kept.idle);
    kept.idle = null;
    return kept;
  }
  if (kept) endReader(kept.worker);
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    // The compiled worker resolves the @rr packages to their compiled output as the server does.
    execArgv: COMPILED ? ['--conditions=rr-compiled'] : [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    stdout: false,
    stderr: false,
  });
  started += 1;
  // Between readings nothing else listens: a failing idle worker is ended, not the process.
  worker.on('error', () => endReader(worker));
  kept = { worker, heapMb, idle: null };
  return kept;
}

function endReader(worker: Worker) {
  if (kept?.worker === worker) {
    if (kept.idle) clearTimeout(kept.idle);
    kept = null;
  }
  void worker.terminate();
}

function readInWorker(
  bytes: Uint8Array,
  limits: CalendarImportLimits,
  options: CalendarReaderOptions,
): Promise<CalendarReading> {
  const reader = readerThread(options.maxHeapMb ?? DEFAULT_HEAP_MB);
  const { worker } = reader;
  // A copy of its own, handed over to the worker (the upload's buffer may share memory).
  const copy = new Uint8Array(bytes);
  return new Promise<CalendarReading>((resolve, reject) => {
    const settle = (outcome: 'kept' | 'ended', fn: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (outcome === 'ended') endReader(worker);
      else {
        worker.unref();
        reader.idle = setTimeout(() => endReader(worker), options.keepMs ?? DEFAULT_KEEP_MS);
        reader.idle.unref();
      }
      fn();
    };
    const onMessage = (answer: WorkerAnswer) =>
      settle('kept', () => (answer.ok ? resolve(answer.reading) : reject(calendarProblem(answer))));
    const onError = (err: Error & { code?: string }) =>
      settle('ended', () => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooComplex() : err));
    const onExit = () =>
      settle('ended', () => reject(new Error('the calendar reader stopped without an answer')));
    const timer = setTimeout(() => settle('ended', () => reject(tooComplex())), options.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    // A reading under way keeps the process alive; the worker's start is part of its time.
    worker.ref();
    const reading: WorkerReading = { bytes: copy, limits };
    worker.postMessage(reading, [copy.buffer]);
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
