import { formatClockTime, parseIsoDate, localDate, toIsoDate } from './dates';

/** Date helpers only the staff app uses (kept out of the visitor's download). */

/** HH:mm in the browser's time of an instant (`2026-06-03T09:15:00.000Z`); else unchanged. */
export function formatClock(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : formatClockTime(date);
}

/** The same day `years` later (29 February becomes 28 February). */
export function addYearsIso(value: string, years: number): string {
  const date = parseIsoDate(value);
  if (!date) throw new RangeError(`Not a date: ${value}`);
  const [year, month] = [date.getFullYear() + years, date.getMonth()];
  const lastDay = localDate(year, month + 1, 0).getDate();
  return toIsoDate(localDate(year, month, Math.min(date.getDate(), lastDay)));
}
