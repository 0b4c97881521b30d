import { isValidLocalDate } from '@rr/contracts/dates';

/**
 * Date and time helpers. The API sends dates as `YYYY-MM-DD` and times as `HH:mm`; screens show
 * dates as dd.MM.yyyy and times as HH:mm (docs/product.md#limits). Dates are calendar days without a time
 * zone: they are handled as local midnight. Which strings are dates is the contracts' rule
 * (`isValidLocalDate`, docs/product.md#validation), the server's too.
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
  const trimmed = value.trim();
  if (!isValidLocalDate(trimmed)) return null;
  const [year, month, day] = trimmed.split('-').map(Number) as [number, number, number];
  return localDate(year, month - 1, day);
}

/** Local midnight of a day; days and months beyond their range roll over. */
export function localDate(year: number, monthIndex: number, day: number): Date {
  const date = new Date(year, monthIndex, day);
  if (year < 100) date.setFullYear(year, monthIndex, day); // not 19xx
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

/**
 * `HH:mm` of an instant in local time: the one clock style of every language, 24-hour as the
 * slots are (`Intl` would give "04:59 PM" in English).
 */
export function formatClockTime(instant: Date): string {
  return `${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
}

/** `dd.MM.yyyy, HH:mm:ss` of an instant in local time, in every language. */
export function formatDateTime(instant: Date): string {
  return `${formatDate(toIsoDate(instant))}, ${formatClockTime(instant)}:${pad(instant.getSeconds())}`;
}

/** `HH:mm-HH:mm` (docs/product.md#screens, calendar dialog). */
export function formatTimeRange(start: string, end: string): string {
  return `${formatTime(start)}-${formatTime(end)}`;
}

/** Today as `YYYY-MM-DD` (local time). */
export function todayIso(now: Date = new Date()): string {
  return toIsoDate(now);
}

/** The day `days` after a `YYYY-MM-DD` day (negative: before). */
export function addDaysIso(value: string, days: number): string {
  const date = parseIsoDate(value);
  if (!date) throw new RangeError(`Not a date: ${value}`);
  return toIsoDate(localDate(date.getFullYear(), date.getMonth(), date.getDate() + days));
}

/** A long, localised form of a `YYYY-MM-DD` day, e.g. "Montag, 2. März 2026". */
export function formatLongDate(value: string, locale: string): string {
  const date = parseIsoDate(value);
  return date ? new Intl.DateTimeFormat(locale, { dateStyle: 'full' }).format(date) : value;
}
