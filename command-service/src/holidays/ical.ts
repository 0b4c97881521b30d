import ICAL from 'ical.js';
import { addDays, isStorableText, isValidLocalDate } from '@rr/platform';

export interface ImportedHoliday {
  date: string;
  name: string;
  description: string | undefined;
}

export class CalendarFileError extends Error {
  override name = 'CalendarFileError';
}

const MAX_DAYS_PER_EVENT = 366;
const MAX_OCCURRENCES = 200;

/**
 * Reads the all-day events of an iCalendar file (ical.js handles folded lines and CRLF): each
 * becomes one holiday per day it covers (DTEND is exclusive); yearly and other recurrences are
 * expanded, bounded. Timed events are not holidays and are counted as skipped.
 */
export function parseHolidayCalendar(text: string): {
  holidays: ImportedHoliday[];
  ignored: number;
} {
  // NUL bytes make no calendar (and PostgreSQL stores no NUL); the file was read as UTF-8, so it
  // holds no lone surrogates.
  if (!isStorableText(text)) throw new CalendarFileError('not an iCalendar file');
  let root: ICAL.Component;
  try {
    // ical.js types parse() as any: a jCal array for one calendar in the file.
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new CalendarFileError('not an iCalendar file');
  }
  if (root.name !== 'vcalendar') throw new CalendarFileError('not an iCalendar file');
  const holidays: ImportedHoliday[] = [];
  let ignored = 0;
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    const start = event.startDate;
    if (!start || !start.isDate) {
      ignored += 1;
      continue;
    }
    const name = (event.summary ?? '').trim().slice(0, 100);
    if (!name) {
      ignored += 1;
      continue;
    }
    const descriptionRaw = (event.description ?? '').trim();
    const description = descriptionRaw ? descriptionRaw.slice(0, 500) : undefined;
    const durationDays = event.endDate
      ? Math.max(
          1,
          Math.min(
            MAX_DAYS_PER_EVENT,
            Math.round(event.endDate.subtractDate(start).toSeconds() / 86400),
          ),
        )
      : 1;
    const starts: string[] = [];
    if (event.isRecurring()) {
      const it = event.iterator();
      for (let next = it.next(), n = 0; next && n < MAX_OCCURRENCES; next = it.next(), n++)
        starts.push(next.toString().slice(0, 10));
    } else starts.push(start.toString().slice(0, 10));
    for (const first of starts) {
      // Dates without a YYYY-MM-DD form from 0001 to 9999 (year 0, 10000 and later) are skipped.
      if (!isValidLocalDate(first)) {
        ignored += 1;
        continue;
      }
      for (let i = 0; i < durationDays; i++) {
        const date = addDays(first, i);
        if (isValidLocalDate(date)) holidays.push({ date, name, description });
        else ignored += 1;
      }
    }
  }
  return { holidays, ignored };
}
