import {
  handlersFor,
  ignore,
  timeSlotStream,
  transactionStream,
  type RecordedEvent,
  appliedBy,
  type Projection,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';
import { actorName, applyTicketsBatch, cartOf, ticketCancellation } from './tickets/batch.ts';

/** A ticket's change at the instant the log recorded (a rebuild writes the same). */
const setTicket =
  (sql: string) =>
  async (e: RecordedEvent & { data: { ticketId: string } }, client: PoolClient) => {
    await client.query(sql, [e.data.ticketId, e.createdAt]);
  };
const setCart =
  (status: string) =>
  async (e: RecordedEvent & { data: { transactionId: string } }, client: PoolClient) => {
    await client.query('UPDATE rm_transactions SET status = $2 WHERE id = $1', [
      e.data.transactionId,
      status,
    ]);
  };

/** Carts and their tickets, event by event (applyTicketsBatch folds a batch the same way). */
const tickets = handlersFor(transactionStream, timeSlotStream).with<PoolClient, Step>({
  async TransactionStarted(e, client) {
    await client.query(
      `INSERT INTO rm_transactions (id, status, expires_at, created_at) VALUES ($1, 'NEW', $2, $3) ON CONFLICT (id) DO NOTHING`,
      [e.data.transactionId, e.data.expiresAt, e.createdAt],
    );
  },
  async TicketAddedToTransaction(e, client) {
    const d = e.data;
    await client.query('UPDATE rm_transactions SET expires_at = $2 WHERE id = $1', [
      cartOf(e),
      d.expiresAt,
    ]);
    await client.query(
      `INSERT INTO rm_tickets (id, transaction_id, time_slot_id, room_id, date, start_time, end_time, status, created_at,
                              seat_id, seat_label)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'NEW', $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
      [
        d.ticketId,
        cartOf(e),
        d.timeSlotId,
        d.roomId,
        d.date,
        d.startTime,
        d.endTime,
        e.createdAt,
        d.seat?.seatId ?? null,
        d.seat?.label ?? null,
      ],
    );
  },
  async TicketRemovedFromTransaction(e, client) {
    await client.query(`UPDATE rm_tickets SET status = 'INVALID' WHERE id = $1`, [e.data.ticketId]);
  },
  async TransactionTouched(e, client) {
    await client.query('UPDATE rm_transactions SET expires_at = $2 WHERE id = $1', [
      cartOf(e),
      e.data.expiresAt,
    ]);
  },
  async TransactionBooked(e, client) {
    await client.query(
      `UPDATE rm_transactions SET status = 'BOOKED', owner_id = $2 WHERE id = $1`,
      [e.data.transactionId, e.data.ownerId],
    );
    await client.query(
      'UPDATE rm_tickets SET booking_number = $2, owner_id = $3 WHERE id = ANY($1::uuid[])',
      [e.data.ticketIds, e.data.bookingNumber, e.data.ownerId],
    );
  },
  TransactionRemoved: setCart('REMOVED'),
  TransactionExpired: setCart('EXPIRED'),
  // Marks the tickets whose personal data is gone (the reservations list finds them by it).
  async PersonalDataErased(e, client) {
    await client.query('UPDATE rm_tickets SET personal_data_erased = true WHERE owner_id = $1', [
      e.data.ownerId,
    ]);
  },
  OwnerDataChanged: ignore,
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  TimeSlotDeleted: ignore,
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  // Why the hold ended: the cart shows the holds a closure ended.
  async TicketReleased(e, client) {
    await client.query(
      `UPDATE rm_tickets SET status = 'INVALID', release_reason = $2 WHERE id = $1`,
      [e.data.ticketId, e.data.reason],
    );
  },
  async TicketBooked(e, client) {
    await client.query(
      `UPDATE rm_tickets SET status = 'BOOKED', owner_id = $2, booked_at = $3,
              booking_number = COALESCE($4, booking_number), confirm_by = $5 WHERE id = $1`,
      [
        e.data.ticketId,
        e.data.ownerId,
        e.createdAt,
        e.data.bookingNumber ?? null,
        e.data.confirmBy ?? null,
      ],
    );
  },
  async TicketCancelled(e, client) {
    const why = ticketCancellation(e);
    await client.query(
      `UPDATE rm_tickets SET status = 'CANCELLED', cancelled_at = $2, cancelled_by = $3,
              cancel_reason = $4, moved_to = $5 WHERE id = $1`,
      [e.data.ticketId, e.createdAt, why.cancelled_by, why.cancel_reason, why.moved_to],
    );
  },
  // Check-in, its undo, and the no-show release (status INVALID, flagged).
  async TicketCheckedIn(e, client) {
    await client.query(
      'UPDATE rm_tickets SET checked_in_at = $2, checked_in_by = $3 WHERE id = $1',
      [e.data.ticketId, e.data.checkedInAt, actorName(e.metadata.actor)],
    );
  },
  async TicketCheckInUndone(e, client) {
    await client.query(
      'UPDATE rm_tickets SET checked_in_at = NULL, checked_in_by = NULL WHERE id = $1',
      [e.data.ticketId],
    );
  },
  async TicketSeatChanged(e, client) {
    await client.query('UPDATE rm_tickets SET seat_id = $2, seat_label = $3 WHERE id = $1', [
      e.data.ticketId,
      e.data.seat.seatId,
      e.data.seat.label,
    ]);
  },
  TicketNoShowReleased: setTicket(
    `UPDATE rm_tickets SET status = 'INVALID', no_show = true, released_at = $2 WHERE id = $1`,
  ),
  // Confirmed addresses: confirmed in time, or released unconfirmed (status INVALID, flagged).
  TicketConfirmed: setTicket(
    'UPDATE rm_tickets SET confirm_by = NULL, confirmed_at = $2 WHERE id = $1',
  ),
  TicketConfirmationLapsed: setTicket(
    `UPDATE rm_tickets SET status = 'INVALID', confirm_by = NULL, unconfirmed = true,
            released_at = $2 WHERE id = $1`,
  ),
  WaitlistJoined: ignore,
  SeatOffered: ignore,
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

/**
 * Carts and tickets. Personal data is not copied here: it is joined from the personal-data table
 * at read time, so erasing it there leaves nothing behind in read models.
 */
export const ticketsProjection: Projection = {
  name: 'tickets',
  derivedOnly: true,
  tables: ['rm_transactions', 'rm_tickets', 'rm_ticket_counts'],
  ...appliedBy(tickets),
  applyBatch: applyTicketsBatch,
};
