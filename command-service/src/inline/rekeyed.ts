import { handlersFor, ignore, rekeyingStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

/**
 * The re-keying of rows stored under an older key of their address
 * (docs/product.md#one-person-one-key): a booking's row takes the key now. A waitlist entry's row
 * follows in the waitlist module's projection (waitlist/entries-projection.ts), the no-show
 * releases of a booking in the no-show rule's own (no-show/record.ts).
 */

interface BookingsFold extends InlineFold {
  rekeyed: { ownerId: string; visitorKey: string }[];
}

export const bookingsRekeyedProjection = inlineProjection({
  table: 'bookings',
  handlers: handlersFor(rekeyingStream).with<BookingsFold, void, NewEvent>({
    BookingRekeyed: (e, f) => void f.rekeyed.push(e.data),
    WaitlistEntryRekeyed: ignore,
  }),
  start: (): BookingsFold => ({ streamId: '', rekeyed: [] }),
  async write(tx, { rekeyed }) {
    if (!rekeyed.length) return;
    await tx.send(
      `UPDATE bookings b SET visitor_key = u.visitor_key
         FROM unnest($1::text[], $2::text[]) AS u(owner_id, visitor_key)
        WHERE b.owner_id = u.owner_id`,
      [rekeyed.map((d) => d.ownerId), rekeyed.map((d) => d.visitorKey)],
    );
  },
});
