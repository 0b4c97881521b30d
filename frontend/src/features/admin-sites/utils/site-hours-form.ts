import { check, type FieldErrors } from '@rr/contracts/issues';
import {
  HOURS_DAYS,
  MAX_HOURS_EXCEPTIONS,
  MAX_HOURS_RANGES,
  SiteHoursInput,
  type HoursDay,
} from '@rr/contracts/sites';
import type { SiteHours, SiteHoursInput as SiteHoursRequest } from '../../../api/types';

/** One opening range as the form edits it (`HH:mm`, empty until chosen). */
export interface RangeValues {
  start: string;
  end: string;
}

/** A date with other hours as the form edits it: no ranges is closed that day. */
export interface ExceptionValues {
  date: string;
  ranges: RangeValues[];
  note: string;
  noteEn: string;
}

export interface HoursFormValues {
  weekly: Record<HoursDay, RangeValues[]>;
  exceptions: ExceptionValues[];
}

export { HOURS_DAYS, MAX_HOURS_EXCEPTIONS, MAX_HOURS_RANGES };

/** A site's hours as the form's values (the answers hold the upcoming exceptions only). */
export function hoursToFormValues(hours: SiteHours): HoursFormValues {
  const copy = (ranges: readonly RangeValues[]) => ranges.map(({ start, end }) => ({ start, end }));
  return {
    weekly: Object.fromEntries(HOURS_DAYS.map((day) => [day, copy(hours.weekly[day])])) as Record<
      HoursDay,
      RangeValues[]
    >,
    exceptions: hours.exceptions.map((e) => ({
      date: e.date,
      ranges: copy(e.ranges),
      note: e.note ?? '',
      noteEn: e.noteEn ?? '',
    })),
  };
}

/** The request of the form's values (checked by the contract the server checks with). */
export function hoursRequest(values: HoursFormValues): SiteHoursRequest {
  return {
    weekly: values.weekly,
    exceptions: values.exceptions.map((e) => ({
      date: e.date,
      ranges: e.ranges,
      note: e.note,
      noteEn: e.noteEn,
    })),
  };
}

/** The failed rule of each field, by its path (`weekly.mon.0.end`, `exceptions.2.date`). */
export function checkHours(values: HoursFormValues): FieldErrors {
  const result = check(SiteHoursInput, hoursRequest(values));
  return result.ok ? {} : result.errors;
}

/** The id of a field's control (or a day's group) by its path: `hours-weekly-mon-0-end`. */
export const hoursFieldId = (path: string) => `hours-${path.replace(/\./g, '-')}`;
