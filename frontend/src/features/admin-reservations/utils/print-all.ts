import type { Page, Ticket } from '../../../api/types';
import type { TicketQuery } from './reservation-list';

/** The most rows the list endpoint answers at once (its `limit` maximum). */
export const PRINT_CHUNK = 999;

/**
 * Every ticket matching the list's filter and sort, read page by page (the list endpoint answers
 * at most PRINT_CHUNK rows): what "print" prints, not only the page on screen.
 */
export async function loadAllTickets(
  query: TicketQuery,
  fetchPage: (query: TicketQuery) => Promise<Page<Ticket>>,
): Promise<Ticket[]> {
  const rows: Ticket[] = [];
  for (let offset = 0; ; offset += PRINT_CHUNK) {
    const page = await fetchPage({ ...query, limit: PRINT_CHUNK, offset });
    rows.push(...page.content);
    if (page.content.length < PRINT_CHUNK || rows.length >= page.totalCount) return rows;
  }
}
