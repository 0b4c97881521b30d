import { KeptThreads, Problem, ThreadStopped, workerModule } from '@rr/platform';
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
 * a time and a memory limit. One thread serves the readings that follow within `keepMs` of each
 * other (KeptThreads: starting one costs more than reading most files); a reading it had to stop
 * ends it, and the next one starts afresh.
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

const DEFAULT_HEAP_MB = 256;
/** One reading at a time: one thread to keep. */
const readers = new KeptThreads(workerModule(import.meta.url, './calendar-reader-worker'), 1);

/** How many reader threads this process has started (the tests see one serve several readings). */
export const calendarReaderThreadsStarted = (): number => readers.started;
/** Whether a reader thread is kept for the next reading. */
export const calendarReaderKept = (): boolean => readers.kept > 0;

async function readInWorker(
  bytes: Uint8Array,
  limits: CalendarImportLimits,
  options: CalendarReaderOptions,
): Promise<CalendarReading> {
  // A copy of its own, handed over to the worker (the upload's buffer may share memory).
  const copy = new Uint8Array(bytes);
  const reading: WorkerReading = { bytes: copy, limits };
  let answer: WorkerAnswer;
  try {
    answer = await readers.run<WorkerAnswer>({
      message: reading,
      transfer: [copy.buffer],
      timeoutMs: options.timeoutMs,
      heapMb: options.maxHeapMb ?? DEFAULT_HEAP_MB,
      keepMs: options.keepMs,
    });
  } catch (err) {
    if (err instanceof ThreadStopped && (err.reason === 'time' || err.reason === 'memory'))
      throw tooComplex();
    throw err;
  }
  if (answer.ok) return answer.reading;
  throw calendarProblem(answer);
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
