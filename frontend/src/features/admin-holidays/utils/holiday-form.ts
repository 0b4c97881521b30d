import type { Holiday, HolidayInput } from '../../../api/types';
import { isoDate, maxLength, required, type FormSchema } from '../../../lib/validation';

export const HOLIDAY_FIELDS = ['name', 'date', 'description'] as const;
export type HolidayField = (typeof HOLIDAY_FIELDS)[number];
export type HolidayFormValues = Record<HolidayField, string>;

export const HOLIDAY_FORM_DEFAULTS: HolidayFormValues = { name: '', date: '', description: '' };

/** Spec section 5, holiday: name required max 100, description max 500, date required. */
export const HOLIDAY_SCHEMA: FormSchema<HolidayField> = {
  name: [required, maxLength(100)],
  date: [required, isoDate],
  description: [maxLength(500)],
};

export function holidayToFormValues(holiday: Holiday): HolidayFormValues {
  return { name: holiday.name, date: holiday.date, description: holiday.description ?? '' };
}

/** The request body; an empty description is left out (spec section 3). */
export function formValuesToHoliday(values: HolidayFormValues): HolidayInput {
  const description = values.description.trim();
  return {
    name: values.name.trim(),
    date: values.date.trim(),
    ...(description ? { description } : {}),
  };
}

/** The holiday list at a year (query `year`). */
export function holidayListPath(year?: number | null): string {
  return year ? `/holiday-list?year=${year}` : '/holiday-list';
}

/** The list at the year of a `YYYY-MM-DD` day. */
export function holidayListPathAt(isoDay: string): string {
  const year = /^(\d{4})-/.exec(isoDay)?.[1];
  return holidayListPath(year ? Number(year) : null);
}
