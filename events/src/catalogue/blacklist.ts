import { z } from 'zod';
import { defineEvent } from './define.ts';

/** The address itself stays out of the log: entries carry the HMAC key of the normalised e-mail. */
export const BlacklistEntryAdded = defineEvent(
  'BlacklistEntryAdded',
  z.object({
    entryKey: z.string().regex(/^[0-9a-f]{40}$/),
    expiredAt: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    description: z.string().optional(),
  }),
);
export const BlacklistEntryRemoved = defineEvent(
  'BlacklistEntryRemoved',
  z.object({ entryKey: z.string().regex(/^[0-9a-f]{40}$/) }),
);

export const blacklistEvents = [BlacklistEntryAdded, BlacklistEntryRemoved];

export type BlacklistEvent =
  | {
      type: 'BlacklistEntryAdded';
      data: { entryKey: string; expiredAt: string; description?: string | undefined };
    }
  | { type: 'BlacklistEntryRemoved'; data: { entryKey: string } };

export const blacklistStreamId = (entryKey: string) => `blacklist-${entryKey}`;
