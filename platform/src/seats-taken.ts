/*
 * The read side's count of seats, one spelling for every reader of the read models: the query
 * side's screens and the room's calendar feed (in integrations, which does not import the query
 * side).
 */

/**
 * The seats taken, as the staff screens, the display and the calendar feeds count them: booked
 * tickets, and seats held in carts whose hold has not ended at `now` (a hold past its end counts
 * no longer, even before the expiry job closes its cart), with the end of the last hold. A
 * LATERAL subquery giving `booked_count`, `held_count` and `held_until` over the tickets that
 * `tickets` selects (a condition on `t`, the rm_tickets row); `now` is an SQL expression of the
 * clock's instant.
 */
export const seatsTakenLateral = (tickets: string, now: string) => `LATERAL (
  SELECT count(*) FILTER (WHERE t.status = 'BOOKED')::int AS booked_count,
         count(*) FILTER (WHERE t.status = 'NEW' AND x.expires_at > ${now})::int AS held_count,
         max(x.expires_at) FILTER (WHERE t.status = 'NEW' AND x.expires_at > ${now}) AS held_until
    FROM rm_tickets t LEFT JOIN rm_transactions x ON x.id = t.transaction_id
   WHERE ${tickets} AND t.status IN ('NEW', 'BOOKED'))`;

/**
 * The waitlist of slot `s` at `now` (an SQL expression), as the seat rule weighs it: `offered`,
 * offers not yet lapsed (they hold a seat), and `waiting`, the entries that claim a freed seat
 * (waiting and not passed over: whom the limits bar claims none, see waitingCount in the domain);
 * `in_line`: every entry waiting, passed over or not.
 */
export const waitlistLateral = (now: string) => `LATERAL (
  SELECT count(*) FILTER (WHERE w.status = 'offered' AND w.offer_expires_at > ${now})::int AS offered,
         count(*) FILTER (WHERE w.status = 'waiting' AND NOT w.passed_over)::int AS waiting,
         count(*) FILTER (WHERE w.status = 'waiting')::int AS in_line
    FROM rm_waitlist w WHERE w.time_slot_id = s.id) w`;
