import { TZDate } from '@date-fns/tz';
import ical, { ICalEventStatus } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { instantOf } from '@rr/platform';

/**
 * The iCalendar text of a feed, written by ical-generator only: every text (the calendar's name,
 * an event's summary, location and description) goes through the library's own escaping, which
 * turns a line break into `\n` and escapes `\`, `;` and `,`. So a name of a room can never start
 * a line, and with it a property or an event, of its own (docs/product.md#api, calendar feeds).
 */

export interface FeedEvent {
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  summary: string;
  location?: string;
  description: string;
  status?: ICalEventStatus;
}

/**
 * A text as iCalendar may carry it: without the control characters no iCalendar text holds (the
 * library escapes line breaks, and a tab is allowed). Names stored before the edge refused
 * control characters may still hold some.
 */
const CONTROL_BUT_TAB_AND_LINE_BREAKS = /[^\P{Cc}\t\n\r]/gu;
export const feedText = (text: string): string => text.replace(CONTROL_BUT_TAB_AND_LINE_BREAKS, '');

const vtimezone = (timeZone: string): string | null => {
  const block = tzlib_get_ical_block(timeZone);
  const text = Array.isArray(block) ? block[0] : undefined;
  return text?.startsWith('BEGIN:VTIMEZONE') ? text : null;
};

/**
 * A calendar of events at local times of `timeZone` (with its VTIMEZONE). The name is written as
 * `X-WR-CALNAME`, through the library's custom properties: those it escapes, while its `name`
 * option writes `NAME` and `X-WR-CALNAME` as given.
 */
export function calendarFeed(
  name: string,
  timeZone: string,
  stamp: Date,
  events: readonly FeedEvent[],
): string {
  const cal = ical({
    prodId: { company: 'Reading rooms', product: 'Reservations', language: 'EN' },
    timezone: { name: timeZone, generator: vtimezone },
  });
  cal.x([['X-WR-CALNAME', feedText(name)]]);
  for (const e of events)
    cal.createEvent({
      id: `${e.id}@reading-rooms`,
      // Zoned dates: ical-generator writes a native Date's fields in the process's own zone.
      start: new TZDate(instantOf(e.date, e.startTime, timeZone), timeZone),
      end: new TZDate(instantOf(e.date, e.endTime, timeZone), timeZone),
      timezone: timeZone,
      stamp,
      summary: feedText(e.summary),
      location: e.location === undefined ? null : feedText(e.location),
      description: feedText(e.description),
      status: e.status ?? ICalEventStatus.CONFIRMED,
    });
  return cal.toString();
}
