import { handlersFor, ignore, rekeyingStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

/**
 * The re-keying of rows stored under an older key of their address
 * (docs/product.md#one-person-one-key): a booking's row and a waitlist entry's row take the key
 * now. The no-show releases of a booking follow in the no-show rule's own projection
 * (no-show/record.ts).
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

interface EntriesFold extends InlineFold {
  rekeyed: { entryId: string; visitorKey: string }[];
}

export const waitlistEntriesRekeyedProjection = inlineProjection({
  table: 'waitlist_entries',
  handlers: handlersFor(rekeyingStream).with<EntriesFold, void, NewEvent>({
    BookingRekeyed: ignore,
    WaitlistEntryRekeyed: (e, f) => void f.rekeyed.push(e.data),
  }),
  start: (): EntriesFold => ({ streamId: '', rekeyed: [] }),
  async write(tx, { rekeyed }) {
    if (!rekeyed.length) return;
    await tx.send(
      `UPDATE waitlist_entries w SET visitor_key = u.visitor_key
         FROM unnest($1::uuid[], $2::text[]) AS u(entry_id, visitor_key)
        WHERE w.entry_id = u.entry_id`,
      [rekeyed.map((d) => d.entryId), rekeyed.map((d) => d.visitorKey)],
    );
  },
});
