import type { CheckInLookupTicket, CheckInTicket } from '../api/check-in-api';
import { formatDate, formatTimeRange } from '../../../lib/dates';

/**
 * The tickets a search shows: each word of the term must be in the ticket's first or last name
 * or its booking number (case-insensitive); an empty term shows all.
 */
export function matchesSearch(ticket: CheckInTicket, term: string): boolean {
  const words = term.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [ticket.firstName, ticket.lastName, ticket.bookingNumber]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words.every((w) => text.includes(w));
}

/** How the list names a ticket: its visitor's name, else its booking number. */
export function displayName(ticket: CheckInTicket): string {
  return (
    [ticket.firstName, ticket.lastName].filter(Boolean).join(' ') || ticket.bookingNumber || ''
  );
}

/** Whether a check-in can still be undone at `now` (the server decides; this only offers it). */
export function canUndo(ticket: CheckInTicket, now: Date): boolean {
  return ticket.undoUntil !== null && new Date(ticket.undoUntil) > now;
}

/** Why a code could not be checked in, as the lookup tells it: a catalogue key and its values. */
export interface CodeExplanation {
  key:
    | 'explain.other-day'
    | 'explain.checked-in'
    | 'explain.cancelled'
    | 'explain.released'
    | 'explain.no-check-in';
  params: Record<string, string>;
}

/**
 * Explains a code from the tickets it names (by date and time): a ticket of today already
 * checked in (when and by whom), cancelled, released or in a room without check-in; else a
 * booking of another day (its first ticket not cancelled: day, time and room). Null when the
 * lookup says nothing the refusal did not (a ticket of today that could be checked in later).
 */
export function explainCode(
  tickets: readonly CheckInLookupTicket[],
  today: string,
  clock: (instant: string) => string,
  /** A room's name in the page's language (docs/product.md#translations). */
  roomName: (ticket: CheckInLookupTicket) => string = (x) => x.roomName,
): CodeExplanation | null {
  const ofToday = tickets.filter((x) => x.date === today);
  const name = (x: CheckInLookupTicket) =>
    [x.firstName, x.lastName].filter(Boolean).join(' ') || x.bookingNumber || '';
  const checkedIn = ofToday.find((x) => x.checkedInAt !== null);
  if (checkedIn?.checkedInAt)
    return {
      key: 'explain.checked-in',
      params: {
        name: name(checkedIn),
        time: clock(checkedIn.checkedInAt),
        by: checkedIn.checkedInBy ?? '',
      },
    };
  const bookable = ofToday.find((x) => x.status === 'BOOKED');
  if (bookable && !bookable.checkInOffered)
    return { key: 'explain.no-check-in', params: { room: roomName(bookable) } };
  if (bookable) return null;
  const released = ofToday.find((x) => x.noShow);
  if (released) return { key: 'explain.released', params: { name: name(released) } };
  const cancelled = ofToday.find((x) => x.status === 'CANCELLED');
  if (cancelled) return { key: 'explain.cancelled', params: { name: name(cancelled) } };
  const other = tickets.find((x) => x.status !== 'CANCELLED') ?? tickets[0];
  if (!other) return null;
  return {
    key: 'explain.other-day',
    params: {
      date: formatDate(other.date),
      time: formatTimeRange(other.startTime, other.endTime),
      room: roomName(other),
    },
  };
}
