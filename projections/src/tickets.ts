import type { RecordedEvent, SlotTicketEvent, TransactionEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

/**
 * Carts and tickets. Personal data is not copied here: it is joined from the personal-data table
 * at read time, so erasing it there leaves nothing behind in read models.
 */
export const ticketsProjection: Projection = {
  name: 'tickets',
  tables: ['rm_transactions', 'rm_tickets'],
  handles: new Set([
    'TransactionStarted',
    'TicketAddedToTransaction',
    'TicketRemovedFromTransaction',
    'TransactionTouched',
    'TransactionBooked',
    'TransactionRemoved',
    'TransactionExpired',
    'TicketReleased',
    'TicketBooked',
    'TicketCancelled',
  ]),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    const e = event as unknown as TransactionEvent | SlotTicketEvent;
    const transactionId = event.streamId.startsWith('transaction-')
      ? event.streamId.slice('transaction-'.length)
      : null;
    switch (e.type) {
      case 'TransactionStarted':
        await client.query(
          `INSERT INTO rm_transactions (id, status, expires_at, created_at) VALUES ($1, 'NEW', $2, $3) ON CONFLICT (id) DO NOTHING`,
          [e.data.transactionId, e.data.expiresAt, event.createdAt],
        );
        return;
      case 'TicketAddedToTransaction':
        await client.query('UPDATE rm_transactions SET expires_at = $2 WHERE id = $1', [
          transactionId,
          e.data.expiresAt,
        ]);
        await client.query(
          `INSERT INTO rm_tickets (id, transaction_id, time_slot_id, room_id, date, start_time, end_time, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'NEW', $8) ON CONFLICT (id) DO NOTHING`,
          [
            e.data.ticketId,
            transactionId,
            e.data.timeSlotId,
            e.data.roomId,
            e.data.date,
            e.data.startTime,
            e.data.endTime,
            event.createdAt,
          ],
        );
        return;
      case 'TicketRemovedFromTransaction':
        await client.query(`UPDATE rm_tickets SET status = 'INVALID' WHERE id = $1`, [
          e.data.ticketId,
        ]);
        return;
      case 'TransactionTouched':
        await client.query('UPDATE rm_transactions SET expires_at = $2 WHERE id = $1', [
          transactionId,
          e.data.expiresAt,
        ]);
        return;
      case 'TransactionBooked':
        await client.query(
          `UPDATE rm_transactions SET status = 'BOOKED', owner_id = $2 WHERE id = $1`,
          [e.data.transactionId, e.data.ownerId],
        );
        await client.query(
          'UPDATE rm_tickets SET booking_number = $2, owner_id = $3 WHERE id = ANY($1::uuid[])',
          [e.data.ticketIds, e.data.bookingNumber, e.data.ownerId],
        );
        return;
      case 'TransactionRemoved':
        await client.query(`UPDATE rm_transactions SET status = 'REMOVED' WHERE id = $1`, [
          e.data.transactionId,
        ]);
        return;
      case 'TransactionExpired':
        await client.query(`UPDATE rm_transactions SET status = 'EXPIRED' WHERE id = $1`, [
          e.data.transactionId,
        ]);
        return;
      case 'TicketReleased':
        await client.query(`UPDATE rm_tickets SET status = 'INVALID' WHERE id = $1`, [
          e.data.ticketId,
        ]);
        return;
      case 'TicketBooked':
        await client.query(
          `UPDATE rm_tickets SET status = 'BOOKED', owner_id = $2, booked_at = $3 WHERE id = $1`,
          [e.data.ticketId, e.data.ownerId, event.createdAt],
        );
        return;
      case 'TicketCancelled':
        await client.query(
          `UPDATE rm_tickets SET status = 'CANCELLED', cancelled_at = $2 WHERE id = $1`,
          [e.data.ticketId, event.createdAt],
        );
        return;
      default:
        return;
    }
  },
};
