import { WEEKDAYS, type Weekday } from '@rr/contracts';

/**
 * Local calendar dates ('YYYY-MM-DD') and wall-clock times ('HH:mm') in the library's time zone.
 * Slots are stored as a local date plus local times, so they keep their wall-clock times across
 * the DST changes; only "today" and "now" depend on the zone, and both come from the clock.
 */
export type LocalDate = string;
export type LocalTime = string;

// The rules of dates and times (which strings are dates, times, weekdays) have one home, shared
// with the browser: @rr/contracts.
export {
  daysFromTo,
  isValidLocalDate,
  isValidLocalTime,
  WEEKDAYS,
  type Weekday,
} from '@rr/contracts';

function toUtc(date: LocalDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

/**
 * The date so many days after (or before) `date`. Past 9999-12-31 the answer is no `YYYY-MM-DD`
 * (`+010000-01-01`, which sorts before every date and which PostgreSQL refuses): a period's length
 * is measured with daysFromTo, and the day after a date a client chose (a slot's) is counted by
 * the database.
 */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** MONDAY..SUNDAY of a local date. */
export function weekdayOf(date: LocalDate): Weekday {
  const js = toUtc(date).getUTCDay(); // 0 = Sunday
  return WEEKDAYS[(js + 6) % 7]!;
}

export function isWeekend(date: LocalDate): boolean {
  const w = weekdayOf(date);
  return w === 'SATURDAY' || w === 'SUNDAY';
}

/**
 * Every date from..until inclusive (empty when until is before from). Stops at until rather than
 * stepping past it: the day after 9999-12-31 has no `YYYY-MM-DD` form (it came out as
 * `+010000-01`, which sorts before every date, and the loop never ended).
 */
export function datesBetween(from: LocalDate, until: LocalDate): LocalDate[] {
  const out: LocalDate[] = [];
  if (until < from) return out;
  for (let d = from; ; d = addDays(d, 1)) {
    out.push(d);
    if (d >= until) return out;
  }
}

export function minutesOf(time: LocalTime): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

// Building an Intl.DateTimeFormat costs far more than formatting with it: one per time zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The minutes last asked for, per time zone: every command asks for its `now` a few times, and
 * formatting it is the slow part. The answer is to the minute, and since 1973 every zone's offset
 * is a whole number of minutes, so every instant of one UTC minute has the same local minute; an
 * earlier instant (offsets of local mean time, in seconds) is kept by its millisecond. Cleared
 * when it reaches its bound.
 */
const recentLocal = new Map<string, { date: LocalDate; time: LocalTime }>();
const RECENT_LOCAL_MAX = 256;
const WHOLE_MINUTE_OFFSETS_FROM = Date.UTC(1973, 0, 1);

/** The local date and time of an instant in a time zone. */
export function localDateTime(
  instant: Date,
  timeZone: string,
): { date: LocalDate; time: LocalTime } {
  const ms = instant.getTime();
  const key =
    ms >= WHOLE_MINUTE_OFFSETS_FROM
      ? `m${Math.floor(ms / 60_000)} ${timeZone}`
      : `${ms} ${timeZone}`;
  const known = recentLocal.get(key);
  if (known) return { ...known };
  const parts = formatterFor(timeZone).formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  const local = {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}`,
  };
  if (recentLocal.size >= RECENT_LOCAL_MAX) recentLocal.clear();
  recentLocal.set(key, local);
  return { ...local };
}

/**
 * The instant a local date and time of a time zone names (to the minute, across daylight saving:
 * the zone's offset at the guess, then at the corrected guess).
 */
export function instantOf(date: LocalDate, time: LocalTime, timeZone: string): Date {
  const wanted =
    Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) +
    minutesOf(time) * 60_000;
  const offsetAt = (t: number) => {
    const local = localDateTime(new Date(t), timeZone);
    const shown =
      Date.UTC(+local.date.slice(0, 4), +local.date.slice(5, 7) - 1, +local.date.slice(8, 10)) +
      minutesOf(local.time) * 60_000;
    return shown - Math.floor(t / 60_000) * 60_000;
  };
  const guess = wanted - offsetAt(wanted);
  return new Date(wanted - offsetAt(guess));
}

export function todayIn(instant: Date, timeZone: string): LocalDate {
  return localDateTime(instant, timeZone).date;
}
