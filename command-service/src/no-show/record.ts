import {
  handlersFor,
  ignore,
  rekeyingStream,
  timeSlotStream,
  type Actor,
  type NewEvent,
} from '@rr/events';
import type { LocalDate } from '@rr/domain';
import type { Queryable } from '@rr/platform';
import type { StoreSession } from '@rr/events';
import { inlineProjection, type InlineFold } from '../inline/define.ts';

/**
 * The no-show rule's record (docs/product.md#no-show-rule), written here only: each release by
 * the key of its booking's address and the slot's day (`visitor_no_shows`, an inline projection
 * of the releases and of the re-keying of their bookings), the staff's lifts of a block
 * (`visitor_no_show_lifts`, the lift command's row) and the erasure of both.
 */

interface NoShowFold extends InlineFold {
  released: { ticketId: string; ownerId: string }[];
  rekeyed: { ownerId: string; visitorKey: string }[];
}

/**
 * `visitor_no_shows`, an inline projection: each release by the key its booking's limits count
 * (a signed-in booking's subject, else its address's, docs/product.md#one-person-one-set-of-limits)
 * and the slot's day, what the booking and the waitlist decide the rule on; a re-keyed booking's
 * releases count for its key now (docs/product.md#one-person-one-key).
 */
export const visitorNoShowsProjection = inlineProjection({
  table: 'visitor_no_shows',
  handlers: handlersFor(timeSlotStream, rekeyingStream).with<NoShowFold, void, NewEvent>({
    TimeSlotCreated: ignore,
    TimeSlotUpdated: ignore,
    TimeSlotCapacityChanged: ignore,
    TimeSlotSeatsChosen: ignore,
    TimeSlotDeleted: ignore,
    TimeSlotClosed: ignore,
    TicketHeld: ignore,
    TicketHoldExtended: ignore,
    TicketReleased: ignore,
    TicketBooked: ignore,
    TicketCancelled: ignore,
    TicketCheckedIn: ignore,
    TicketCheckInUndone: ignore,
    TicketSeatChanged: ignore,
    TicketNoShowReleased: (e, f) => void f.released.push(e.data),
    TicketConfirmed: ignore,
    TicketConfirmationLapsed: ignore,
    WaitlistJoined: ignore,
    SeatOffered: ignore,
    SeatOfferLapsed: ignore,
    SeatOfferTaken: ignore,
    WaitlistEntryErased: ignore,
    WaitlistLeft: ignore,
    WaitlistEntryRemovedByStaff: ignore,
    WaitlistEntryPassedOver: ignore,
    WaitlistEntryBackInLine: ignore,
    BookingRekeyed: (e, f) => void f.rekeyed.push(e.data),
    WaitlistEntryRekeyed: ignore,
  }),
  start: (): NoShowFold => ({ streamId: '', released: [], rekeyed: [] }),
  async write(tx, { released, rekeyed }) {
    if (released.length)
      await tx.send(
        `INSERT INTO visitor_no_shows (ticket_id, visitor_key, date)
         SELECT u.ticket_id, COALESCE(b.subject_key, b.visitor_key), g.date
           FROM unnest($1::uuid[], $2::text[]) AS u(ticket_id, owner_id)
           JOIN bookings b ON b.owner_id = u.owner_id
           JOIN ticket_state t ON t.ticket_id = u.ticket_id
           JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
         ON CONFLICT (ticket_id) DO NOTHING`,
        [released.map((r) => r.ticketId), released.map((r) => r.ownerId)],
      );
    if (rekeyed.length)
      await tx.send(
        `UPDATE visitor_no_shows n SET visitor_key = u.visitor_key
           FROM unnest($1::text[], $2::text[]) AS u(owner_id, visitor_key), ticket_state t
          WHERE t.owner_id = u.owner_id AND t.ticket_id = n.ticket_id`,
        [rekeyed.map((d) => d.ownerId), rekeyed.map((d) => d.visitorKey)],
      );
  },
});

/**
 * A staff lift of a key's block (NoShowBlockLifted), beside the releases: the last day it covers,
 * its actor and time; a later lift of the key replaces it. In the lift command's transaction.
 */
export async function recordNoShowLift(
  s: StoreSession,
  lift: { visitorKey: string; liftedThrough: LocalDate; actor: Actor; at: Date },
): Promise<void> {
  await s.client.query(
    `INSERT INTO visitor_no_show_lifts (visitor_key, lifted_through, actor, lifted_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (visitor_key) DO UPDATE
       SET lifted_through = EXCLUDED.lifted_through, actor = EXCLUDED.actor,
           lifted_at = EXCLUDED.lifted_at`,
    [lift.visitorKey, lift.liftedThrough, JSON.stringify(lift.actor), lift.at],
  );
}

/**
 * The erasure's part: the releases of days up to `through` go (the rule no longer needs them: their
 * window and the block they may start have passed), and the lifts that covered only those.
 * Answers how many releases went.
 */
export async function eraseNoShowsThrough(db: Queryable, through: LocalDate): Promise<number> {
  const releases = await db.query('DELETE FROM visitor_no_shows WHERE date <= $1', [through]);
  // A staff lift covers releases up to its day: once they are gone, it says nothing more.
  await db.query('DELETE FROM visitor_no_show_lifts WHERE lifted_through <= $1', [through]);
  return releases.rowCount ?? 0;
}
