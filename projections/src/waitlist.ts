import { asStreamEvent, type RecordedEvent, type WaitlistEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

/**
 * Each slot's waitlist for staff's slot page, in line order (the slot stream's
 * version of the join), without personal data: waiting, offered, lapsed, taken (the seat went
 * into a cart), booked (that cart's ticket was booked), left (by the visitor) and removed (by
 * staff); and whether a waiting entry was passed over (the limits bar it: it claims no seat).
 */
export const waitlistProjection: Projection = {
  name: 'waitlist',
  derivedOnly: true,
  tables: ['rm_waitlist'],
  handles: new Set([
    'WaitlistJoined',
    'SeatOffered',
    'SeatOfferLapsed',
    'SeatOfferTaken',
    'WaitlistEntryErased',
    'WaitlistLeft',
    'WaitlistEntryRemovedByStaff',
    'WaitlistEntryPassedOver',
    'WaitlistEntryBackInLine',
    'TicketBooked',
  ]),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    if (event.type === 'TicketBooked') {
      await client.query(`UPDATE rm_waitlist SET status = 'booked' WHERE ticket_id = $1`, [
        (event.data as { ticketId: string }).ticketId,
      ]);
      return;
    }
    const e = asStreamEvent<WaitlistEvent>(event);
    switch (e.type) {
      case 'WaitlistJoined':
        await client.query(
          `INSERT INTO rm_waitlist (entry_id, time_slot_id, line_position, language, status, joined_at)
           VALUES ($1, $2, $3, $4, 'waiting', $5) ON CONFLICT (entry_id) DO NOTHING`,
          [
            e.data.entryId,
            e.data.timeSlotId,
            event.streamVersion,
            e.data.language,
            e.data.joinedAt,
          ],
        );
        return;
      case 'SeatOffered':
        await client.query(
          `UPDATE rm_waitlist SET status = 'offered', offer_expires_at = $2, passed_over = false
            WHERE entry_id = $1`,
          [e.data.entryId, e.data.expiresAt],
        );
        return;
      case 'SeatOfferLapsed':
        await client.query(`UPDATE rm_waitlist SET status = 'lapsed' WHERE entry_id = $1`, [
          e.data.entryId,
        ]);
        return;
      case 'SeatOfferTaken':
        await client.query(
          `UPDATE rm_waitlist SET status = 'taken', ticket_id = $2 WHERE entry_id = $1`,
          [e.data.entryId, e.data.ticketId],
        );
        return;
      case 'WaitlistLeft':
      case 'WaitlistEntryRemovedByStaff':
        await client.query(`UPDATE rm_waitlist SET status = $2 WHERE entry_id = $1`, [
          e.data.entryId,
          e.type === 'WaitlistLeft' ? 'left' : 'removed',
        ]);
        return;
      case 'WaitlistEntryPassedOver':
      case 'WaitlistEntryBackInLine':
        await client.query(`UPDATE rm_waitlist SET passed_over = $2 WHERE entry_id = $1`, [
          e.data.entryId,
          e.type === 'WaitlistEntryPassedOver',
        ]);
        return;
      case 'WaitlistEntryErased':
        // The time the log recorded: a rebuild writes the same.
        await client.query(`UPDATE rm_waitlist SET erased_at = $2 WHERE entry_id = $1`, [
          e.data.entryId,
          event.createdAt,
        ]);
        return;
    }
  },
};
