import { z } from 'zod';
import { defineEvent } from './define.ts';

const visitorKey = z.string().regex(/^[0-9a-f]{40}$/);
const ownerId = z.string().regex(/^[0-9a-f]{32}$/);

// --- the re-keying stream (one per older key of an address): rows moved to the key now ---------

/**
 * A booking stored under an older key of its address takes the key now, `visitorKey`
 * (docs/product.md#one-person-one-key): its row and its no-show releases. The stream's key is the
 * older one; the address stays beside the log.
 */
export const BookingRekeyed = defineEvent('BookingRekeyed', z.object({ ownerId, visitorKey }));

/** A waitlist entry stored under an older key of its address takes the key now. */
export const WaitlistEntryRekeyed = defineEvent(
  'WaitlistEntryRekeyed',
  z.object({ entryId: z.uuid(), visitorKey }),
);

export const rekeyingEvents = [BookingRekeyed, WaitlistEntryRekeyed];

type D<T extends { schema: z.ZodType }> = z.infer<T['schema']>;

export type RekeyingEvent =
  | { type: 'BookingRekeyed'; data: D<typeof BookingRekeyed> }
  | { type: 'WaitlistEntryRekeyed'; data: D<typeof WaitlistEntryRekeyed> };

export const rekeyingStreamId = (olderKey: string) => `rekeying-${olderKey}`;
