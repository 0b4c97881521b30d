import type {
  TimeSlot,
  TimeSlotCapacityInput,
  TimeSlotInput,
  TimeSlotUpdateInput,
} from '../../../api/types';
import { WEEKDAYS, type Weekday } from '../../../lib/calendar';
import { formatTime } from '../../../lib/dates';
import {
  between,
  endAfterStart,
  integer,
  isoDate,
  notBefore,
  required,
  time,
  type FormSchema,
  type ValidationError,
} from '../../../lib/validation';

const capacityRules = [required, integer, between(0, 99999)];

/* ---- Adding slots ---- */

export const ADD_FIELDS = [
  'startTime',
  'endTime',
  'startDate',
  'repeatUntil',
  'daysOfWeek',
  'capacity',
] as const;
export type AddField = (typeof ADD_FIELDS)[number];

export interface AddFormValues {
  startTime: string;
  endTime: string;
  startDate: string;
  repeatUntil: string;
  daysOfWeek: readonly Weekday[];
  includeHolidays: boolean;
  capacity: string;
}

/** Spec section 9: start 00:00, end 23:59, Monday to Friday, holidays excluded, capacity 0. */
export function addFormDefaults(today: string): AddFormValues {
  return {
    startTime: '00:00',
    endTime: '23:59',
    startDate: today,
    repeatUntil: today,
    daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
    includeHolidays: false,
    capacity: '0',
  };
}

/** Spec section 5, time slot add (single fields; the weekdays are checked by `addFormErrors`). */
export const ADD_SCHEMA: FormSchema<AddField> = {
  startTime: [required, time],
  endTime: [required, time],
  startDate: [required, isoDate],
  repeatUntil: [isoDate],
  daysOfWeek: [],
  capacity: capacityRules,
};

/** The string values `useValidatedForm` checks with `ADD_SCHEMA`. */
export function addStringValues(values: AddFormValues): Record<AddField, string> {
  return { ...values, daysOfWeek: values.daysOfWeek.join(',') };
}

/**
 * True when the slot repeats: repeat-until is a valid day after the start date. When it is the
 * start date (or empty), one slot is created on that day, whatever its weekday, even on a holiday.
 */
export function isRepeating(values: Pick<AddFormValues, 'startDate' | 'repeatUntil'>): boolean {
  return (
    isoDate(values.startDate) === null &&
    values.repeatUntil.trim() !== '' &&
    isoDate(values.repeatUntil) === null &&
    values.repeatUntil > values.startDate
  );
}

/** Cross-field errors: end after start, repeat-until not before start, a weekday when repeating. */
export function addFormErrors(values: AddFormValues): Partial<Record<AddField, ValidationError>> {
  const errors: Partial<Record<AddField, ValidationError>> = {};
  const timeError = endAfterStart(values.startTime, values.endTime);
  if (timeError) errors.endTime = timeError;
  const dateError = notBefore(values.startDate, values.repeatUntil);
  if (dateError) errors.repeatUntil = dateError;
  if (isRepeating(values) && values.daysOfWeek.length === 0) errors.daysOfWeek = { key: 'weekday' };
  return errors;
}

/** The request body for validated values. */
export function toTimeSlotInput(values: AddFormValues): TimeSlotInput {
  const base = {
    startTime: values.startTime.trim(),
    endTime: values.endTime.trim(),
    startDate: values.startDate.trim(),
    capacity: Number.parseInt(values.capacity.trim(), 10),
  };
  if (!isRepeating(values)) {
    // One-off: spec "created for all seven days including holidays".
    return {
      ...base,
      repeatUntil: base.startDate,
      daysOfWeek: [...WEEKDAYS],
      includeHolidays: true,
    };
  }
  return {
    ...base,
    repeatUntil: values.repeatUntil.trim(),
    // In calendar order, whatever order they were ticked in.
    daysOfWeek: WEEKDAYS.filter((day) => values.daysOfWeek.includes(day)),
    includeHolidays: values.includeHolidays,
  };
}

/* ---- Editing one slot ---- */

export const EDIT_FIELDS = ['startTime', 'endTime', 'capacity'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];
export type EditFormValues = Record<EditField, string>;

export const EDIT_SCHEMA: FormSchema<EditField> = {
  startTime: [required, time],
  endTime: [required, time],
  capacity: capacityRules,
};

export function slotToEditValues(slot: TimeSlot): EditFormValues {
  return {
    startTime: formatTime(slot.startTime),
    endTime: formatTime(slot.endTime),
    capacity: String(slot.capacity),
  };
}

export function editFormErrors(
  values: EditFormValues,
): Partial<Record<EditField, ValidationError>> {
  const error = endAfterStart(values.startTime, values.endTime);
  return error ? { endTime: error } : {};
}

export function toTimeSlotUpdate(values: EditFormValues): TimeSlotUpdateInput {
  return {
    startTime: values.startTime.trim(),
    endTime: values.endTime.trim(),
    capacity: Number.parseInt(values.capacity.trim(), 10),
  };
}

/* ---- Capacity of a date range ---- */

export const CAPACITY_FIELDS = ['fromDate', 'untilDate', 'capacity'] as const;
export type CapacityField = (typeof CAPACITY_FIELDS)[number];
export type CapacityFormValues = Record<CapacityField, string>;

/** Spec section 5, multi capacity. */
export const CAPACITY_SCHEMA: FormSchema<CapacityField> = {
  fromDate: [required, isoDate],
  untilDate: [required, isoDate],
  capacity: capacityRules,
};

export function capacityFormErrors(
  values: CapacityFormValues,
): Partial<Record<CapacityField, ValidationError>> {
  const error = notBefore(values.fromDate, values.untilDate);
  return error ? { untilDate: error } : {};
}

export function toCapacityInput(values: CapacityFormValues): TimeSlotCapacityInput {
  return {
    fromDate: values.fromDate.trim(),
    untilDate: values.untilDate.trim(),
    capacity: Number.parseInt(values.capacity.trim(), 10),
  };
}
