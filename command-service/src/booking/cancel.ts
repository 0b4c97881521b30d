import type { Actor, StoreSession } from '@rr/events';
import { lockSlots } from '../streams/timeslot.ts';
import {
  decideReservation,
  emptyReservation,
  evolveSlotWith,
  refuse,
  type SlotState,
} from '@rr/domain';
import { Problem, problems } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand, mergeAppends } from '../command.ts';
import { reservationAppends, type LoadedReservation } from './store.ts';
import { loadTransaction } from '../streams/transaction.ts';
import { lockAndLoadVisitor } from '../streams/visitor.ts';

/** One owner's booking and the tickets of it to cancel. */
interface OwnerCancellation {
  ownerId: string;
  ticketIds: string[];
  state: LoadedReservation;
}

/**
 * The owner's booking (the `bookings` row names its cart and visitor), with the slots of the
 * tickets to cancel and the visitor's stream locked and folded.
 */
async function loadOwner(
  s: StoreSession,
  ownerId: string,
  ticketIds: string[],
): Promise<OwnerCancellation> {
  // The visitor stream the booking's tickets count on: its subject's when booked signed in.
  const b = await s.client.query<{ transaction_id: string; visitor_key: string }>(
    'SELECT transaction_id, COALESCE(subject_key, visitor_key) AS visitor_key FROM bookings WHERE owner_id = $1',
    [ownerId],
  );
  const booking = b.rows[0];
  if (!booking) throw refuse.notFound('Owner');
  const cart = await loadTransaction(s, booking.transaction_id);
  const slotIds = cart.tickets
    .filter((t) => ticketIds.includes(t.ticketId))
    .map((t) => t.timeSlotId);
  const slots = await lockSlots(s, slotIds);
  const visitor = await lockAndLoadVisitor(s, booking.visitor_key);
  const state = {
    ...emptyReservation,
    cart,
    slots,
    visitor,
    transactionId: booking.transaction_id,
    visitorKey: booking.visitor_key,
  };
  return { ownerId, ticketIds, state };
}

/**
 * Cancels booked tickets, of one owner (the mail's link) or of several (staff), in one
 * transaction: each ticket must belong to its owner's booking and be cancelable (its slot not
 * started), or nothing is cancelled. The slot streams free the seats; the visitor stream forgets
 * them for the per-visitor limits. Answers how many tickets were cancelled.
 */
/**
 * Why staff cancel: the reason the mail names (with its English text), and for a closure's
 * cancellation its closure (the reservations list says why a ticket was cancelled).
 */
export interface CancellationWhy {
  reason?: string | undefined;
  reasonEn?: string | undefined;
  closureId?: string | undefined;
}

export function cancelTickets(
  deps: CommandDeps,
  byOwner: ReadonlyMap<string, string[]>,
  actor: Actor,
  why: CancellationWhy = {},
) {
  // Owners in a fixed order: two cancellations lock the same streams in the same order.
  const owners = [...byOwner].sort(([a], [b]) => (a < b ? -1 : 1));
  return handleCommand(deps.store, {
    actor,
    load: async (s) => {
      const loaded: OwnerCancellation[] = [];
      for (const [ownerId, ticketIds] of owners)
        loaded.push(await loadOwner(s, ownerId, ticketIds));
      return loaded;
    },
    decide: (loaded) => {
      const context = { ...decisionTime(deps), limits: deps.limits, timeZone: deps.timeZone };
      // Owner by owner, each on the slots as the earlier owners' cancellations left them.
      const decided = new Map<string, SlotState>();
      return loaded.map(({ ownerId, ticketIds, state }) => {
        const slots = new Map([...state.slots].map(([id, slot]) => [id, decided.get(id) ?? slot]));
        const decision = decideReservation(
          { type: 'CancelTickets', data: { ownerId, ticketIds, ...why } },
          { ...state, slots },
          context,
        );
        for (const [id, events] of decision.slots)
          decided.set(id, evolveSlotWith(slots.get(id)!, events));
        return decision;
      });
    },
    appends: (decisions, loaded) =>
      mergeAppends(
        decisions.flatMap((decision, i) => reservationAppends(loaded[i]!.state, decision)),
      ),
    answer: (_decisions, loaded) =>
      loaded.reduce((n, { ticketIds }) => n + new Set(ticketIds).size, 0),
  });
}

/**
 * Staff cancel booked tickets by id, of any owners: `ticket_state` only finds each ticket's
 * owner; the decision is on the owners' streams (cancelTickets).
 */
export async function cancelStaffTickets(
  deps: CommandDeps,
  ticketIds: readonly string[],
  actor: Actor,
  reason?: string,
) {
  const r = await deps.pool.query<{ id: string; owner_id: string | null }>(
    'SELECT ticket_id AS id, owner_id FROM ticket_state WHERE ticket_id = ANY($1::uuid[])',
    [ticketIds],
  );
  const byOwner = new Map<string, string[]>();
  for (const id of new Set(ticketIds)) {
    const row = r.rows.find((x) => x.id === id);
    if (!row) throw problems.notFound('Ticket');
    if (!row.owner_id) throw new Problem(409, 'ticket__not_cancelable', 'The ticket is not booked');
    byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), id]);
  }
  return cancelTickets(deps, byOwner, actor, { reason });
}
