import {
  noShowStreamId,
  streamAppendOf,
  noShowStream,
  type AppendRequest,
  type NoShowEvent,
  type StoreSession,
} from '@rr/events';

/**
 * The no-show streams (`no-shows-<key>`, one per keyed address): staff's lifts of a no-show block.
 * Their state is the rule's rows beside the log (`visitor_no_shows`, `visitor_no_show_lifts`),
 * which the stream's lock guards; this module is their lock and their one append.
 */

/** The command-side files whose decisions append to a no-show stream. */
export const writers = ['no-show/store.ts'] as const;

/** Locks a key's no-show stream; answers its version (0: none yet). */
export async function lockNoShows(s: StoreSession, visitorKey: string): Promise<number> {
  return (await s.lockStream(noShowStreamId(visitorKey))) ?? 0;
}

export function appendToNoShows(
  visitorKey: string,
  version: number,
  events: readonly NoShowEvent[],
): AppendRequest[] {
  return streamAppendOf(noShowStream, noShowStreamId(visitorKey), version, events);
}
