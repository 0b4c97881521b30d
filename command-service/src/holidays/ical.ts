import ICAL from 'ical.js';
import { asMultiLine, asSingleLine } from '@rr/contracts';
import { addDays, isStorableText, isValidLocalDate, type LocalDate } from '@rr/platform';
import { holidayIdentity } from '@rr/domain';

export interface ImportedHoliday {
  date: LocalDate;
  name: string;
  description: string | undefined;
}

/** What one import may read and create (from the config, see calendarImportLimits). */
export interface CalendarImportLimits {
  /** The window of days imported, inclusive: days outside it are skipped. */
  from: LocalDate;
  until: LocalDate;
  /** Events (VEVENT) in the file. */
  maxEvents: number;
  /** Occurrences read: one per single event, one per instance of a series, inside the window or not. */
  maxOccurrences: number;
  /** Holidays (days in the window) one import creates at most. */
  maxHolidays: number;
}

export interface CalendarReading {
  /** The days to import, in the file's order, each date and name once. */
  holidays: ImportedHoliday[];
  /** Events that are no holiday: timed (not all-day) or without a name. */
  ignored: number;
  /** Days outside the window (a series without end is read up to the window's end). */
  outOfWindow: number;
  /** Days the file names twice (same date and name). */
  repeated: number;
}

export type CalendarFault =
  'invalid' | 'too_many_events' | 'too_many_occurrences' | 'too_many_days';

export class CalendarFileError extends Error {
  override name = 'CalendarFileError';
  constructor(
    readonly fault: CalendarFault,
    /** The limit exceeded, for the too_many faults. */
    readonly limit?: number,
  ) {
    super(limit === undefined ? fault : `${fault} (limit ${limit})`);
  }
}

/** The longest all-day event taken as holidays: a year. Longer ones are cut to it. */
const MAX_DAYS_PER_EVENT = 366;

const DAY_MS = 86_400_000;
const dayNumber = (date: LocalDate) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * Reads the holidays of an iCalendar file, bounded: each all-day event becomes one holiday per day
 * it covers (DTEND is exclusive) inside the window; series (RRULE, RDATE, EXDATE, moved instances
 * by RECURRENCE-ID) are expanded up to the window's end. Timed events are no holidays.
 *
 * Every loop is bounded by a limit, checked before the work it bounds: the number of events (a
 * scan of the text before parsing), the occurrences read, the days created. Days outside the
 * window are counted, not enumerated. Pure and synchronous: the server runs it in a worker
 * thread (calendar-reader.ts), so even the largest file never blocks the event loop.
 */
export function parseHolidayCalendar(text: string, limits: CalendarImportLimits): CalendarReading {
  // NUL bytes make no calendar (and PostgreSQL stores no NUL); text decoded from UTF-8 holds no
  // lone surrogates.
  if (!isStorableText(text)) throw new CalendarFileError('invalid');
  const declared = text.match(/^BEGIN:VEVENT\s*$/gim)?.length ?? 0;
  if (declared > limits.maxEvents) throw new CalendarFileError('too_many_events', limits.maxEvents);

  const calendars = readCalendars(text);
  const vevents = calendars.flatMap((c) => c.getAllSubcomponents('vevent'));
  if (vevents.length > limits.maxEvents)
    throw new CalendarFileError('too_many_events', limits.maxEvents);

  // A series and its moved instances share a UID: related here, once (ical.js would otherwise
  // search the whole calendar for them per event, which is quadratic).
  const exceptionsOf = new Map<string, ICAL.Component[]>();
  const masters: ICAL.Component[] = [];
  for (const vevent of vevents) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
    if (uid && vevent.hasProperty('recurrence-id')) {
      const list = exceptionsOf.get(uid) ?? [];
      list.push(vevent);
      exceptionsOf.set(uid, list);
    } else masters.push(vevent);
  }
  const related = new Set<ICAL.Component>();
  const events: ICAL.Event[] = [];
  for (const vevent of masters) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
    const exceptions = (uid && vevent.hasProperty('rrule') && exceptionsOf.get(uid)) || [];
    for (const e of exceptions) related.add(e);
    events.push(guard(() => new ICAL.Event(vevent, { exceptions, strictExceptions: true })));
  }
  // A moved instance without its series in the file stands on its own.
  for (const list of exceptionsOf.values())
    for (const vevent of list)
      if (!related.has(vevent))
        events.push(guard(() => new ICAL.Event(vevent, { exceptions: [] })));

  const reading = new Reading(limits);
  for (const event of events) guard(() => reading.read(event));
  return reading.result();
}

