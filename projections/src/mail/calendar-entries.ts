import type { RecordedEvent } from '@rr/events';
import type { EntryHistory, Pool } from '@rr/platform';

/** A ticket's entry in the reader's calendar: its UID's first part and what its revision counts. */
export interface CalendarEntryOf extends EntryHistory {
  id: string;
}

/**
 * The calendar entry of each ticket of a booking, from the write side (the booking's cart stream,
 * the log, and each ticket's seat changes as `ticket_state` counts them: `seatChangesOf`, read
 * with the mail's other states of its tickets). A rebooking's new ticket updates the entry the
 * booking's mails published for the ticket it replaced: the same UID (the first ticket's id)
 * with one revision more per move, so a calendar moves the appointment instead of adding a
 * second one (docs/product.md#rebooking); each seat change of the chain's tickets is one
 * revision more too, so a calendar takes the new seat (entryRevision counts them, for the feed
 * too). A move adds its new ticket to the cart in the command that cancels the old one, naming
 * the new one (`movedTo`): found by the add's transaction id (the commit-order index), so the
 * look-up reads the moves' own events only.
 */
export async function calendarEntries(
  pool: Pool,
  cartEvents: readonly RecordedEvent[],
  seatChangesOf: (ticketId: string) => number,
): Promise<(ticketId: string) => CalendarEntryOf> {
  const adds = cartEvents
    .filter((e) => e.type === 'TicketAddedToTransaction')
    .map((e) => e.position.tx.toString());
  const replaced = new Map<string, string>();
  if (adds.length) {
    const moves = await pool.query<{ ticket_id: string; moved_to: string }>(
      `SELECT data->>'ticketId' AS ticket_id, data->>'movedTo' AS moved_to FROM events
        WHERE transaction_id = ANY($1::text[]::xid8[]) AND event_type = 'TicketCancelled'
          AND data ? 'movedTo'`,
      [[...new Set(adds)]],
    );
    for (const m of moves.rows) replaced.set(m.moved_to, m.ticket_id);
  }
  return (ticketId) => {
    let id = ticketId;
    let moves = 0;
    let changes = seatChangesOf(id);
    // A chain of moves is as long as the booking's moves: each ticket replaced at most once.
    for (let before = replaced.get(id); before && moves <= replaced.size;) {
      id = before;
      moves += 1;
      changes += seatChangesOf(id);
      before = replaced.get(id);
    }
    return { id, moves, seatChanges: changes };
  };
}
