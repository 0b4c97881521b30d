/**
 * The worker thread of calendar-reader.ts: reads one calendar file and answers its holidays, or
 * the reason it cannot (a CalendarFault with its limit). It shares nothing with the server.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CalendarFileError, parseHolidayCalendar, type CalendarImportLimits } from './ical.ts';

export type WorkerAnswer =
  | { ok: true; reading: ReturnType<typeof parseHolidayCalendar> }
  | { ok: false; fault: CalendarFileError['fault']; limit?: number };

const { bytes, limits } = workerData as { bytes: Uint8Array; limits: CalendarImportLimits };

function answer(): WorkerAnswer {
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

parentPort?.postMessage(answer());
