import { addDays, addYears, isValid } from 'date-fns';

/**
 * Date and time helpers. The API sends dates as `YYYY-MM-DD` and times as `HH:mm`; screens show
 * dates as dd.MM.yyyy and times as HH:mm (spec section 9). Dates are calendar days without a time
 * zone: they are handled as local midnight.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

/** `YYYY-MM-DD` of a date in local time. */
export function toIsoDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of a `YYYY-MM-DD` day, or null when it is not a real calendar day. */
export function parseIsoDate(value: string): Date | null {
  const match = ISO_DATE.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  if (!isValid(date) || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  date.setFullYear(year); // years below 100
  return date;
}

export function isIsoDate(value: string): boolean {
  return parseIsoDate(value) !== null;
}

/** dd.MM.yyyy of a `YYYY-MM-DD` day; anything else is returned unchanged. */
export function formatDate(value: string): string {
  const match = ISO_DATE.exec(value);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : value;
}

/** HH:mm of `HH:mm` or `HH:mm:ss`; anything else is returned unchanged. */
export function formatTime(value: string): string {
  const match = TIME.exec(value);
  return match ? `${match[1]}:${match[2]}` : value;
}

/** `HH:mm-HH:mm` (spec section 2, calendar dialog). */
export function formatTimeRange(start: string, end: string): string {
  return `${formatTime(start)}-${formatTime(end)}`;
}

/** Minutes since midnight of a valid `HH:mm` (hour 0-23, minute 0-59), else null. */
export function minutesOf(value: string): number | null {
  const match = TIME.exec(value.trim());
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours <= 23 && minutes <= 59 ? hours * 60 + minutes : null;
}

/** Today as `YYYY-MM-DD` (local time). */
export function todayIso(now: Date = new Date()): string {
  return toIsoDate(now);
}

/** The day `days` after a `YYYY-MM-DD` day (negative: before). */
export function addDaysIso(value: string, days: number): string {
  const date = parseIsoDate(value);
  if (!date) throw new RangeError(`Not a date: ${value}`);
  return toIsoDate(addDays(date, days));
}

/** The same day `years` later (29 February becomes 28 February). */
export function addYearsIso(value: string, years: number): string {
  const date = parseIsoDate(value);
  if (!date) throw new RangeError(`Not a date: ${value}`);
  return toIsoDate(addYears(date, years));
}

/** A long, localised form of a `YYYY-MM-DD` day, e.g. "Montag, 2. März 2026". */
export function formatLongDate(value: string, locale: string): string {
  const date = parseIsoDate(value);
  return date ? new Intl.DateTimeFormat(locale, { dateStyle: 'full' }).format(date) : value;
}
