import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { date, emailKey } from './fields.ts';

/** The address itself stays out of the log: entries carry the HMAC key of the normalised e-mail. */
export const BlacklistEntryAdded = defineEvent(
  'BlacklistEntryAdded',
  z.object({
    entryKey: emailKey,
    expiredAt: date,
    description: z.string().optional(),
  }),
);
export const BlacklistEntryRemoved = defineEvent(
  'BlacklistEntryRemoved',
  z.object({ entryKey: emailKey }),
);

/** Every event type of a blacklist entry's stream (`blacklist-<key>`). */
export const blacklistStream = defineStream('blacklist', [
  BlacklistEntryAdded,
  BlacklistEntryRemoved,
]);

export type BlacklistEvent = EventOf<typeof blacklistStream>;

export const blacklistStreamId = (entryKey: string) => `${blacklistStream.kind}-${entryKey}`;
