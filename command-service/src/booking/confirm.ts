import { type AppendRequest } from '@rr/events';
import { lockSlots } from '../streams/timeslot.ts';
import { confirmationTokenMatches } from '@rr/platform';
import {
  decideConfirmation,
  refuse,
  Refused,
  type ConfirmationCommand,
  type ConfirmationDecision,
  type SlotState,
  type VisitorState,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { lockAndLoadVisitor } from '../streams/visitor.ts';
import { loadTransaction } from '../streams/transaction.ts';
import { appendToSlot } from '../streams/timeslot.ts';
import { appendToVisitor } from '../streams/visitor.ts';

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
    requests.push(...appendToSlot(slotId, slots.get(slotId)!, events));
  if (decision.visitor.length && visitor)
    requests.push(...appendToVisitor(visitor.key, visitor.state, decision.visitor));
  return requests;
}

/**
 * The visitor confirms their booking (POST /owners/{ownerId}/confirm) with the token of the
 * confirmation mail's link: every ticket of it still awaiting confirmation. The owner id alone
 * proves nothing (the booker has it whatever address they typed): without a token of the owner's
 * mails the confirmation is refused (`booking__confirmation_link_invalid`), before anything is
 * decided. Answers how many tickets it confirmed (0: confirmed already);
 * `booking__confirmation_lapsed` when its tickets were released unconfirmed.
 */
export async function confirmBooking(
  deps: CommandDeps,
  ownerId: string,
  token: string | undefined,
) {
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
      if (!(await confirmationTokenMatches(s.client, ownerId, token)))
        throw new Refused(
          'booking__confirmation_link_invalid',
          "Only the link of the booking's confirmation mail confirms it",
        );
      const cart = await loadTransaction(s, booking.transaction_id);
      const slots = await lockSlots(
        s,
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
 * The release job's step for a booking's tickets whose confirmation deadline has come (actor
 * `system`), in one transaction, so the visitor gets one mail for them: on the tickets' slot
 * streams, and on the visitor's stream (the per-visitor limits free them). Answers how many it
 * released (fewer when some were confirmed, cancelled or released meanwhile).
 */
export async function releaseUnconfirmedTickets(
  deps: CommandDeps,
  booking: { visitorKey: string | null; tickets: { ticketId: string; timeSlotId: string }[] },
): Promise<number> {
  const { answer } = await handleCommand(deps.store, {
    actor: { kind: 'system', job: 'confirmation-release' },
    load: async (s): Promise<Loaded> => {
      const slots = await lockSlots(
        s,
        booking.tickets.map((t) => t.timeSlotId),
      );
      const visitor = booking.visitorKey
        ? { key: booking.visitorKey, state: await lockAndLoadVisitor(s, booking.visitorKey) }
        : null;
      return { slots, visitor };
    },
    decide: (state): ConfirmationDecision => {
      // Each ticket is decided on its own slot's ticket, which no other ticket's release touches.
      const at = decisionTime(deps);
      const all: ConfirmationDecision = { slots: new Map(), visitor: [] };
      for (const { ticketId } of booking.tickets) {
        const d = decideConfirmation(
          { type: 'LapseConfirmation', data: { ticketId } },
          state.slots,
          at,
        );
        for (const [slotId, events] of d.slots)
          all.slots.set(slotId, [...(all.slots.get(slotId) ?? []), ...events]);
        all.visitor.push(...d.visitor);
      }
      return all;
    },
    appends: appendsOf,
    answer: (decision) => decision.visitor.length,
  });
  return answer;
}

/**
 * The release of tickets not confirmed by their deadline, a step of the no-show job's round (one
 * job releases every due ticket): `ticket_state`'s partial index on the deadline finds the due
 * ones (booked, awaiting confirmation, deadline come by the clock), never a scan of every booked
 * ticket; each booking's due tickets are released together. Answers how many it released.
 */
export async function releaseUnconfirmed(deps: CommandDeps, batch = 500): Promise<number> {
  const { now } = decisionTime(deps);
  const due = await deps.pool.query<{
    id: string;
    time_slot_id: string;
    owner_id: string | null;
    visitor_key: string | null;
  }>(
    `SELECT t.ticket_id AS id, t.time_slot_id, t.owner_id,
            COALESCE(b.subject_key, b.visitor_key) AS visitor_key
       FROM ticket_state t
       LEFT JOIN bookings b ON b.owner_id = t.owner_id
      WHERE t.status = 'BOOKED' AND t.confirm_by IS NOT NULL AND t.confirm_by <= $1
      ORDER BY t.confirm_by, t.ticket_id LIMIT $2`,
    [now, batch],
  );
  const byBooking = new Map<
    string,
    { visitorKey: string | null; tickets: { ticketId: string; timeSlotId: string }[] }
  >();
  for (const t of due.rows) {
    const key = t.owner_id ?? t.id;
    const booking = byBooking.get(key) ?? { visitorKey: t.visitor_key, tickets: [] };
    booking.tickets.push({ ticketId: t.id, timeSlotId: t.time_slot_id });
    byBooking.set(key, booking);
  }
  let released = 0;
  for (const booking of byBooking.values()) {
    try {
      released += await releaseUnconfirmedTickets(deps, booking);
    } catch (err) {
      // Ticket ids only: an owner id opens the booking's page.
      deps.logger.warn(
        { ticketIds: booking.tickets.map((t) => t.ticketId), err: String(err) },
        'release of unconfirmed tickets failed; retried next round',
      );
    }
  }
  return released;
}
