import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { emailKey, id, ownerId } from './fields.ts';

/**
 * A booking stored under an older key of its address takes the key now, `visitorKey`
 * (docs/product.md#one-person-one-key): its row and its no-show releases. The stream's key is the
 * older one; the address stays beside the log.
 */
export const BookingRekeyed = defineEvent(
  'BookingRekeyed',
  z.object({ ownerId, visitorKey: emailKey }),
);

/** A waitlist entry stored under an older key of its address takes the key now. */
export const WaitlistEntryRekeyed = defineEvent(
  'WaitlistEntryRekeyed',
  z.object({ entryId: id, visitorKey: emailKey }),
);

/** One stream per older key of an address: the rows moved from it to the key now. */
export const rekeyingStream = defineStream('rekeying', [BookingRekeyed, WaitlistEntryRekeyed]);

export type RekeyingEvent = EventOf<typeof rekeyingStream>;

export const rekeyingStreamId = (olderKey: string) => `${rekeyingStream.kind}-${olderKey}`;
