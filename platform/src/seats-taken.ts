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

/**
 * The seats of slot `s`'s room's plan held at `now` (an SQL expression): by bookings, by cart
 * holds not yet ended, and by waitlist offers not yet lapsed (docs/product.md#seat-plans).
 */
export const heldSeatIds = (now: string) => `(
  SELECT t.seat_id FROM rm_tickets t LEFT JOIN rm_transactions x ON x.id = t.transaction_id
   WHERE t.time_slot_id = s.id AND t.seat_id IS NOT NULL
     AND (t.status = 'BOOKED' OR (t.status = 'NEW' AND x.expires_at > ${now}))
  UNION ALL
  SELECT w.offer_seat_id FROM rm_waitlist w
   WHERE w.time_slot_id = s.id AND w.offer_seat_id IS NOT NULL
     AND w.status = 'offered' AND w.offer_expires_at > ${now})`;

/** Whether seat `st` of slot `s`'s room is out of service on the slot's day. */
export const outOfServiceSql = `EXISTS (SELECT 1 FROM rm_seat_out_of_service o
   WHERE o.room_id = st.room_id AND o.seat_id = st.id AND s.date BETWEEN o.from_date AND o.until)`;

/**
 * Whether seat `st` is not among the seats slot `s` offers: staff chose some for it (exam places,
 * `s.seat_ids`) and not this one. Such a seat reads as out of service in the slot.
 */
export const notOfferedSql = `(s.seat_ids IS NOT NULL
   AND NOT st.id = ANY(string_to_array(s.seat_ids, ',')::uuid[]))`;

/**
 * The free seats of slot \`s\`'s room's plan at \`now\`: \`plan_free\`, in service, offered by the
 * slot and held by no ticket or offer; null when the room has no plan (its capacity alone counts). A LATERAL
 * subquery, as the seat rule's \`planSeatsFree\` (domain/src/seat-rule.ts).
 */
export const planSeatsLateral = (now: string) => `LATERAL (
  SELECT CASE WHEN count(*) = 0 THEN NULL
              ELSE (count(*) FILTER (WHERE NOT ${outOfServiceSql} AND NOT ${notOfferedSql}
                                       AND st.id NOT IN (SELECT h.seat_id FROM ${heldSeatIds(now)} h(seat_id))))::int
         END AS plan_free
    FROM rm_seats st WHERE st.room_id = s.room_id) p`;
