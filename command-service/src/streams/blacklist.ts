import {
  blacklistStreamId,
  foldStream,
  streamAppendOf,
  blacklistStream,
  type AppendRequest,
  type BlacklistEvent,
  type EventStore,
  type RecordedEvent,
  type StoreSession,
} from '@rr/events';
import { evolveBlacklist, initialBlacklistState, type BlacklistState } from '@rr/domain';

/**
 * The blacklist entry streams (`blacklist-<key>`, one per keyed e-mail address): their one
 * loader, which the booking and the waitlist also decide on, and their one append.
 */

/** The command-side files whose decisions append to a blacklist entry's stream. */
export const writers = ['blacklist/stream.ts'] as const;

/** An entry folded from its stream's events. */
export const foldBlacklistEntry = (events: readonly RecordedEvent[]): BlacklistState =>
  foldStream(events, evolveBlacklist, initialBlacklistState);

/** An entry's stream, folded (its writers hold its lock). */
export async function loadBlacklistEntry(
  s: StoreSession,
  entryKey: string,
): Promise<BlacklistState> {
  return foldBlacklistEntry((await s.readStream(blacklistStreamId(entryKey))).events);
}

/** An entry's stream, folded without a lock: what the check of an entered address reads. */
export async function readBlacklistEntry(
  store: Pick<EventStore, 'readStream'>,
  entryKey: string,
): Promise<BlacklistState> {
  return foldBlacklistEntry((await store.readStream(blacklistStreamId(entryKey))).events);
}

export function appendToBlacklist(
  entryKey: string,
  entry: { version: number },
  events: readonly BlacklistEvent[],
): AppendRequest[] {
  return streamAppendOf(blacklistStream, blacklistStreamId(entryKey), entry.version, events);
}
