/**
 * Local calendar dates `YYYY-MM-DD` and wall-clock times `HH:mm` as the API sends them. Dates are
 * 0001-01-01 to 9999-12-31 (PostgreSQL has no year 0); times have hour 0-23 and minute 0-59
 * (docs/product.md#validation, time strings). Zero-padded, both compare as strings in time order.
 */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})$/;

export const WEEKDAYS = [
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
  'SUNDAY',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A real calendar date `YYYY-MM-DD`, 0001-01-01 to 9999-12-31. */
export function isValidLocalDate(s: string): boolean {
  if (!DATE_PATTERN.test(s) || s < '0001-01-01') return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const DAY_MS = 86_400_000;

/**
 * Days from `from` to `until`, both valid dates. A period's length is measured so, not by
 * comparing its end with a date so many days after its start: the day after 9999-12-31 has no
 * `YYYY-MM-DD`.
 */
export function daysFromTo(from: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A time `HH:mm` with hour 0-23 and minute 0-59. */
export function isValidLocalTime(s: string): boolean {
  const m = TIME_PATTERN.exec(s);
  return !!m && Number(m[1]) <= 23 && Number(m[2]) <= 59;
}

/** The first and last day of a month `YYYY-MM` (a valid one), as `YYYY-MM-DD`. */
export function monthDates(month: string): { fromDate: string; untilDate: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  // Day 0 of the next month is this month's last; setUTCFullYear keeps years below 100 as they are.
  const last = new Date(Date.UTC(2000, m, 0));
  last.setUTCFullYear(year, m, 0);
  return {
    fromDate: `${month}-01`,
    untilDate: `${month}-${String(last.getUTCDate()).padStart(2, '0')}`,
  };
}
