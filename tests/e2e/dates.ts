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

/**
 * A library zone in which `instant` falls between 12:00 and 14:59, and which is never the devices'
 * UTC: a time slot over the whole of that zone's today (00:00-23:59) runs when a test starts and
 * for nine hours on, whatever the machine's hour. With the library in Vienna, a test that starts
 * just before its midnight would see its slot end and "today" become another day.
 */
export function middayZone(instant: Date = new Date()): string {
  const hoursAhead = 12 - instant.getUTCHours() || 2;
  // The IANA Etc zones count the other way round: Etc/GMT-2 is two hours ahead of UTC.
  return hoursAhead > 0 ? `Etc/GMT-${hoursAhead}` : `Etc/GMT+${-hoursAhead}`;
}

/** The library's date and time of an instant (`YYYY-MM-DD`, `HH:mm`), by default in `LIBRARY_ZONE`. */
export function libraryTime(
  instant: Date,
  zone: string = LIBRARY_ZONE,
): { date: string; time: string; hour: number } {
  const { date, time } = localDateTime(instant, zone);
  return { date, time, hour: Number(time.slice(0, 2)) };
}

/**
 * The library's `HH:mm` of every minute from `from` to `to`: what a clock read between the two
 * instants may show.
 */
export function libraryMinutes(from: Date, to: Date, zone: string = LIBRARY_ZONE): string[] {
  const times = new Set<string>();
  for (let t = from.getTime(); t < to.getTime(); t += 15_000) {
    times.add(libraryTime(new Date(t), zone).time);
  }
  times.add(libraryTime(to, zone).time);
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
