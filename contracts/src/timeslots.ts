import * as z from 'zod/mini';
import { isValidLocalDate, WEEKDAYS } from './dates.ts';
import { crossRule, endAfterStart, intBetween, isoDate, time, untilNotBefore } from './fields.ts';

/** docs/product.md#validation, time slots and multi capacity. */

const capacity = () => intBetween(0, 99999);

/** Spec maxTimeSlots: one request creates at most this many time slots. */
export const MAX_TIME_SLOTS_PER_REQUEST = 999;

/** At least one weekday when the slot repeats (repeat-until after the start date). */
const weekdayWhenRepeating = crossRule('weekday', 'daysOfWeek', (v) => {
  const { startDate, repeatUntil, daysOfWeek } = v;
  const repeats =
    typeof startDate === 'string' &&
    typeof repeatUntil === 'string' &&
    isValidLocalDate(startDate) &&
    isValidLocalDate(repeatUntil) &&
    repeatUntil > startDate;
  return !repeats || !Array.isArray(daysOfWeek) || daysOfWeek.length > 0;
});

/**
 * Time slot add: start and end time required, end after start; start date required;
 * repeat-until not before the start date; a weekday when repeating; capacity 0-99999.
 */
export const TimeSlotInput = z
  .object({
    startTime: time(),
    endTime: time(),
    startDate: isoDate(),
    repeatUntil: z.nullish(isoDate()),
    daysOfWeek: z._default(z.array(z.enum(WEEKDAYS)).check(z.maxLength(7)), []),
    includeHolidays: z._default(z.boolean(), false),
    capacity: capacity(),
  })
  .check(
    endAfterStart('startTime', 'endTime'),
    untilNotBefore('startDate', 'repeatUntil'),
    weekdayWhenRepeating,
  );

/** Time slot edit: the times and the capacity, as when adding. */
export const TimeSlotUpdateInput = z
  .object({ startTime: time(), endTime: time(), capacity: capacity() })
  .check(endAfterStart('startTime', 'endTime'));

/** Multi capacity: start date required; end date not before it; capacity 0-99999. */
export const TimeSlotCapacityInput = z
  .object({ fromDate: isoDate(), untilDate: isoDate(), capacity: capacity() })
  .check(untilNotBefore('fromDate', 'untilDate'));

/** A date range of a read (calendars, slot lists): both dates, the end not before the start. */
export const DateRangeQuery = z
  .object({ fromDate: isoDate(), untilDate: isoDate() })
  .check(untilNotBefore('fromDate', 'untilDate'));
