import { asStreamEvent, type NewEvent, type RekeyingEvent } from '@rr/events';
import type { AppendedEvent, InlineProjection } from '../inline-projections.ts';

/**
 * The re-keying of rows stored under an older key of their address (docs/product.md#one-person-one-key):
 * a booking's row and a waitlist entry's row take the key now. The no-show releases of a booking
 * follow in the no-show rule's own projection (no-show/record.ts).
 */

type Rekeyed<T extends RekeyingEvent['type']> = Extract<RekeyingEvent, { type: T }>['data'];

const bookingsOf = (events: readonly AppendedEvent[]): Rekeyed<'BookingRekeyed'>[] =>
  events.map(
    (e) =>
      asStreamEvent<Extract<RekeyingEvent, { type: 'BookingRekeyed' }>, NewEvent>(e.event).data,
  );
const entriesOf = (events: readonly AppendedEvent[]): Rekeyed<'WaitlistEntryRekeyed'>[] =>
  events.map(
    (e) =>
      asStreamEvent<Extract<RekeyingEvent, { type: 'WaitlistEntryRekeyed' }>, NewEvent>(e.event)
        .data,
  );

const bookingsRekeyed: InlineProjection = {
  table: 'bookings',
  handles: ['BookingRekeyed'],
  apply: async (tx, events) => {
    const rekeyed = bookingsOf(events);
    await tx.send(
      `UPDATE bookings b SET visitor_key = u.visitor_key
         FROM unnest($1::text[], $2::text[]) AS u(owner_id, visitor_key)
        WHERE b.owner_id = u.owner_id`,
      [rekeyed.map((d) => d.ownerId), rekeyed.map((d) => d.visitorKey)],
    );
  },
};

const waitlistEntriesRekeyed: InlineProjection = {
  table: 'waitlist_entries',
  handles: ['WaitlistEntryRekeyed'],
  apply: async (tx, events) => {
    const rekeyed = entriesOf(events);
    await tx.send(
      `UPDATE waitlist_entries w SET visitor_key = u.visitor_key
         FROM unnest($1::uuid[], $2::text[]) AS u(entry_id, visitor_key)
        WHERE w.entry_id = u.entry_id`,
      [rekeyed.map((d) => d.entryId), rekeyed.map((d) => d.visitorKey)],
    );
  },
};

export const rekeyingProjections: readonly InlineProjection[] = [
  bookingsRekeyed,
  waitlistEntriesRekeyed,
];
