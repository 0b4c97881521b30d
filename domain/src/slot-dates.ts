import { datesBetween, weekdayOf, type LocalDate, type Weekday } from '@rr/platform';

export interface SlotSeries {
  startDate: LocalDate;
  /** Last date of a repeating series; absent or equal to startDate for a one-off slot. */
  repeatUntil?: LocalDate | undefined;
  daysOfWeek: Weekday[];
  includeHolidays: boolean;
}

/**
 * The dates a slot definition creates. A one-off (repeatUntil absent or equal to startDate) is
 * created whatever the weekday or holiday; a series takes each matching weekday between the
 * dates, skipping holidays unless they are included.
 */
export function slotDates(series: SlotSeries, isHoliday: (d: LocalDate) => boolean): LocalDate[] {
  if (!series.repeatUntil || series.repeatUntil === series.startDate) return [series.startDate];
  const days = new Set(series.daysOfWeek);
  return datesBetween(series.startDate, series.repeatUntil).filter(
    (d) => days.has(weekdayOf(d)) && (series.includeHolidays || !isHoliday(d)),
  );
}
