import {
  TicketConfirmationLapsed,
  TicketConfirmed,
  VisitorTicketCancelled,
  type RoomServices,
  type SlotTicketEvent,
  type VisitorEvent,
} from '@rr/events/catalogue';
import { instantOf } from '../calendar.ts';
import { type Now, unhandled } from '../decider.ts';
import { refuse, Refused } from '../refusal.ts';
import type { HeldTicket } from '../seats.ts';
import type { SlotState } from './time-slot.ts';

/**
 * Confirmed addresses (docs/product.md#confirmed-addresses): in a room with
 * `confirmBookingMinutes`, a visitor's booked ticket takes its seat but awaits the confirmation
 * of its address until a deadline fixed at booking; the visitor confirms through the owner page
 * (the confirmation mail's link), or the release job (actor `system`) releases the ticket at the
 * deadline. Both are decided on the ticket's slot stream under its lock, so of a confirmation and
 * a release of one ticket the second sees the first: a ticket is either confirmed or released,
 * never both.
 */
export type ConfirmationCommand =
  /** The visitor confirms their booking: every ticket of it awaiting confirmation. */
  | { type: 'ConfirmBooking'; data: { ownerId: string } }
  /** The release job: a ticket whose deadline has come without confirmation. */
  | { type: 'LapseConfirmation'; data: { ticketId: string } };

export type ConfirmationEvent = Extract<
  SlotTicketEvent,
  { type: 'TicketConfirmed' | 'TicketConfirmationLapsed' }
>;

/**
 * A confirmation's events by slot id; a release also frees the ticket on the visitor's stream
 * (the per-visitor limits no longer count it: the visitor may book that time again).
 */
export interface ConfirmationDecision {
  slots: Map<string, ConfirmationEvent[]>;
  visitor: VisitorEvent[];
}

/**
 * The deadline of a ticket booked at `now` in a room with these services: `now` plus
 * `confirmBookingMinutes`, never past the slot's start (in the library's time zone). Undefined
 * when the room does not ask for confirmation.
 */
export function confirmationDeadline(
  now: Date,
  services: Pick<RoomServices, 'confirmBookingMinutes'> | undefined,
  slot: { date: string; startTime: string },
  timeZone: string | undefined,
): string | undefined {
  const minutes = services?.confirmBookingMinutes;
  if (minutes == null) return undefined;
  return earlierDeadline(new Date(now.getTime() + minutes * 60_000).toISOString(), slot, timeZone);
}

/** A deadline kept by a moved ticket: never past its new slot's start. */
export function earlierDeadline(
  confirmBy: string,
  slot: { date: string; startTime: string },
  timeZone: string | undefined,
): string {
  // Every command side passes the library's zone; a deadline without it would be a guess.
  if (!timeZone) throw new Error('the time zone is needed for a confirmation deadline');
  const start = instantOf(slot.date, slot.startTime, timeZone).getTime();
  return new Date(Math.min(new Date(confirmBy).getTime(), start)).toISOString();
}

/** Whether a ticket awaits its confirmation (booked, with a deadline). */
export const awaitsConfirmation = (t: HeldTicket): boolean =>
  t.status === 'BOOKED' && t.confirmBy != null;

/** Whether a ticket's confirmation deadline has come at `now` (then it can only be released). */
export const confirmationDue = (t: HeldTicket, now: Date): boolean =>
  awaitsConfirmation(t) && new Date(t.confirmBy!).getTime() <= now.getTime();

export const confirmationRefusals = {
  /** Every ticket of the booking that awaited confirmation was released (or its deadline came). */
  lapsed: () =>
    new Refused(
      'booking__confirmation_lapsed',
      'The booking was not confirmed in time; its tickets were released',
    ),
};

/**
 * The decision over the slots of the owner's tickets (ConfirmBooking) or of one ticket
 * (LapseConfirmation), by slot id. Confirming confirms every ticket of the owner still awaiting
 * confirmation before its deadline; a booking with nothing left to confirm is confirmed already
 * (no events: confirming twice is no error), unless a ticket of it lapsed and none was confirmed: then it is refused
 * (`booking__confirmation_lapsed`). A deadline that has come counts as lapsed even before the job
 * released the ticket. The release answers no events for a ticket confirmed, cancelled, released
 * or not yet due: nothing to release.
 */
export function decideConfirmation(
  command: ConfirmationCommand,
  slots: ReadonlyMap<string, SlotState>,
  { now }: Pick<Now, 'now'>,
): ConfirmationDecision {
  const decision: ConfirmationDecision = { slots: new Map(), visitor: [] };
  const push = (slotId: string, event: ConfirmationEvent) =>
    decision.slots.set(slotId, [...(decision.slots.get(slotId) ?? []), event]);
  switch (command.type) {
    case 'ConfirmBooking': {
      const { ownerId } = command.data;
      let lapsed = 0;
      let confirmed = 0;
      let owned = 0;
      for (const [slotId, slot] of slots)
        for (const [ticketId, t] of slot.tickets) {
          if (t.ownerId !== ownerId) continue;
          owned += 1;
          if (t.confirmed) confirmed += 1;
          if (t.unconfirmed || confirmationDue(t, now)) lapsed += 1;
          else if (awaitsConfirmation(t))
            push(slotId, TicketConfirmed.create({ ticketId, ownerId }));
        }
      if (owned === 0) throw refuse.notFound('Owner');
      if (decision.slots.size === 0 && confirmed === 0 && lapsed > 0)
        throw confirmationRefusals.lapsed();
      return decision;
    }
    case 'LapseConfirmation': {
      const { ticketId } = command.data;
      for (const [slotId, slot] of slots) {
        const t = slot.tickets.get(ticketId);
        if (t && confirmationDue(t, now)) {
          push(slotId, TicketConfirmationLapsed.create({ ticketId, ownerId: t.ownerId ?? '' }));
          decision.visitor.push(VisitorTicketCancelled.create({ ticketId }));
        }
      }
      return decision;
    }
    default:
      return unhandled(command);
  }
}
