import { TZDate } from '@date-fns/tz';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { instantOf } from './local-date.ts';

/**
 * Every iCalendar file the service writes (the calendar feeds, the mails' `.ics`) is written here,
 * by ical-generator only: every text (the calendar's name, an event's summary, location and
 * description) goes through the library's own escaping, which turns each line break into `\n`
 * and escapes `\`, `;` and `,`. So a name of a room can never start a line, and with it a
 * property or an event, of its own. Times are local times of the library's zone with its
 * VTIMEZONE, so every application shows the slot's own hours.
 */

export interface CalendarEntry {
  /** The UID's first part (a ticket's or a slot's id): applications update the same entry. */
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  summary: string;
  location?: string;
  description: string;
  status?: 'CONFIRMED' | 'CANCELLED';
  /** The entry's revision (a cancellation of a published entry is 1). */
  sequence?: number;
}

/** What an appointment's calendar entry has been through since the booking's mail published it. */
export interface EntryHistory {
  /** Rebookings of its chain: each new ticket keeps the UID of the first one. */
  moves: number;
  /** Seat changes of the chain's tickets, of the first one and of each that replaced it. */
  seatChanges: number;
  /** The entry is withdrawn (the cancellation's mail). */
  cancelled?: boolean;
}

/**
 * An entry's revision (SEQUENCE): one more for each rebooking, each change of seat and its
 * cancellation, so that a calendar takes each of them as an update of the entry it holds, whether
 * it reads a mail's file or the booking's feed (docs/product.md#rebooking).
 */
export const entryRevision = (h: EntryHistory): number =>
  h.moves + h.seatChanges + (h.cancelled ? 1 : 0);

export interface CalendarInput {
  /** The calendar's name (a feed's): written as `X-WR-CALNAME`. */
  name?: string;
  timeZone: string;
  /** DTSTAMP of every entry: the clock's time. */
  stamp: Date;
  /** The iTIP method of a mail's file (PUBLISH, CANCEL); none for a feed. */
  method?: 'PUBLISH' | 'CANCEL';
  entries: readonly CalendarEntry[];
}

/**
 * A text as iCalendar may carry it: without the control characters no iCalendar text holds (the
 * library escapes line breaks, and a tab is allowed). Texts stored before the edge refused
 * control characters may still hold some.
 */
const CONTROL_BUT_TAB_AND_LINE_BREAKS = /[^\P{Cc}\t\n\r]/gu;
export const calendarText = (text: string): string =>
  text.replace(CONTROL_BUT_TAB_AND_LINE_BREAKS, '');

const vtimezone = (timeZone: string): string | null => {
  const block = tzlib_get_ical_block(timeZone);
  const text = Array.isArray(block) ? block[0] : undefined;
  return text?.startsWith('BEGIN:VTIMEZONE') ? text : null;
};

/**
 * The iCalendar text of a calendar. The name goes through the library's custom properties, which
 * it escapes: its `name` option writes `NAME` and `X-WR-CALNAME` as given.
 */
export function writeCalendar(input: CalendarInput): string {
  const { timeZone } = input;
  const cal = ical({
    prodId: { company: 'Reading rooms', product: 'Reservations', language: 'EN' },
    // No zone of the calendar's own: DTSTAMP stays UTC (a calendar zone makes it local); each
    // event names the zone, and its VTIMEZONE is written once.
    timezone: { name: null, generator: vtimezone },
  });
  if (input.method)
    cal.method(input.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH);
  if (input.name !== undefined) cal.x([['X-WR-CALNAME', calendarText(input.name)]]);
  for (const e of input.entries)
    cal.createEvent({
      id: `${e.id}@reading-rooms`,
      // Zoned dates: ical-generator writes a native Date's fields in the process's own zone.
      start: new TZDate(instantOf(e.date, e.startTime, timeZone), timeZone),
      end: new TZDate(instantOf(e.date, e.endTime, timeZone), timeZone),
      timezone: timeZone,
      stamp: input.stamp,
      summary: calendarText(e.summary),
      location: e.location === undefined ? null : calendarText(e.location),
      description: calendarText(e.description),
      status: e.status === 'CANCELLED' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      ...(e.sequence === undefined ? {} : { sequence: e.sequence }),
    });
  return cal.toString();
}
