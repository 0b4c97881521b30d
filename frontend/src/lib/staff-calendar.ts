import { yearMonthOfDate, type CalendarSlot, type YearMonth } from './calendar';
import { parseIsoDate } from './dates';

/** Calendar helpers only the staff app uses (kept out of the visitor's download). */

/** The month of a `YYYY-MM-DD` day; null when it is not one. */
export function yearMonthOf(isoDate: string): YearMonth | null {
  const date = parseIsoDate(isoDate);
  return date ? yearMonthOfDate(date) : null;
}

/** Query string `?year=…&month=…` of a month, for links to a calendar. */
export function yearMonthSearch({ year, month }: YearMonth): string {
  return `?year=${year}&month=${month}`;
}

/** True when any slot has more tickets than capacity (the admin '!' mark). */
export function isOverbooked(
  slots: readonly Pick<CalendarSlot, 'capacity' | 'ticketCount'>[],
): boolean {
  return slots.some((slot) => slot.ticketCount > slot.capacity);
}
