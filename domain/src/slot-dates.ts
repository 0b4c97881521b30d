import { WEEKDAYS, type LocalDate, type Weekday } from './calendar.ts';

export interface SlotSeries {
  startDate: LocalDate;
  /** Last date of a repeating series; absent or equal to startDate for a one-off slot. */
  repeatUntil?: LocalDate | undefined;
  daysOfWeek: Weekday[];
  includeHolidays: boolean;
}

const DAY_MS = 86_400_000;

/** Milliseconds of a date's UTC midnight (local dates carry no zone: UTC days have no DST). */
function utcMs(date: LocalDate): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/**
 * The dates a slot definition creates. A one-off (repeatUntil absent or equal to startDate) is
 * created whatever the weekday or holiday; a series takes each matching weekday between the
 * dates, skipping holidays unless they are included.
 *
 * With `max`, stops after max + 1 dates: a caller that allows at most `max` slots learns "more
 * than max" (length > max) without the whole series being built. The range is walked day by day
 * without materialising it (a date string only for a matching weekday), so even 0001-01-01 to
 * 9999-12-31 costs milliseconds; isHoliday is asked only about matching weekdays.
 */
export function slotDates(
  series: SlotSeries,
  isHoliday: (d: LocalDate) => boolean,
  max = Number.POSITIVE_INFINITY,
): LocalDate[] {
  if (!series.repeatUntil || series.repeatUntil === series.startDate) return [series.startDate];
  const out: LocalDate[] = [];
  const days = new Set(series.daysOfWeek);
  if (days.size === 0) return out;
  const until = utcMs(series.repeatUntil);
  let ms = utcMs(series.startDate);
  // 0 = MONDAY, as WEEKDAYS; getUTCDay counts from Sunday.
  let weekday = (new Date(ms).getUTCDay() + 6) % 7;
  // Stops at until rather than stepping past it (the day after 9999-12-31 has no YYYY-MM-DD form).
  for (; ms <= until; ms += DAY_MS, weekday = (weekday + 1) % 7) {
    if (!days.has(WEEKDAYS[weekday]!)) continue;
    const d = new Date(ms).toISOString().slice(0, 10);
    if (!series.includeHolidays && isHoliday(d)) continue;
    out.push(d);
    if (out.length > max) break;
  }
  return out;
}
