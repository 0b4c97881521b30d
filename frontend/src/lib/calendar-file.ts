import type { FileLike } from './image-file';

/** Holiday import limits (spec sections 5 and 9): text/calendar (ical, ics), at most 5 MB. */
export const MAX_CALENDAR_BYTES = 5 * 1024 * 1024;
/** Value of the file input's accept attribute. */
export const CALENDAR_ACCEPT = '.ics,.ical,text/calendar';

export type CalendarFileError = 'calendar-required' | 'calendar-type' | 'calendar-size';

function hasCalendarType(file: FileLike): boolean {
  if (file.type === 'text/calendar') return true;
  // Systems without a calendar MIME type report none or a generic one: go by the name.
  return /\.(ics|ical)$/i.test(file.name);
}

/** Checks a chosen calendar file before upload. */
export function checkCalendarFile(file: FileLike | null | undefined): CalendarFileError | null {
  if (!file) return 'calendar-required';
  if (!hasCalendarType(file)) return 'calendar-type';
  if (file.size > MAX_CALENDAR_BYTES) return 'calendar-size';
  return null;
}
