import { textIn } from '../../../i18n/language-choice';
import type { DayNote } from '../../../lib/calendar';
import type { Language } from '../../../lib/config';
import type { RoomCalendar } from '../api/booking-api';

/**
 * What the visitor's calendar says of a day beyond its slots (docs/product.md#screens,
 * "Calendar"): a holiday by its name in the page's language (several on one day joined; a
 * name without translation in German, docs/product.md#translations), a day after the booking
 * window's last day "not yet bookable" (its slots are hidden until then). The window is the
 * server's (GET /rooms/{id}/calendar), never counted here.
 */
export function dayNotes(
  calendar: RoomCalendar | undefined,
  notYetBookable: DayNote,
  language: Language = 'de',
): (date: string) => DayNote | undefined {
  if (!calendar) return () => undefined;
  const names = new Map<string, string[]>();
  for (const { date, name, nameEn } of calendar.holidays)
    names.set(date, [...(names.get(date) ?? []), textIn(language, name, nameEn)]);
  return (date) => {
    const holiday = names.get(date);
    if (holiday) return { text: holiday.join(', ') };
    return date > calendar.bookableUntil ? notYetBookable : undefined;
  };
}
