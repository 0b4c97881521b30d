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

/** docs/product.md#configuration: the library's time zone when the server has not named one. */
export const DEFAULT_TIME_ZONE = 'Europe/Vienna';

let libraryTimeZone = DEFAULT_TIME_ZONE;
let partsFormat: Intl.DateTimeFormat | undefined;

/**
 * Sets the library's time zone (the server's `TIME_ZONE`, from `/api/settings`), in which every
 * instant is shown, whatever the device's zone. A name the browser does not know is ignored.
 */
export function setLibraryTimeZone(zone: string): void {
  try {
    partsFormat = instantFormat(zone);
    libraryTimeZone = zone;
  } catch {
    // RangeError: not a zone this browser knows; keep the one set before.
  }
}

/** The library's time zone (see `setLibraryTimeZone`). */
export function getLibraryTimeZone(): string {
  return libraryTimeZone;
}

function instantFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
}

/** An instant's parts (year, month, day, hour, minute, second) in the library's time zone, padded. */
function libraryParts(instant: Date): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  partsFormat ??= instantFormat(libraryTimeZone);
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of partsFormat.formatToParts(instant)) parts[type] = value;
  return parts;
}

/**
 * `HH:mm` of an instant in the library's time zone: the one clock style of every language,
 * 24-hour as the slots are (`Intl` would give "04:59 PM" in English).
 */
export function formatClockTime(instant: Date): string {
  const p = libraryParts(instant);
  return `${p.hour}:${p.minute}`;
}

/** `dd.MM.yyyy, HH:mm` of an instant in the library's time zone, in every language. */
export function formatDateMinute(instant: Date): string {
  const p = libraryParts(instant);
  return `${p.day}.${p.month}.${p.year}, ${p.hour}:${p.minute}`;
}

/** `dd.MM.yyyy, HH:mm:ss` of an instant in the library's time zone, in every language. */
export function formatDateTime(instant: Date): string {
  const p = libraryParts(instant);
  return `${p.day}.${p.month}.${p.year}, ${p.hour}:${p.minute}:${p.second}`;
}

/** `HH:mm-HH:mm` (docs/product.md#screens, calendar dialog). */
export function formatTimeRange(start: string, end: string): string {
  return `${formatTime(start)}-${formatTime(end)}`;
}

/** The library's day of an instant (default now) as `YYYY-MM-DD`, in its time zone. */
export function todayIso(now: Date = new Date()): string {
  const p = libraryParts(now);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The day `days` after a `YYYY-MM-DD` day (negative: before). */
export function addDaysIso(value: string, days: number): string {
  const date = parseIsoDate(value);
  if (!date) throw new RangeError(`Not a date: ${value}`);
  return toIsoDate(localDate(date.getFullYear(), date.getMonth(), date.getDate() + days));
}

/**
 * A long, localised form of a `YYYY-MM-DD` day, e.g. "Montag, 2. März 2026"; English in the
 * day-month-year order of every other date the product shows ("Monday, 2 March 2026", not
 * "March 2, 2026").
 */
export function formatLongDate(value: string, locale: string): string {
  const date = parseIsoDate(value);
  return date
    ? new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, { dateStyle: 'full' }).format(
        date,
      )
    : value;
}

/**
 * A short day of a `YYYY-MM-DD` date without its year, e.g. "04.12." (German) or "4 Dec"
 * (English), for "bookable online from …"; anything else is returned unchanged.
 */
export function formatDayMonth(value: string, locale: string): string {
  const date = parseIsoDate(value);
  if (!date) return value;
  if (locale !== 'en') return formatDate(value).slice(0, 6);
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(date);
}
