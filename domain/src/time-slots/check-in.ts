import {
  TicketCheckedIn,
  TicketCheckInUndone,
  TicketNoShowReleased,
  type RoomServices,
  type SlotTicketEvent,
} from '@rr/events/catalogue';
import { minutesOf, type LocalDate, type LocalTime } from '../calendar.ts';
import { type Decide, type Now, unhandled } from '../decider.ts';
import { refuse, Refused } from '../refusal.ts';
import type { HeldTicket } from '../seats.ts';
import type { SlotState } from './time-slot.ts';

/** How long after a check-in staff may take it back (minutes). */
export const UNDO_CHECK_IN_MINUTES = 10;

/**
 * Check-in and no-show release, decided on the slot stream (under its lock): staff
 * check a booked ticket's reader in, take it back within UNDO_CHECK_IN_MINUTES, and the job
 * (actor `system`) releases booked tickets not checked in once the release time has come. A
 * released ticket gets the status INVALID (the spec's statuses are NEW, BOOKED, INVALID and
 * CANCELLED), flagged as a no-show; its seat is free again.
 */
export type CheckInCommand =
  | { type: 'CheckIn'; data: { ticketId: string; atSeat?: string | undefined } }
  | { type: 'UndoCheckIn'; data: { ticketId: string; atSeat?: string | undefined } }
  | { type: 'ReleaseNoShow'; data: { ticketId: string } };

export interface CheckInState {
  slot: SlotState;
  /** The services of the slot's room. */
  services: RoomServices;
}

/**
 * When check-in is possible, in local minutes (localMinute): from `opensAt` up to and including
 * `closesAt`. With a release, check-in closes with the release minute (`releaseAt`, start +
 * noShowReleaseMinutes) and the release is due from that minute on: at that minute the stream's
 * lock decides which comes first. Without one, check-in closes with the slot's last minute.
 * Null when the room has no check-in.
 */
export interface CheckInWindow {
  opensAt: number;
  closesAt: number;
  releaseAt: number | null;
}

/** A local date and time as minutes since 1970-01-01 00:00 of the same wall clock. */
export function localMinute(date: LocalDate, time: LocalTime): number {
  return (
    Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 60_000 +
    minutesOf(time)
  );
}

/** The local date and time (`YYYY-MM-DD HH:MM`) of a local minute: refusal payloads. */
export function localMinuteText(minute: number): string {
  return new Date(minute * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

export function checkInWindow(
  slot: Pick<SlotState, 'date' | 'startTime' | 'endTime'>,
  services: RoomServices,
): CheckInWindow | null {
  if (services.checkInMinutesBefore === null) return null;
  const start = localMinute(slot.date, slot.startTime);
  const releaseAt =
    services.noShowReleaseMinutes === null ? null : start + services.noShowReleaseMinutes;
  return {
    opensAt: start - services.checkInMinutesBefore,
    closesAt: releaseAt ?? localMinute(slot.date, slot.endTime) - 1,
    releaseAt,
  };
}

function bookedTicket(slot: SlotState, ticketId: string): HeldTicket {
  const ticket = slot.tickets.get(ticketId);
  if (!ticket) throw refuse.notFound('Ticket');
  if (ticket.status !== 'BOOKED')
    throw new Refused(
      { code: 'ticket__not_booked', status: ticket.status },
      'The ticket is not booked',
    );
  return ticket;
}

function mustHoldSeat(ticket: HeldTicket, seatId: string): void {
  if (ticket.seat?.seatId === seatId) return;
  throw new Refused(
    { code: 'check_in__other_seat', label: ticket.seat?.label ?? '' },
    'The booking holds another seat in this time slot',
  );
}

const checkedIn = (ticket: HeldTicket) => ticket.checkedInAt != null;

/** The events of a check-in command: on its ticket's slot stream. */
export type CheckInEvent = Extract<
  SlotTicketEvent,
  { type: 'TicketCheckedIn' | 'TicketCheckInUndone' | 'TicketNoShowReleased' }
>;

export const decideCheckIn: Decide<CheckInCommand, CheckInState, Now, CheckInEvent[]> = (
  command,
  { slot, services },
  { now, today, time },
) => {
  if (slot.status !== 'active') throw refuse.notFound('Time slot');
  const { ticketId } = command.data;
  const ticket = bookedTicket(slot, ticketId);
  // At a seat (its QR code, docs/product.md#at-the-seat) the ticket must hold that seat, as it
  // holds it now under the slot's lock (staff may have moved it).
  if (command.type !== 'ReleaseNoShow' && command.data.atSeat !== undefined)
    mustHoldSeat(ticket, command.data.atSeat);
  const window = checkInWindow(slot, services);
  if (!window)
    throw new Refused('check_in__not_offered', 'The room of this ticket does not use check-in');
  const minute = localMinute(today, time);
  switch (command.type) {
    case 'CheckIn': {
      if (checkedIn(ticket))
        throw new Refused(
          { code: 'check_in__already_checked_in', checkedInAt: ticket.checkedInAt ?? '' },
          'The ticket is already checked in',
        );
      if (minute < window.opensAt || minute > window.closesAt)
        throw new Refused(
          {
            code: 'check_in__not_open',
            opensAt: localMinuteText(window.opensAt),
            closesAt: localMinuteText(window.closesAt),
          },
          'Check-in is not open for this ticket now',
        );
      return [TicketCheckedIn.create({ ticketId, checkedInAt: now.toISOString() })];
    }
    case 'UndoCheckIn': {
      if (!checkedIn(ticket))
        throw new Refused('check_in__not_checked_in', 'The ticket is not checked in');
      const since = now.getTime() - new Date(ticket.checkedInAt!).getTime();
      if (since > UNDO_CHECK_IN_MINUTES * 60_000)
        throw new Refused(
          { code: 'check_in__undo_expired', minutes: UNDO_CHECK_IN_MINUTES },
          `A check-in can only be undone within ${UNDO_CHECK_IN_MINUTES} minutes`,
        );
      return [TicketCheckInUndone.create({ ticketId })];
    }
    case 'ReleaseNoShow': {
      if (checkedIn(ticket))
        throw new Refused(
          { code: 'check_in__already_checked_in', checkedInAt: ticket.checkedInAt ?? '' },
          'The ticket is checked in',
        );
      if (window.releaseAt === null || minute < window.releaseAt)
        throw new Refused(
          {
            code: 'no_show__not_due',
            releaseAt: window.releaseAt === null ? null : localMinuteText(window.releaseAt),
          },
          'The ticket is not due for release',
        );
      return [TicketNoShowReleased.create({ ticketId, ownerId: ticket.ownerId ?? '' })];
    }
    default:
      return unhandled(command);
  }
};
