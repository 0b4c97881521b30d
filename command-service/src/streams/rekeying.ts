import {
  rekeyingStreamId,
  streamAppendOf,
  rekeyingStream,
  type AppendRequest,
  type RekeyingEvent,
  type StoreSession,
} from '@rr/events';

/**
 * The re-keying streams (`rekeying-<older key>`): bookings and waitlist entries moved from an
 * older key of their address to its key now. Their state is the rows they move (`bookings`,
 * `waitlist_entries`); this module is their lock and their one append.
 */

/** The command-side files whose decisions append to a re-keying stream. */
export const writers = ['erasure/rekey.ts'] as const;

/** Locks an older key's re-keying stream; answers its version (0: none yet). */
export async function lockRekeying(s: StoreSession, olderKey: string): Promise<number> {
  return (await s.lockStream(rekeyingStreamId(olderKey))) ?? 0;
}

export function appendToRekeying(
  olderKey: string,
  version: number,
  events: readonly RekeyingEvent[],
): AppendRequest[] {
  return streamAppendOf(rekeyingStream, rekeyingStreamId(olderKey), version, events);
}
