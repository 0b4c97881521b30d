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

/**
 * The visitor's bookings folded; with `perSite` (LIMITS_PER_SITE) each ticket still counted with
 * the site of its room as the command side knows it now (ticket_state, timeslot_guard and
 * room_state, written with the events: no lag), which the per-site limits count by. A room moved
 * to another site takes its tickets' counts along.
 */
export async function loadVisitor(
  s: StoreSession,
  visitorKey: string,
  perSite = false,
): Promise<VisitorState> {
  const { events } = await s.readStream(visitorStreamId(visitorKey));
  const visitor = foldStream(events, evolveVisitor, initialVisitor);
  if (!perSite) return visitor;
  const counted = visitor.tickets.filter((t) => !t.cancelled).map((t) => t.ticketId);
  if (counted.length === 0) return visitor;
  const r = await s.client.query<{ ticket_id: string; site_id: string }>({
    name: 'rr_visitor_ticket_sites',
    text: `SELECT t.ticket_id::text AS ticket_id, r.site_id::text AS site_id
             FROM ticket_state t
             JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
             JOIN room_state r ON r.room_id = g.room_id
            WHERE t.ticket_id = ANY($1::uuid[])`,
    values: [counted],
  });
  const sites = new Map(r.rows.map((row) => [row.ticket_id, row.site_id]));
  return {
    ...visitor,
    tickets: visitor.tickets.map((t) => {
      const siteId = sites.get(t.ticketId);
      // A ticket whose room is gone counts for no site's limits (it is none of the rooms').
      return t.cancelled ? t : { ...t, siteId: siteId ?? '' };
    }),
  };
}

/** Locks the visitor's stream and folds it (loadVisitor). */
export async function lockAndLoadVisitor(
  s: StoreSession,
  visitorKey: string,
  perSite = false,
): Promise<VisitorState> {
  await s.lockStream(visitorStreamId(visitorKey));
  return loadVisitor(s, visitorKey, perSite);
}

/** The append of a visitor's events at the version their state was read at. */
export function appendToVisitor(
  visitorKey: string,
  visitor: { version: number },
  events: readonly VisitorEvent[],
): AppendRequest[] {
  return streamAppendOf(visitorStream, visitorStreamId(visitorKey), visitor.version, events);
}
