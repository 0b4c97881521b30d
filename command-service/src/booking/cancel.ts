import { visitorStreamId, type Actor, type NewEvent, type StoreSession } from '@rr/events';
import { localDateTime, problems } from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { decideCancel } from './decider.ts';
import { decisionRequests, loadTransaction, lockCartAndSlots } from './store.ts';

/**
 * Cancels booked tickets of one owner inside a store transaction: the tickets must belong to the
 * owner's booking, and each must be cancelable (its slot not started). The slot streams free the
 * seats; the visitor stream forgets them for the per-visitor limits.
 */
export async function cancelOwnerTickets(
  s: StoreSession,
  deps: CommandDeps,
  ownerId: string,
  ticketIds: string[],
  actor: Actor,
): Promise<number> {
  const b = await s.client.query<{ transaction_id: string; visitor_key: string }>(
    'SELECT transaction_id, visitor_key FROM bookings WHERE owner_id = $1',
    [ownerId],
  );
  const booking = b.rows[0];
  if (!booking) throw problems.notFound('Owner');
  const cart = await loadTransaction(s, booking.transaction_id);
  const ids = [...new Set(ticketIds)];
  const bySlot = new Map<string, string[]>();
  for (const id of ids) {
    const t = cart.tickets.find((x) => x.ticketId === id);
    if (!t) throw problems.notFound('Ticket');
    bySlot.set(t.timeSlotId, [...(bySlot.get(t.timeSlotId) ?? []), id]);
  }
  const slots = await lockCartAndSlots(s, null, bySlot.keys());
  const visitorVersion = (await s.lockStream(visitorStreamId(booking.visitor_key))) ?? 0;
  const localNow = localDateTime(deps.clock.now(), deps.timeZone);
  const slotEvents = new Map<string, NewEvent[]>();
  const visitorEvents: NewEvent[] = [];
  for (const [slotId, list] of bySlot) {
    for (const ticketId of list) {
      const d = decideCancel(slots.get(slotId)!, ticketId, ownerId, localNow);
      slotEvents.set(slotId, [...(slotEvents.get(slotId) ?? []), ...d.slot]);
      visitorEvents.push(...d.visitor);
    }
  }
  await s.append(
    [
      ...decisionRequests(
        booking.transaction_id,
        cart.version,
        { transaction: [], slots: slotEvents },
        slots,
      ),
      {
        streamId: visitorStreamId(booking.visitor_key),
        streamType: 'visitor',
        expectedVersion: visitorVersion,
        events: visitorEvents,
      },
    ],
    { metadata: { actor } },
  );
  return ids.length;
}
