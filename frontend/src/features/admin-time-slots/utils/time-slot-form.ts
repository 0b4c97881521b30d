import { isValidLocalDate } from '@rr/contracts/dates';
import { TimeSlotCapacityInput, TimeSlotInput, TimeSlotUpdateInput } from '@rr/contracts/timeslots';
import type { TimeSlot, TimeSlotInput as TimeSlotBody } from '../../../api/types';
import { WEEKDAYS, type Weekday } from '../../../lib/calendar';
import { formatTime } from '../../../lib/dates';
import { formCheck } from '../../../lib/form-check';
import { numberOf, text } from '../../../lib/staff-forms';

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

/**
 * docs/product.md#validation: start 00:00, end 23:59 (a room has no opening hours of its own),
 * Monday to Friday, holidays excluded, the room's capacity (0 while it is not known).
 */
export function addFormDefaults(today: string, roomCapacity = 0): AddFormValues {
  return {
    startTime: '00:00',
    endTime: '23:59',
    startDate: today,
    repeatUntil: today,
    daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
    includeHolidays: false,
    capacity: String(roomCapacity),
  };
}

/**
 * docs/product.md#validation, time slot add: start and end time (end after start), start date, repeat-until
 * not before it, a weekday when repeating, capacity; checked with the contract.
 */
export const checkAddForm = formCheck(TimeSlotInput, (values: AddFormValues) => ({
  startTime: values.startTime,
  endTime: values.endTime,
  startDate: text(values.startDate),
  repeatUntil: text(values.repeatUntil),
  daysOfWeek: values.daysOfWeek,
  includeHolidays: values.includeHolidays,
  capacity: numberOf(values.capacity),
}));

/**
 * True when the slot repeats: repeat-until is a valid day after the start date. When it is the
 * start date (or empty), one slot is created on that day, whatever its weekday, even on a holiday.
 */
export function isRepeating(values: Pick<AddFormValues, 'startDate' | 'repeatUntil'>): boolean {
  const [start, until] = [values.startDate.trim(), values.repeatUntil.trim()];
  return isValidLocalDate(start) && isValidLocalDate(until) && until > start;
}

/** The request body for validated values. */
export function toTimeSlotInput(values: AddFormValues): TimeSlotBody {
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

/** docs/product.md#validation, time slot edit: the times and capacity as when adding; makes the body. */
export const checkEditForm = formCheck(TimeSlotUpdateInput, (values: EditFormValues) => ({
  startTime: values.startTime,
  endTime: values.endTime,
  capacity: numberOf(values.capacity),
}));

export function slotToEditValues(slot: TimeSlot): EditFormValues {
  return {
    startTime: formatTime(slot.startTime),
    endTime: formatTime(slot.endTime),
    capacity: String(slot.capacity),
  };
}

/* ---- Capacity of a date range ---- */

export const CAPACITY_FIELDS = ['fromDate', 'untilDate', 'capacity'] as const;
export type CapacityField = (typeof CAPACITY_FIELDS)[number];
export type CapacityFormValues = Record<CapacityField, string>;

/** docs/product.md#validation, multi capacity: both dates, the end not before the start; the capacity. */
export const checkCapacityForm = formCheck(TimeSlotCapacityInput, (values: CapacityFormValues) => ({
  fromDate: text(values.fromDate),
  untilDate: text(values.untilDate),
  capacity: numberOf(values.capacity),
}));
