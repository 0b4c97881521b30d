/**
 * The worker thread of calendar-reader.ts: reads the calendar files it is sent, one message each,
 * and answers each one's holidays, or the reason it cannot (a CalendarFault with its limit). It
 * shares nothing with the server, and keeps nothing from one file to the next.
 */
import { parentPort } from 'node:worker_threads';
import { CalendarFileError, parseHolidayCalendar, type CalendarImportLimits } from './ical.ts';

export type WorkerAnswer =
  | { ok: true; reading: ReturnType<typeof parseHolidayCalendar> }
  | { ok: false; fault: CalendarFileError['fault']; limit?: number };

export interface WorkerReading {
  bytes: Uint8Array;
  limits: CalendarImportLimits;
}

function answer({ bytes, limits }: WorkerReading): WorkerAnswer {
  try {
    const text = new TextDecoder('utf-8').decode(bytes);
    return { ok: true, reading: parseHolidayCalendar(text, limits) };
  } catch (err) {
    if (err instanceof CalendarFileError)
      return {
        ok: false,
        fault: err.fault,
        ...(err.limit === undefined ? {} : { limit: err.limit }),
      };
    return { ok: false, fault: 'invalid' };
  }
}

parentPort?.on('message', (reading: WorkerReading) => parentPort?.postMessage(answer(reading)));
