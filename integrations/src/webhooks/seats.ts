import { transactionStreamId } from '@rr/events';
import type { PoolClient } from '@rr/platform';

/** A ticket's seat in a payload, as `booking.created` names it; null: none. */
export interface PayloadSeat {
  id: string;
  label: string;
}

/**
 * Of these tickets, those that never changed their seat, as kept beside the log (`ticket_state`:
 * the changes counted, and the seat moved to, which a release before the count writes as well):
 * each holds its hold's seat, which its cart's add names too. A ticket without that row is not
 * among them.
 */
const KEPT_SEAT = 's.seat_changes = 0 AND s.moved_seat_id IS NULL';

export async function ticketsKeepingTheirSeat(
  client: PoolClient,
  ticketIds: readonly string[],
): Promise<Set<string>> {
  const r = await client.query<{ ticket_id: string }>(
    `SELECT s.ticket_id::text FROM ticket_state s
      WHERE s.ticket_id = ANY($1::uuid[]) AND ${KEPT_SEAT}`,
    [ticketIds],
  );
  return new Set(r.rows.map((x) => x.ticket_id));
}

/** A seat as the log names it (`seatId`), as a payload names it (`id`); absent: none. */
export const payloadSeat = (seat: { seatId: string; label: string } | null | undefined) =>
  seat ? { id: seat.seatId, label: seat.label } : null;

/**
 * The seat of the room's plan a ticket of the slot stream `streamId` held as the log stood at
 * `upTo` (the stream's version of the event being told): its hold's seat, or its last seat
 * change's (docs/product.md#seat-plans). Read from the log, so a delivery made late or from a
 * rebuilt reactor names the seat the ticket had then, not a later one.
 *
 * A ticket that never changed its seat (ticketsKeepingTheirSeat) holds its hold's, read from its
 * cart's add: a few events of the cart's stream, where the walk back through the slot's stream to
 * the hold (seatWalkedTo) passes every event of the slot since (thousands in a busy one).
 */
export async function seatOf(
  client: PoolClient,
  streamId: string,
  ticketId: string,
  upTo: number,
): Promise<PayloadSeat | null> {
  const kept = await client.query<{ seat: { seatId: string; label: string } | null }>(
    `SELECT e.data->'seat' AS seat FROM ticket_state s
       JOIN events e ON e.stream_id = $2 || s.transaction_id::text
                    AND e.event_type = 'TicketAddedToTransaction'
                    AND e.data->>'ticketId' = s.ticket_id::text
      WHERE s.ticket_id = $1::uuid AND ${KEPT_SEAT}
      LIMIT 1`,
    [ticketId, transactionStreamId('')],
  );
  if (kept.rows[0]) return payloadSeat(kept.rows[0].seat);
  return seatWalkedTo(client, streamId, ticketId, upTo);
}

/** The ticket's seat at `upTo`, by walking its slot's stream back to its last hold or change. */
export async function seatWalkedTo(
  client: PoolClient,
  streamId: string,
  ticketId: string,
  upTo: number,
): Promise<PayloadSeat | null> {
  const r = await client.query<{ seat: { seatId: string; label: string } | null }>(
    `SELECT data->'seat' AS seat FROM events
      WHERE stream_id = $1 AND stream_version <= $3
        AND event_type IN ('TicketHeld', 'TicketSeatChanged') AND data->>'ticketId' = $2
      ORDER BY stream_version DESC LIMIT 1`,
    [streamId, ticketId, upTo],
  );
  return payloadSeat(r.rows[0]?.seat);
}
