/**
 * A moved ticket's chain (docs/product.md#rebooking): a move cancels the ticket and books a new
 * one, the old one's `moved_to` naming the new. What a visitor keeps outside this service (a
 * calendar entry, a wallet pass) goes by the first ticket of the chain, so a move updates it
 * rather than adding another. The chain stays within the booking's own tickets (its owner's
 * index); a chain longer than MAX_MOVES is not followed further.
 */
const MAX_MOVES = 100;

/**
 * SQL common table expressions (after `WITH RECURSIVE`): `chain_firsts (ticket_id, first_id,
 * moves)`, for each ticket of owner `$1` that `start` (a condition on `t`, an `rm_tickets` row)
 * admits, the first ticket of its chain and how many moves led from it to the ticket.
 */
export function chainFirstsSql(start: string): string {
  return `chain_back AS (
     SELECT t.id AS ticket_id, t.id AS entry_id, 0 AS moves
       FROM rm_tickets t WHERE t.owner_id = $1 AND (${start})
     UNION ALL
     SELECT c.ticket_id, m.id, c.moves + 1
       FROM chain_back c JOIN rm_tickets m ON m.owner_id = $1 AND m.moved_to = c.entry_id
      WHERE c.moves < ${MAX_MOVES}
   ), chain_firsts AS (
     SELECT DISTINCT ON (ticket_id) ticket_id, entry_id AS first_id, moves
       FROM chain_back ORDER BY ticket_id, moves DESC
   )`;
}

/**
 * SQL common table expressions (after `WITH RECURSIVE`): `chain_latest (id)`, the ticket the
 * moves of owner `$1`'s ticket `ticketParam` led to (the ticket itself when it was not moved).
 */
export function chainLatestSql(ticketParam: string): string {
  return `chain_ahead AS (
     SELECT t.id, t.moved_to, 0 AS moves
       FROM rm_tickets t WHERE t.owner_id = $1 AND t.id = ${ticketParam}
     UNION ALL
     SELECT m.id, m.moved_to, a.moves + 1
       FROM chain_ahead a JOIN rm_tickets m ON m.owner_id = $1 AND m.id = a.moved_to
      WHERE a.moves < ${MAX_MOVES}
   ), chain_latest AS (
     SELECT id FROM chain_ahead ORDER BY moves DESC LIMIT 1
   )`;
}
