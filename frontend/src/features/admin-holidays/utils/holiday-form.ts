import { HolidayInput } from '@rr/contracts/holidays';
import type { Holiday } from '../../../api/types';
import { formCheck } from '../../../lib/form-check';
import { text } from '../../../lib/staff-forms';

export const HOLIDAY_FIELDS = [
  'name',
  'nameEn',
  'date',
  'description',
  'descriptionEn',
  'siteId',
] as const;
export type HolidayField = (typeof HOLIDAY_FIELDS)[number];
export type HolidayFormValues = Record<HolidayField, string>;

export const HOLIDAY_FORM_DEFAULTS: HolidayFormValues = {
  name: '',
  nameEn: '',
  date: '',
  description: '',
  descriptionEn: '',
  siteId: '',
};

/** docs/product.md#validation, holiday: the request of the form's values, checked with the contract. */
export const checkHolidayForm = formCheck(HolidayInput, (values: HolidayFormValues) => ({
  name: values.name,
  nameEn: values.nameEn,
  date: text(values.date),
  description: values.description,
  descriptionEn: values.descriptionEn,
  // Empty (left out): a holiday of every site (docs/product.md#sites).
  siteId: text(values.siteId),
}));

export function holidayToFormValues(holiday: Holiday): HolidayFormValues {
  return {
    name: holiday.name,
    nameEn: holiday.nameEn ?? '',
    date: holiday.date,
    description: holiday.description ?? '',
    descriptionEn: holiday.descriptionEn ?? '',
    siteId: holiday.siteId ?? '',
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
