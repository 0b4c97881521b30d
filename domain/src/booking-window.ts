import {
  roomOpenBounds,
  type DayType,
  type OpenBound,
  type OwnOpenBounds,
} from '@rr/contracts/rooms';
import { addDays, isWeekend, type LocalDate } from './calendar.ts';

export {
  DEFAULT_OPEN_END,
  DEFAULT_OPEN_START,
  roomOpenBounds,
  type DayType,
  type OpenBound,
  type OwnOpenBounds,
} from '@rr/contracts/rooms';

/** Working day: Monday to Friday and not a holiday. */
export function isWorkingDay(date: LocalDate, isHoliday: (d: LocalDate) => boolean): boolean {
  return !isWeekend(date) && !isHoliday(date);
}

/** The date `value` days, or working days, after today (0 = today). */
export function dateAfter(
  today: LocalDate,
  bound: OpenBound,
  isHoliday: (d: LocalDate) => boolean,
): LocalDate {
  if (bound.type === 'DAY') return addDays(today, bound.value);
  let date = today;
  let left = bound.value;
  while (left > 0) {
    date = addDays(date, 1);
    if (isWorkingDay(date, isHoliday)) left -= 1;
  }
  return date;
}

/**
 * When a room's slots can be booked online: from `openStart` days (or working days) after today
 * until `openEnd` days (or working days) after today, both inclusive. Outside it a slot carries
 * the failed rule `timeslot_not_open`.
 */
export function bookingWindow(
  today: LocalDate,
  openStart: OpenBound,
  openEnd: OpenBound,
  isHoliday: (d: LocalDate) => boolean,
): { from: LocalDate; until: LocalDate } {
  return {
    from: dateAfter(today, openStart, isHoliday),
    until: dateAfter(today, openEnd, isHoliday),
  };
}

/** The holiday dates of rooms, by room id: each room's, the whole system's and its site's. */
export type RoomHolidays = ReadonlyMap<string, ReadonlySet<LocalDate>>;

/** A room's booking window today: its bounds (roomOpenBounds) over its holidays. */
export function roomWindowOn(
  today: LocalDate,
  room: OwnOpenBounds,
  holidays: ReadonlySet<LocalDate> | undefined,
): { from: LocalDate; until: LocalDate } {
  const { openStart, openEnd } = roomOpenBounds(room);
  return bookingWindow(today, openStart, openEnd, (d) => holidays?.has(d) ?? false);
}

export function isOpenForBooking(
  date: LocalDate,
  window: { from: LocalDate; until: LocalDate },
): boolean {
  return date >= window.from && date <= window.until;
}

/**
 * A room's opening settings as the rooms read model stores them (null: the room sets none), its
 * site's (`site_window`, null: none), and the room's holidays (the whole system's and its site's).
 */
export interface RoomOpeningRow {
  open_start_type: DayType | null;
  open_start_value: number | null;
  open_end_type: DayType | null;
  open_end_value: number | null;
  site_window?: OwnOpenBounds | null;
  /** The room's holiday dates from today on (a few years' worth is plenty). */
  holidays: LocalDate[];
}

const bound = (type: DayType | null, value: number | null): OpenBound | null =>
  type !== null && value !== null ? { type, value } : null;

/** The bounds of a room read with its site's (roomOpenBounds: the room's, the site's, the default). */
export function rowOpenBounds(room: Omit<RoomOpeningRow, 'holidays'>): {
  openStart: OpenBound;
  openEnd: OpenBound;
} {
  return roomOpenBounds(
    {
      openStart: bound(room.open_start_type, room.open_start_value),
      openEnd: bound(room.open_end_type, room.open_end_value),
    },
    room.site_window,
  );
}

/** The booking window of a room read with its holidays (command and query side read the same row). */
export function roomBookingWindow(
  today: LocalDate,
  room: RoomOpeningRow,
): { from: LocalDate; until: LocalDate } {
  const holidays = new Set(room.holidays);
  const { openStart, openEnd } = rowOpenBounds(room);
  return bookingWindow(today, openStart, openEnd, (d) => holidays.has(d));
}

/**
 * The day from which a date after the booking window's end can be booked online: the first day
 * whose window reaches it (docs/product.md#booking-window). Both the visitor calendar and the
 * live display say it ("bookable online from …"), so they agree. Null when the date is not after
 * today's window, or when no window ever holds it (its start lies beyond its end).
 */
export function bookableOnlineFrom(
  date: LocalDate,
  today: LocalDate,
  openStart: OpenBound,
  openEnd: OpenBound,
  isHoliday: (d: LocalDate) => boolean,
): LocalDate | null {
  if (date <= dateAfter(today, openEnd, isHoliday)) return null;
  // The window's end reaches the date on the day `openEnd` days, or working days, before it: the
  // day before is one (working) day short of it.
  let from = date;
  if (openEnd.type === 'DAY') from = addDays(date, -openEnd.value);
  else
    for (let left = openEnd.value; left > 0;) {
      from = addDays(from, -1);
      if (isWorkingDay(from, isHoliday)) left -= 1;
    }
  return date >= dateAfter(from, openStart, isHoliday) ? from : null;
}

/** bookableOnlineFrom of a room read with its holidays (the calendar's and the display's rows). */
export function roomBookableOnlineFrom(
  date: LocalDate,
  today: LocalDate,
  room: RoomOpeningRow,
): LocalDate | null {
  const holidays = new Set(room.holidays);
  const { openStart, openEnd } = rowOpenBounds(room);
  return bookableOnlineFrom(date, today, openStart, openEnd, (d) => holidays.has(d));
}
