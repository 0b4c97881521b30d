import { isValidLocalTime } from './dates.ts';

/**
 * A site's opening hours (docs/product.md#sites) as they are kept and shown: no zod here, so the
 * visitors' site chunk takes only these (the request's rules are SiteHoursInput in sites.ts).
 */

/** One opening range of a day, `HH:mm` to `HH:mm`. */
export interface HoursRange {
  start: string;
  end: string;
}

/** The weekdays of a site's week, Monday first, as the hours name them. */
export const HOURS_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type HoursDay = (typeof HOURS_DAYS)[number];

/**
 * Whether no two ranges overlap (one may start where another ends). Ranges whose times are not
 * valid are their own fields' errors.
 */
export function rangesApart(ranges: readonly { start: string; end: string }[]): boolean {
  const valid = ranges
    .filter((r) => isValidLocalTime(r.start) && isValidLocalTime(r.end) && r.start < r.end)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return valid.every((r, i) => i === 0 || r.start >= valid[i - 1]!.end);
}

/** A site's opening hours as stored and answered: every weekday, the exceptions by date. */
export interface SiteHours {
  weekly: Record<HoursDay, HoursRange[]>;
  exceptions: { date: string; ranges: HoursRange[]; note?: string; noteEn?: string }[];
}

/** No hours at all: what a site has until staff set them. */
export const NO_HOURS: SiteHours = {
  weekly: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  exceptions: [],
};

/** The weekday of a date `YYYY-MM-DD` as the hours name it. */
export function hoursDayOf(date: string): HoursDay {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return HOURS_DAYS[(day + 6) % 7]!;
}

/**
 * A site's hours on a date: the exception's when the date has one (with its note), else its
 * weekday's. No ranges: closed.
 */
export function hoursOn(
  hours: SiteHours,
  date: string,
): { ranges: HoursRange[]; note?: string; noteEn?: string; exception: boolean } {
  const exception = hours.exceptions.find((e) => e.date === date);
  if (exception) return { ...exception, exception: true };
  return { ranges: hours.weekly[hoursDayOf(date)], exception: false };
}

/** The exceptions from a date on (the past ones are of no use to anyone). */
export function upcomingExceptions(hours: SiteHours, today: string): SiteHours {
  return { ...hours, exceptions: hours.exceptions.filter((e) => e.date >= today) };
}

/** `08:00–12:00, 13:00–18:00`, or the text for closed. */
export function rangesText(ranges: readonly HoursRange[], closed: string): string {
  return ranges.length ? ranges.map((r) => `${r.start}–${r.end}`).join(', ') : closed;
}

/**
 * A site's week in one line, as a mail closes with it: the weekdays with the same hours one after
 * the other together ("Mo–Fr 08:00–20:00; Sa 09:00–13:00"), the days without hours left out.
 */
export function weekText(
  weekly: SiteHours['weekly'],
  dayNames: Readonly<Record<HoursDay, string>>,
): string {
  const runs: { from: HoursDay; to: HoursDay; text: string }[] = [];
  for (const day of HOURS_DAYS) {
    const text = rangesText(weekly[day], '');
    const last = runs.at(-1);
    // A run grows by the next weekday only: a day in between with other hours ends it.
    if (last && last.text === text) last.to = day;
    else runs.push({ from: day, to: day, text });
  }
  return runs
    .filter((run) => run.text !== '')
    .map(
      (run) =>
        `${dayNames[run.from]}${run.to === run.from ? '' : `–${dayNames[run.to]}`} ${run.text}`,
    )
    .join('; ');
}

/** Whether a site has any hours to show: a weekday's range or an exception. */
export const hasHours = (hours: SiteHours): boolean =>
  hours.exceptions.length > 0 || HOURS_DAYS.some((day) => hours.weekly[day].length > 0);
