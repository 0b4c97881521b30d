import type { WaitlistEvent } from '@rr/events';
import { inlineProjection } from '../inline-projection.ts';

type OfferEvent = Extract<
  WaitlistEvent,
  { type: 'SeatOffered' | 'SeatOfferLapsed' | 'SeatOfferTaken' }
>;

/**
 * `waitlist_entries` beside the log: offers and lapses move the entries' status and offer (the
 * offer mail's recipient, the matcher's candidate slots). The row itself, with the address, is
 * written by the join and deleted by the erasure (personal data: never in an event).
 */
export const waitlistEntriesProjection = inlineProjection<OfferEvent>({
  table: 'waitlist_entries',
  handles: ['SeatOffered', 'SeatOfferLapsed', 'SeatOfferTaken'],
  async apply(client, events) {
    for (const { event: e } of events) {
      if (e.type === 'SeatOffered')
        await client.query(
          `UPDATE waitlist_entries SET status = 'offered', offer_id = $2, offer_expires_at = $3 WHERE entry_id = $1`,
          [e.data.entryId, e.data.offerId, e.data.expiresAt],
        );
      else
        await client.query(`UPDATE waitlist_entries SET status = $2 WHERE entry_id = $1`, [
          e.data.entryId,
          e.type === 'SeatOfferLapsed' ? 'lapsed' : 'taken',
        ]);
    }
  },
});
