import { timeSlotStreamId, visitorStreamId, type AppendRequest } from '@rr/events';
import {
  decideConfirmation,
  refuse,
  type ConfirmationCommand,
  type ConfirmationDecision,
  type SlotState,
  type VisitorState,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand, streamAppend } from '../command.ts';
import { lockAndLoadVisitor, lockCartAndSlots, loadTransaction } from './store.ts';

/**
 * Confirmed addresses (docs/product.md#confirmed-addresses), on the command side: the visitor's
 * confirmation through the owner page, and the release job's step for a ticket whose deadline has
 * come. Both decide on the slot streams of the tickets under their locks (decideConfirmation), so
 * a confirmation and a release of the same ticket never both happen.
 */

interface Loaded {
  slots: Map<string, SlotState>;
  /** Only a release loads the visitor (it frees the ticket there too). */
  visitor: { key: string; state: VisitorState } | null;
}

function appendsOf(decision: ConfirmationDecision, { slots, visitor }: Loaded): AppendRequest[] {
  const requests: AppendRequest[] = [];
  for (const [slotId, events] of decision.slots)
    requests.push(
      ...streamAppend(timeSlotStreamId(slotId), 'timeslot', slots.get(slotId)!.version, events),
    );
  if (decision.visitor.length && visitor)
    requests.push(
      ...streamAppend(
        visitorStreamId(visitor.key),
        'visitor',
        visitor.state.version,
        decision.visitor,
      ),
    );
  return requests;
}

/**
 * The visitor confirms their booking (POST /owners/{ownerId}/confirm): every ticket of it still
 * awaiting confirmation. Answers how many tickets it confirmed (0: confirmed already, or never
 * asked); `booking__confirmation_lapsed` when its tickets were released unconfirmed.
 */
export async function confirmBooking(deps: CommandDeps, ownerId: string) {
  const command: ConfirmationCommand = { type: 'ConfirmBooking', data: { ownerId } };
  return handleCommand(deps.store, {
    actor: { kind: 'visitor' },
    load: async (s): Promise<Loaded> => {
      const b = await s.client.query<{ transaction_id: string }>(
        'SELECT transaction_id FROM bookings WHERE owner_id = $1',
        [ownerId],
      );
      const booking = b.rows[0];
      if (!booking) throw refuse.notFound('Owner');
      const cart = await loadTransaction(s, booking.transaction_id);
      const slots = await lockCartAndSlots(
        s,
        null,
        cart.tickets.map((t) => t.timeSlotId),
      );
      return { slots, visitor: null };
    },
    decide: (state) => decideConfirmation(command, state.slots, decisionTime(deps)),
    appends: appendsOf,
    answer: (decision) => [...decision.slots.values()].reduce((n, events) => n + events.length, 0),
  });
}

/**
 * The release job's step for one ticket whose confirmation deadline has come (actor `system`):
 * on the ticket's slot stream, and on its visitor's stream (the per-visitor limits free it).
 * Answers whether it released the ticket (false: confirmed, cancelled or released meanwhile).
 */
export async function releaseUnconfirmedTicket(
  deps: CommandDeps,
  ticket: { ticketId: string; timeSlotId: string; visitorKey: string | null },
): Promise<boolean> {
  const command: ConfirmationCommand = {
    type: 'LapseConfirmation',
    data: { ticketId: ticket.ticketId },
  };
  const { answer } = await handleCommand(deps.store, {
    actor: { kind: 'system', job: 'confirmation-release' },
    load: async (s): Promise<Loaded> => {
      const slots = await lockCartAndSlots(s, null, [ticket.timeSlotId]);
      const visitor = ticket.visitorKey
        ? { key: ticket.visitorKey, state: await lockAndLoadVisitor(s, ticket.visitorKey) }
        : null;
      return { slots, visitor };
    },
    decide: (state) => decideConfirmation(command, state.slots, decisionTime(deps)),
    appends: appendsOf,
    answer: (decision) => decision.slots.size > 0,
  });
  return answer;
}

/**
 * The release of tickets not confirmed by their deadline, a step of the no-show job's round (one
 * job releases every due ticket): `ticket_state`'s partial index on the deadline finds the due
 * ones (booked, awaiting confirmation, deadline come by the clock), never a scan of every booked
 * ticket. Answers how many it released.
 */
export async function releaseUnconfirmed(deps: CommandDeps, batch = 500): Promise<number> {
  const { now } = decisionTime(deps);
  const due = await deps.pool.query<{
    id: string;
    time_slot_id: string;
    visitor_key: string | null;
  }>(
    `SELECT t.ticket_id AS id, t.time_slot_id, b.visitor_key
       FROM ticket_state t
       LEFT JOIN bookings b ON b.owner_id = t.owner_id
      WHERE t.status = 'BOOKED' AND t.confirm_by IS NOT NULL AND t.confirm_by <= $1
      ORDER BY t.confirm_by, t.ticket_id LIMIT $2`,
    [now, batch],
  );
  let released = 0;
  for (const t of due.rows) {
    try {
      const done = await releaseUnconfirmedTicket(deps, {
        ticketId: t.id,
        timeSlotId: t.time_slot_id,
        visitorKey: t.visitor_key,
      });
      if (done) released += 1;
    } catch (err) {
      deps.logger.warn(
        { ticketId: t.id, err: String(err) },
        'release of an unconfirmed ticket failed; retried next round',
      );
    }
  }
  return released;
}
