import { monthDates, WEEKDAYS, type Weekday } from '@rr/contracts/dates';
import { addDaysIso, localDate, parseIsoDate, todayIso, toIsoDate } from './dates';

/**
 * Pure calendar math of the monthly slot calendar (docs/product.md#screens, "Calendar"), shared by the
 * admin calendar and the visitor calendar: weeks Monday to Sunday, day states from slots.
 */

/** A month; `month` is 1-12. */
export interface YearMonth {
  readonly year: number;
  readonly month: number;
}

// The weekdays of the API (Monday first) are the contracts'.
export { WEEKDAYS, type Weekday } from '@rr/contracts/dates';

/** The weekday of a date, Monday first. */
export function weekdayOf(date: Date): Weekday {
  return WEEKDAYS[(date.getDay() + 6) % 7]!;
}

/** Localised weekday names, Monday first (2024-01-01 was a Monday). */
export function weekdayNames(locale: string, width: 'long' | 'short'): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: width });
  return WEEKDAYS.map((_day, index) => format.format(new Date(2024, 0, 1 + index)));
}

/** "März 2026". */
export function formatYearMonth({ year, month }: YearMonth, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(
    new Date(year, month - 1, 1),
  );
}

export function yearMonthOfDate(date: Date): YearMonth {
  return { year: date.getFullYear(), month: date.getMonth() + 1 };
}

/**
 * The library's current month (in its time zone, not the device's: on the last evening of a
 * month a device in UTC is still in the month the library has left).
 */
export function currentYearMonth(now: Date = new Date()): YearMonth {
  const [year, month] = todayIso(now).split('-').map(Number) as [number, number];
  return { year, month };
}

export function shiftMonth({ year, month }: YearMonth, delta: number): YearMonth {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 };
}

export function compareYearMonth(a: YearMonth, b: YearMonth): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

const MIN_YEAR = 1900;
const MAX_YEAR = 2999;

