import { todayIn, type Config, type LocalDate } from '@rr/platform';
import type { CalendarImportLimits } from './ical.ts';

/** The bounds of an iCalendar import, from the config (HOLIDAY_IMPORT_*). */
export interface CalendarImportSettings {
  yearsBack: number;
  yearsAhead: number;
  maxEvents: number;
  maxOccurrences: number;
  maxHolidays: number;
  /** How long reading one file may take in its worker before it is stopped (calendar__too_complex). */
  readTimeoutMs: number;
}

export function calendarImportSettings(config: Config): CalendarImportSettings {
  return {
    yearsBack: config.HOLIDAY_IMPORT_YEARS_BACK,
    yearsAhead: config.HOLIDAY_IMPORT_YEARS_AHEAD,
    maxEvents: config.HOLIDAY_IMPORT_MAX_EVENTS,
    maxOccurrences: config.HOLIDAY_IMPORT_MAX_OCCURRENCES,
    maxHolidays: config.HOLIDAY_IMPORT_MAX_DAYS,
    readTimeoutMs: config.HOLIDAY_IMPORT_READ_TIMEOUT_MS,
  };
}

/**
 * The limits of an import today: whole years, from 1 January `yearsBack` years before this year
 * to 31 December `yearsAhead` years after it.
 */
export function calendarImportLimits(
  settings: CalendarImportSettings,
  now: Date,
  timeZone: string,
): CalendarImportLimits {
  const year = Number(todayIn(now, timeZone).slice(0, 4));
  const pad = (y: number) => String(Math.min(9999, Math.max(1, y))).padStart(4, '0');
  const from: LocalDate = `${pad(year - settings.yearsBack)}-01-01`;
  const until: LocalDate = `${pad(year + settings.yearsAhead)}-12-31`;
  return {
    from,
    until,
    maxEvents: settings.maxEvents,
    maxOccurrences: settings.maxOccurrences,
    maxHolidays: settings.maxHolidays,
  };
}
