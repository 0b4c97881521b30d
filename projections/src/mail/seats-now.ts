import type { TicketSeat } from '@rr/domain';
import type { Queryable } from '@rr/platform';

/**
 * The seat each ticket holds now, for the mails of a booking (the confirmation, the reminder and
 * its push, a cancellation), which name tickets as the cart's stream has them: the seat a seat
 * change moved it to, kept beside the log (`ticket_state`, moved in the transaction of the change,
 * so never behind it), else the seat its cart took (`seat`; absent: none).
 */
export async function withSeatsNow<T extends { ticketId: string; seat?: TicketSeat | undefined }>(
  client: Queryable,
  tickets: readonly T[],
): Promise<T[]> {
  if (!tickets.length) return [];
  const r = await client.query<{ ticket_id: string; seat_id: string; label: string }>(
    `SELECT ticket_id::text, moved_seat_id::text AS seat_id, moved_seat_label AS label
       FROM ticket_state WHERE ticket_id = ANY($1::uuid[]) AND moved_seat_id IS NOT NULL`,
    [tickets.map((t) => t.ticketId)],
  );
  const moved = new Map(r.rows.map((x) => [x.ticket_id, { seatId: x.seat_id, label: x.label }]));
  return tickets.map((t) => {
    const seat = moved.get(t.ticketId);
    return seat ? { ...t, seat } : t;
  });
}
