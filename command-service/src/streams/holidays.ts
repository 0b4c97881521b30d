import {
  HOLIDAYS_STREAM,
  streamAppendOf,
  holidaysStream,
  type AppendRequest,
  type HolidayEvent,
} from '@rr/events';

/**
 * The holidays stream (one for all holidays): its one append. Its state is the rows of
 * `holiday_state` (holidays/state.ts), which its lock guards.
 */

/** The command-side files whose decisions append to the holidays stream. */
export const writers = ['holidays/stream.ts'] as const;

export function appendToHolidays(
  holidays: { version: number },
  events: readonly HolidayEvent[],
): AppendRequest[] {
  return streamAppendOf(holidaysStream, HOLIDAYS_STREAM, holidays.version, events);
}
