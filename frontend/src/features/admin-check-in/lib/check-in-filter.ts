import type { CheckInTicket } from '../api/check-in-api';

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

/** Whether a check-in can still be undone at `now` (the server decides; this only offers it). */
export function canUndo(ticket: CheckInTicket, now: Date): boolean {
  return ticket.undoUntil !== null && new Date(ticket.undoUntil) > now;
}
