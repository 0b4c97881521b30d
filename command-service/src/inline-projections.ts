import type { AppendRequest } from '@rr/events';
import type { AppendedEvent, InlineProjection, InlineTransaction } from './inline/define.ts';
import { bookingsProjection } from './inline/bookings.ts';
import { holidayStateProjection } from './inline/holiday-state.ts';
import { openCartsProjection } from './inline/open-carts.ts';
import { roomStateProjection } from './inline/room-state.ts';
import { siteStateProjection } from './inline/site-state.ts';
import { ticketStateProjection } from './inline/ticket-state.ts';
import { timeSlotGuardProjection } from './inline/timeslot-guard.ts';
import { visitorNoShowsProjection } from './no-show/record.ts';
import { bookingsRekeyedProjection } from './inline/rekeyed.ts';
import {
  waitlistEntriesProjection,
  waitlistEntriesRekeyedProjection,
} from './waitlist/entries-projection.ts';

export type { AppendedEvent, InlineProjection, InlineTransaction } from './inline/define.ts';

/*
 * What commands decide on besides the streams they lock (write-state.ts and the loaders read
 * them), each moved by the events in the transaction that appends them, so they are never behind
 * the log (unlike the read models, which projections fill after the commit). One file per table
 * in inline/, each an inline projection (inline/define.ts) whose handlers name every event type
 * of the streams it reads:
 *
 * - `room_state`: each existing room (evolveRoom) and its place in the manual order;
 * - `timeslot_guard`: when each slot of a room sits (no overlaps, the slots of a room or range);
 * - `holiday_state`: each holiday (evolveHoliday);
 * - `site_state`: each site's rule for members of the university and its booking window (the
 *   loaders give its rooms);
 * - `ticket_state`: each ticket's slot, cart, status, owner and whether it is checked in (what
 *   finds the ticket of a check-in, a staff change or a no-show release);
 * - `open_carts`: the expiry of each cart not booked, removed or expired (the expiry job);
 * - `bookings`: each booking's owner id, cart, visitor, booking number and language (what a
 *   cancel link, a check-in or a mail finds the booking by; its personal data is a `record`);
 * - `waitlist_entries`: each entry's status and offer (the matcher's candidates, the offer mail),
 *   the waitlist module's own (waitlist/entries-projection.ts);
 * - `visitor_no_shows`: the no-show rule's record of releases, the no-show module's own
 *   (no-show/record.ts), registered here with the others;
 * - the re-keying of `bookings` and `waitlist_entries` to an address's key now (inline/rekeyed.ts).
 */

/**
 * Every table beside the log that events move, in the order they are applied: the one registry.
 * The command handler (command.ts) alone applies it, to the events it appends, in their
 * transaction. Rows that are no events (personal data, image bytes) are the commands' `record`,
 * written after these.
 */
export const inlineProjections: readonly InlineProjection[] = [
  roomStateProjection,
  timeSlotGuardProjection,
  holidayStateProjection,
  siteStateProjection,
  ticketStateProjection,
  openCartsProjection,
  bookingsProjection,
  waitlistEntriesProjection,
  bookingsRekeyedProjection,
  waitlistEntriesRekeyedProjection,
  visitorNoShowsProjection,
];

/** The inline projections by the event types they handle. */
const byType = new Map<string, InlineProjection[]>();
for (const p of inlineProjections)
  for (const type of p.handles) byType.set(type, [...(byType.get(type) ?? []), p]);

/** The events of the appends, by the inline projection that handles them (keyed by event type). */
function eventsByProjection(
  requests: readonly AppendRequest[],
): Map<InlineProjection, AppendedEvent[]> {
  const batches = new Map<InlineProjection, AppendedEvent[]>();
  for (const r of requests)
    for (const event of r.events)
      for (const p of byType.get(event.type) ?? []) {
        const list = batches.get(p) ?? [];
        list.push({ streamId: r.streamId, event });
        batches.set(p, list);
      }
  return batches;
}

/** Moves the tables beside the log by the events of these appends (in the registry's order). */
export async function projectInline(
  tx: InlineTransaction,
  requests: readonly AppendRequest[],
  at: Date,
): Promise<void> {
  const batches = eventsByProjection(requests);
  for (const p of inlineProjections) {
    const events = batches.get(p);
    if (events?.length) await p.apply(tx, events, at);
  }
}
