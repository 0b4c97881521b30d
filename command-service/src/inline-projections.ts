import type { AppendRequest } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import { eventsByProjection, type InlineProjection } from './inline-projection.ts';
import {
  holidayStateProjection,
  openCartsProjection,
  roomOrderProjection,
  roomStateProjection,
  slotTimesProjection,
  ticketStateProjection,
} from './write-state.ts';
import { waitlistEntriesProjection } from './waitlist/entries.ts';

/**
 * Every table beside the log that events move, in the order they are applied: the one registry.
 * The command handler (command.ts) alone applies it, to the events it appends, in their
 * transaction. Rows that are no events (personal data, image bytes) are the commands' `record`.
 */
export const inlineProjections: readonly InlineProjection[] = [
  roomStateProjection,
  roomOrderProjection,
  slotTimesProjection,
  holidayStateProjection,
  ticketStateProjection,
  openCartsProjection,
  waitlistEntriesProjection,
];

/** The inline projections by the event types they handle. */
const byType = new Map<string, InlineProjection[]>();
for (const p of inlineProjections)
  for (const type of p.handles) byType.set(type, [...(byType.get(type) ?? []), p]);

/** Moves the tables beside the log by the events of these appends (in the registry's order). */
export async function projectInline(
  client: PoolClient,
  requests: readonly AppendRequest[],
): Promise<void> {
  const batches = eventsByProjection(byType, requests);
  for (const p of inlineProjections) {
    const events = batches.get(p);
    if (events?.length) await p.apply(client, events);
  }
}