function parseBounded(value: string | null | undefined, min: number, max: number): number | null {
  if (value === null || value === undefined || !/^\d{1,4}$/.test(value.trim())) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/** A year from a query parameter, or null when it is missing or absurd. */
export function parseYear(value: string | null | undefined): number | null {
  return parseBounded(value, MIN_YEAR, MAX_YEAR);
}

/**
 * The month of the query parameters `month` (1-12) and `year`; a missing or invalid part falls
 * back to the one of `fallback` (usually the current month).
 */
export function parseYearMonth(
  params: { readonly year?: string | null; readonly month?: string | null },
  fallback: YearMonth,
): YearMonth {
  return {
    year: parseYear(params.year) ?? fallback.year,
    month: parseBounded(params.month, 1, 12) ?? fallback.month,
  };
}

/** First and last day of a month as `YYYY-MM-DD` (the range a calendar loads). */
export function monthRange({ year, month }: YearMonth): { fromDate: string; untilDate: string } {
  return monthDates(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`);
}

export interface CalendarDay {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** Day of the month, 1-31. */
  readonly day: number;
  readonly weekday: Weekday;
  /** False for the days of the previous and next month that fill the first and last week. */
  readonly inMonth: boolean;
}

/** The weeks (Monday to Sunday) that cover a month, filled up with neighbouring days. */
export function monthWeeks(yearMonth: YearMonth): CalendarDay[][] {
  const { fromDate, untilDate } = monthRange(yearMonth);
  const first = parseIsoDate(fromDate)!;
  let date = addDaysIso(fromDate, -WEEKDAYS.indexOf(weekdayOf(first)));
  const weeks: CalendarDay[][] = [];
  while (date <= untilDate) {
    const week: CalendarDay[] = [];
    for (let index = 0; index < 7; index += 1) {
      const parsed = parseIsoDate(date)!;
      week.push({
        date,
        day: parsed.getDate(),
        weekday: weekdayOf(parsed),
        inMonth: date >= fromDate && date <= untilDate,
      });
      date = addDaysIso(date, 1);
    }
    weeks.push(week);
  }
  return weeks;
}

/**
 * The fields of a time slot the calendar needs. `failedRules` is the server's seat answer
 * (docs/product.md#states): whether a seat is left is the server's to say, since only it weighs
 * holds that have ended and seats the waitlist claims; the browser never counts tickets for it.
 */
export interface CalendarSlot {
  readonly id: string;
  readonly date: string;
  readonly startTime: string;
  readonly endTime: string;
  readonly capacity: number;
  readonly ticketCount: number;
  readonly failedRules: readonly string[];
}

/** A day without slots is empty; it is full when no slot has a free seat, otherwise free. */
export type DayStatus = 'empty' | 'free' | 'full';

/** Whether the server's seat answer found no seat left in the slot. */
export function isSlotFull(slot: Pick<CalendarSlot, 'failedRules'>): boolean {
  return slot.failedRules.includes('timeslot_no_tickets_left');
}

export function dayStatus(slots: readonly Pick<CalendarSlot, 'failedRules'>[]): DayStatus {
  if (slots.length === 0) return 'empty';
  return slots.every(isSlotFull) ? 'full' : 'free';
}

/** Slots grouped by day, each day sorted by start then end time. */
export function slotsByDate<S extends CalendarSlot>(slots: readonly S[]): Map<string, S[]> {
  const days = new Map<string, S[]>();
  for (const slot of slots) {
    const day = days.get(slot.date);
    if (day) day.push(slot);
    else days.set(slot.date, [slot]);
  }
  for (const day of days.values()) {
    day.sort(
      (a, b) => a.startTime.localeCompare(b.startTime) || a.endTime.localeCompare(b.endTime),
    );
  }
  return days;
}

/** Occupancy in percent for the progress bar: 0-100 (capped); no capacity counts as full. */
export function occupancyPercent(ticketCount: number, capacity: number): number {
  if (capacity <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((ticketCount / capacity) * 100)));
}

/** The keys that move the focus in the month grid (WAI-ARIA grid pattern). */
const GRID_KEYS = [
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
];

/**
 * The day the focus moves to from `date` with a key of the month grid, or null for any other
 * key: a day (left, right) or a week (up, down) on, which may leave the month; Home and End to
 * the first and last day of the week within the month (the row's first and last day cell); Page
 * Up and Page Down the same day a month back or on, or that month's last day when it is shorter.
 */
export function gridKeyTarget(date: string, key: string): string | null {
  if (!GRID_KEYS.includes(key)) return null;
  const parsed = parseIsoDate(date);
  if (!parsed) return null;
  const weekday = WEEKDAYS.indexOf(weekdayOf(parsed));
  const month = yearMonthOfDate(parsed);
  const { fromDate, untilDate } = monthRange(month);
  switch (key) {
    case 'ArrowLeft':
      return addDaysIso(date, -1);
    case 'ArrowRight':
      return addDaysIso(date, 1);
    case 'ArrowUp':
      return addDaysIso(date, -7);
    case 'ArrowDown':
      return addDaysIso(date, 7);
    case 'Home': {
      const monday = addDaysIso(date, -weekday);
      return monday < fromDate ? fromDate : monday;
    }
    case 'End': {
      const sunday = addDaysIso(date, 6 - weekday);
      return sunday > untilDate ? untilDate : sunday;
    }
    default: {
      const target = shiftMonth(month, key === 'PageUp' ? -1 : 1);
      const last = monthRange(target).untilDate;
      const day = Math.min(parsed.getDate(), Number(last.slice(8)));
      return toIsoDate(localDate(target.year, target.month - 1, day));
    }
  }
}

/** Why a day has no slots to offer, or more about it: a holiday's name, "not yet bookable". */
export interface DayNote {
  text: string;
  /** Shown in the day's cell instead of the text (the legend explains it). */
  symbol?: string;
}

/**
 * A day's accessible name: its date, "today", its note, its state (left out for a day without
 * slots that has a note: the note says why) and its further marks.
 */
export function dayLabel(parts: {
  date: string;
  today?: string | undefined;
  note?: DayNote | undefined;
  status: DayStatus;
  statusText: string;
  marks?: readonly string[];
}): string {
  return [
    parts.date,
    ...(parts.today ? [parts.today] : []),
    ...(parts.note ? [parts.note.text] : []),
    ...(parts.note && parts.status === 'empty' ? [] : [parts.statusText]),
    ...(parts.marks ?? []),
  ].join(', ');
}