function readCalendars(text: string): ICAL.Component[] {
  let jcal: unknown;
  try {
    jcal = ICAL.parse(text);
  } catch {
    throw new CalendarFileError('invalid');
  }
  // One calendar parses to its jCal array, several to an array of them.
  const all = Array.isArray(jcal) && Array.isArray(jcal[0]) ? (jcal as unknown[][]) : [jcal];
  const calendars = all.map((j) => guard(() => new ICAL.Component(j as unknown[])));
  if (calendars.length === 0 || calendars.some((c) => c.name !== 'vcalendar'))
    throw new CalendarFileError('invalid');
  return calendars;
}

/** ical.js throws plain errors (and TypeErrors) on broken content: all mean "not a calendar". */
function guard<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof CalendarFileError) throw err;
    throw new CalendarFileError('invalid');
  }
}

/** The running count of one file's reading, with its limits. */
class Reading {
  private readonly holidays: ImportedHoliday[] = [];
  private readonly seen = new Set<string>();
  private ignored = 0;
  private outOfWindow = 0;
  private repeated = 0;
  private occurrences = 0;
  private readonly from: number;
  private readonly until: number;

  constructor(private readonly limits: CalendarImportLimits) {
    this.from = dayNumber(limits.from);
    this.until = dayNumber(limits.until);
  }

  read(event: ICAL.Event): void {
    if (!event.startDate?.isDate) {
      this.ignored += 1;
      return;
    }
    if (!event.isRecurring()) {
      this.occurrence(event.startDate, event.endDate, event.summary, event.description);
      return;
    }
    const it = event.iterator();
    for (let next = it.next(); next; next = it.next()) {
      const details = event.getOccurrenceDetails(next);
      const item = details.item;
      if (!details.startDate.isDate) {
        this.count();
        this.ignored += 1;
        continue;
      }
      // Instances come in order of their original start: past the window's end, none is left
      // (a moved one may start before its original day; that case is rare and harmless).
      if (!this.occurrence(details.startDate, details.endDate, item.summary, item.description))
        return;
    }
  }

  /** One occurrence; answers false when it starts after the window (a series stops there). */
  private occurrence(
    start: ICAL.Time,
    end: ICAL.Time | null,
    summary: string | null | undefined,
    descriptionText: string | null | undefined,
  ): boolean {
    this.count();
    // A holiday's name is one line, its description has lines, as when staff type them
    // (docs/product.md#validation): a file's other characters are no part of them.
    const name = asSingleLine(summary ?? '').slice(0, 100);
    if (!name) {
      this.ignored += 1;
      return true;
    }
    const days = end
      ? Math.max(
          1,
          Math.min(MAX_DAYS_PER_EVENT, Math.round(end.subtractDate(start).toSeconds() / 86400)),
        )
      : 1;
    const first = start.toString().slice(0, 10);
    // A year outside 0001..9999 has no YYYY-MM-DD form: outside every window.
    if (!isValidLocalDate(first)) {
      this.outOfWindow += days;
      return start.year < 1;
    }
    const firstDay = dayNumber(first);
    if (firstDay > this.until) {
      this.outOfWindow += days;
      return false;
    }
    const inFrom = Math.max(firstDay, this.from);
    const inUntil = Math.min(firstDay + days - 1, this.until);
    const inside = Math.max(0, inUntil - inFrom + 1);
    this.outOfWindow += days - inside;
    if (inside === 0) return true;
    const descriptionRaw = asMultiLine(descriptionText ?? '');
    const description = descriptionRaw ? descriptionRaw.slice(0, 500) : undefined;
    for (let i = inFrom - firstDay; i <= inUntil - firstDay; i++) {
      const date = addDays(first, i);
      const identity = holidayIdentity(date, name);
      if (this.seen.has(identity)) {
        this.repeated += 1;
        continue;
      }
      if (this.holidays.length >= this.limits.maxHolidays)
        throw new CalendarFileError('too_many_days', this.limits.maxHolidays);
      this.seen.add(identity);
      this.holidays.push({ date, name, description });
    }
    return true;
  }

  private count(): void {
    this.occurrences += 1;
    if (this.occurrences > this.limits.maxOccurrences)
      throw new CalendarFileError('too_many_occurrences', this.limits.maxOccurrences);
  }

  result(): CalendarReading {
    return {
      holidays: this.holidays,
      ignored: this.ignored,
      outOfWindow: this.outOfWindow,
      repeated: this.repeated,
    };
  }
}
