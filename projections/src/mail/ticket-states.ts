import type { TicketSeat } from '@rr/domain';
import type { Queryable } from '@rr/platform';

/**
 * What a booking's mails read of a ticket beside the log (`ticket_state`, written in the
 * transaction of each change, so never behind it).
 */
export interface TicketStateForMail {
  /** The seat a seat change moved it to; absent, the seat its cart took. */
  movedSeat?: TicketSeat;
  /** How often its seat changed: one revision of its calendar entry each. */
  seatChanges: number;
  /** Booked and its address not yet confirmed: the deadline of the confirmation. */
  confirmBy: Date | null;
}

/** The states of the given tickets, in one read; a ticket without a row has none. */
export async function ticketStates(
  client: Queryable,
  ticketIds: readonly string[],
): Promise<Map<string, TicketStateForMail>> {
  if (!ticketIds.length) return new Map();
  const r = await client.query<{
    ticket_id: string;
    seat_id: string | null;
    label: string | null;
    seat_changes: number;
    confirm_by: Date | null;
  }>(
    `SELECT ticket_id::text, moved_seat_id::text AS seat_id, moved_seat_label AS label, seat_changes,
            CASE WHEN status = 'BOOKED' THEN confirm_by END AS confirm_by
       FROM ticket_state WHERE ticket_id = ANY($1::uuid[])`,
    [ticketIds],
  );
  return new Map(
    r.rows.map((x) => [
      x.ticket_id,
      {
        ...(x.seat_id !== null ? { movedSeat: { seatId: x.seat_id, label: x.label ?? '' } } : {}),
        seatChanges: x.seat_changes,
        confirmBy: x.confirm_by,
      },
    ]),
  );
}

/**
 * Each ticket with the seat it holds now, for the mails of a booking (the confirmation, the
 * reminder and its push, a cancellation), which name tickets as the cart's stream has them: the
 * seat a seat change moved it to, else the seat its cart took (`seat`; absent: none).
 */
export function withSeatsNow<T extends { ticketId: string; seat?: TicketSeat | undefined }>(
  tickets: readonly T[],
  states: ReadonlyMap<string, TicketStateForMail>,
): T[] {
  return tickets.map((t) => {
    const seat = states.get(t.ticketId)?.movedSeat;
    return seat ? { ...t, seat } : t;
  });
}
