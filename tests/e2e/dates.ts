import { localDateTime } from '@rr/domain';
/**
 * Dates of the browser tests. They come from the machine clock (`new Date()`), which the server
 * process under test shares: the tests and the server agree on what "today" is.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-06-03`: the API's and the date inputs' format. */
export const iso = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** `03.06.2026`: how the staff screens show a date. */
export const shown = (d: Date) => `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;

/** The accessible day names of the calendar: "Mittwoch, 3. Juni 2026". */
export const longDate = (d: Date) => new Intl.DateTimeFormat('de', { dateStyle: 'full' }).format(d);

/** The calendar's month heading: "Juni 2026". */
export const monthTitle = (d: Date) =>
  new Intl.DateTimeFormat('de', { month: 'long', year: 'numeric' }).format(d);

/**
 * The first `count` weekdays (Monday to Friday) from 3 days ahead on: the test rooms are open for
 * bookings from today + 2 days (see test-rooms.ts), so each of these days is bookable.
 */
export function weekdaysAhead(count: number): Date[] {
  const today = new Date();
  const days: Date[] = [];
  for (let offset = 3; days.length < count; offset += 1) {
    const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset);
    if (day.getDay() >= 1 && day.getDay() <= 5) days.push(day);
  }
  return days;
}

/**
 * The library's time zone of the browser tests that run the device in another one (UTC): a
 * time shown in the device's zone instead of the library's is then an hour or two off.
 */
export const LIBRARY_ZONE = 'Europe/Vienna';

/** The library's date and time of an instant (`YYYY-MM-DD`, `HH:mm`), in `LIBRARY_ZONE`. */
export function libraryTime(instant: Date): { date: string; time: string; hour: number } {
  const { date, time } = localDateTime(instant, LIBRARY_ZONE);
  return { date, time, hour: Number(time.slice(0, 2)) };
}

/**
 * The library's `HH:mm` of every minute from `from` to `to`: what a clock read between the two
 * instants may show.
 */
export function libraryMinutes(from: Date, to: Date): string[] {
  const times = new Set<string>();
  for (let t = from.getTime(); t < to.getTime(); t += 15_000) {
    times.add(libraryTime(new Date(t)).time);
  }
  times.add(libraryTime(to).time);
  return [...times];
}

/** `dd.MM.yyyy` of a `YYYY-MM-DD` day: how the staff screens show it. */
export const dotted = (date: string) => date.split('-').reverse().join('.');

/** The day after a `YYYY-MM-DD` day. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
