/**
 * The seats taken, as the staff screens and the display count them: booked tickets, and seats
 * held in carts whose hold has not ended at `now` (a hold past its end counts no longer, even
 * before the expiry job closes its cart), with the end of the last hold. A LATERAL subquery
 * giving `booked_count`, `held_count` and `held_until` over the tickets that `tickets` selects
 * (a condition on `t`, the rm_tickets row); `now` is an SQL expression of the clock's instant.
 */
export const seatsTakenLateral = (tickets: string, now: string) => `LATERAL (
  SELECT count(*) FILTER (WHERE t.status = 'BOOKED')::int AS booked_count,
         count(*) FILTER (WHERE t.status = 'NEW' AND x.expires_at > ${now})::int AS held_count,
         max(x.expires_at) FILTER (WHERE t.status = 'NEW' AND x.expires_at > ${now}) AS held_until
    FROM rm_tickets t LEFT JOIN rm_transactions x ON x.id = t.transaction_id
   WHERE ${tickets} AND t.status IN ('NEW', 'BOOKED'))`;
