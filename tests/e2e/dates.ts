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
