import {
  foldStream,
  streamAppendOf,
  visitorStream,
  visitorStreamId,
  type AppendRequest,
  type StoreSession,
  type VisitorEvent,
} from '@rr/events';
import { evolveVisitor, initialVisitor, type VisitorState } from '@rr/domain';

/**
 * The visitor streams (`visitor-<key>`, one per keyed e-mail address): a person's bookings, which
 * their limits count. Their one loader and their one append.
 */

/** The command-side files whose decisions append to a visitor's stream. */
export const writers = ['booking/store.ts', 'booking/confirm.ts', 'erasure/rekey.ts'] as const;

export async function loadVisitor(s: StoreSession, visitorKey: string): Promise<VisitorState> {
  const { events } = await s.readStream(visitorStreamId(visitorKey));
  return foldStream(events, evolveVisitor, initialVisitor);
}

/** Locks the visitor's stream and folds it. */
export async function lockAndLoadVisitor(
  s: StoreSession,
  visitorKey: string,
): Promise<VisitorState> {
  await s.lockStream(visitorStreamId(visitorKey));
  return loadVisitor(s, visitorKey);
}

/** The append of a visitor's events at the version their state was read at. */
export function appendToVisitor(
  visitorKey: string,
  visitor: { version: number },
  events: readonly VisitorEvent[],
): AppendRequest[] {
  return streamAppendOf(visitorStream, visitorStreamId(visitorKey), visitor.version, events);
}
