import { handlersFor, ignore, timeSlotStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

interface NoShowFold extends InlineFold {
  released: { ticketId: string; ownerId: string }[];
}

/**
 * `visitor_no_shows`, the no-show rule's record (docs/product.md#no-show-rule): each release by
 * the key of its booking's address and the slot's day, what the booking and the waitlist decide
 * the rule on.
 */
export const visitorNoShowsProjection = inlineProjection({
  table: 'visitor_no_shows',
  handlers: handlersFor(timeSlotStream).with<NoShowFold, void, NewEvent>({
    TimeSlotCreated: ignore,
    TimeSlotUpdated: ignore,
    TimeSlotCapacityChanged: ignore,
    TimeSlotDeleted: ignore,
    TimeSlotClosed: ignore,
    TicketHeld: ignore,
    TicketHoldExtended: ignore,
    TicketReleased: ignore,
    TicketBooked: ignore,
    TicketCancelled: ignore,
    TicketCheckedIn: ignore,
    TicketCheckInUndone: ignore,
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
  }),
  start: (): NoShowFold => ({ streamId: '', released: [] }),
  async write(tx, { released }) {
    if (!released.length) return;
    await tx.send(
      `INSERT INTO visitor_no_shows (ticket_id, visitor_key, date)
       SELECT u.ticket_id, b.visitor_key, g.date
         FROM unnest($1::uuid[], $2::text[]) AS u(ticket_id, owner_id)
         JOIN bookings b ON b.owner_id = u.owner_id
         JOIN ticket_state t ON t.ticket_id = u.ticket_id
         JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
       ON CONFLICT (ticket_id) DO NOTHING`,
      [released.map((r) => r.ticketId), released.map((r) => r.ownerId)],
    );
  },
});
