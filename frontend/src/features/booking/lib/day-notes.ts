import { textIn } from '../../../i18n/language-choice';
import type { DayNote } from '../../../lib/calendar';
import type { Language } from '../../../lib/config';
import type { RoomCalendar } from '../api/booking-api';

/** The words of a day's note, in the page's language. */
export interface DayNoteWords {
  /** A closed day, with the closure's reasons joined ("geschlossen: Wasserschaden"). */
  closed: (reasons: string) => string;
  /** A closed day whose reason is its holiday's name ("geschlossen"). */
  closedPlain: string;
  /** A holiday on which the room has slots ("geöffnet"). */
  open: string;
  /** A day after the booking window, with the day it opens ("ab 04.12. online buchbar"). */
  bookableFrom: (date: string) => string;
  /** The symbol a day after the window shows in its cell (the legend explains it). */
  laterSymbol: string;
}

const byDate = <T extends { date: string }, V>(rows: readonly T[], value: (row: T) => V) => {
  const map = new Map<string, V[]>();
  for (const row of rows) map.set(row.date, [...(map.get(row.date) ?? []), value(row)]);
  return map;
};

/**
 * What the visitor's calendar says of a day beyond its slots (docs/product.md#screens,
 * "Calendar"), in its cell, its name and its dialog: a holiday by its name (in the page's
 * language, docs/product.md#translations; several on one day joined), "open" when the
 * room has slots on it; a closed day "closed" with the closure's reason; a day after the
 * booking window the day it can be booked online from. All from the server
 * (GET /rooms/{id}/calendar), never counted here: the live display says the same.
 */
export function dayNotes(
  calendar: RoomCalendar | undefined,
  words: DayNoteWords,
  language: Language = 'de',
): (date: string) => DayNote | undefined {
  if (!calendar) return () => undefined;
  const holidays = byDate(calendar.holidays, (h) => textIn(language, h.name, h.nameEn));
  const closures = byDate(calendar.closures, (c) => textIn(language, c.reason, c.reasonEn));
  const open = new Set(calendar.openDays);
  const later = new Map(calendar.laterDays.map((d) => [d.date, d.bookableFrom]));
  return (date) => {
    const names = holidays.get(date) ?? [];
    const reasons = closures.get(date) ?? [];
    const from = later.get(date);
    const parts: string[] = [];
    if (reasons.length) {
      // A holiday's closure gives the holiday's name as its reason: said once.
      const own = reasons.filter((reason) => !names.includes(reason));
      const closed = own.length ? words.closed(own.join(', ')) : words.closedPlain;
      parts.push(names.length ? `${names.join(', ')}: ${closed}` : closed);
    } else if (names.length)
      parts.push(open.has(date) ? `${names.join(', ')}: ${words.open}` : names.join(', '));
    // A closed day opens no later; a day with an open slot does.
    if (from && (!reasons.length || open.has(date))) parts.push(words.bookableFrom(from));
    if (!parts.length) return undefined;
    // A day that is only later shows its symbol; a named day its words.
    return parts.length === 1 && from && !names.length && !reasons.length
      ? { text: parts[0]!, symbol: words.laterSymbol }
      : { text: parts.join(' · ') };
  };
}
