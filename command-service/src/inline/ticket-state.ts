import { handlersFor, ignore, timeSlotStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

interface TicketChange {
  status?: string;
  ownerId?: string;
  checkedIn?: boolean;
  /** Confirmed addresses: the deadline (null: none any more); undefined: unchanged. */
  confirmBy?: string | null;
  /** The seat it was moved to in its slot; undefined: unchanged. */
  movedSeat?: { seatId: string; label: string };
  /** How many seat changes the command made (each a revision of its calendar entry). */
  seatChanges?: number;
}

interface TicketFold extends InlineFold {
  held: { ticketId: string; timeSlotId: string; transactionId: string }[];
  changes: Map<string, TicketChange>;
}

/** The change of a ticket the command has changed so far (each ticket's folded into one). */
function changeOf(f: TicketFold, ticketId: string): TicketChange {
  let change = f.changes.get(ticketId);
  if (!change) f.changes.set(ticketId, (change = {}));
  return change;
}

const status =
  (to: string) =>
  (e: { data: { ticketId: string } }, f: TicketFold): void =>
    void (changeOf(f, e.data.ticketId).status = to);

/**
 * `ticket_state`: each ticket's slot, cart, status, owner, whether it is checked in (what finds
 * the ticket of a check-in, a staff change or a no-show release), the seat it was moved to (what
 * the booking's mails name) and how often it changed seats (its calendar entry's revisions). New
 * holds are inserted; the changes of each ticket are folded into one update.
 */
export const ticketStateProjection = inlineProjection({
  table: 'ticket_state',
  handlers: handlersFor(timeSlotStream).with<TicketFold, void, NewEvent>({
    TimeSlotCreated: ignore,
    TimeSlotUpdated: ignore,
    TimeSlotCapacityChanged: ignore,
    TimeSlotSeatsChosen: ignore,
    TimeSlotDeleted: ignore,
    TimeSlotClosed: ignore,
    TicketHeld: (e, f) => void f.held.push(e.data),
    TicketHoldExtended: ignore,
    TicketReleased: status('INVALID'),
    TicketBooked(e, f) {
      const change = changeOf(f, e.data.ticketId);
      change.status = 'BOOKED';
      change.ownerId = e.data.ownerId;
      change.confirmBy = e.data.confirmBy ?? null;
    },
    TicketCancelled: status('CANCELLED'),
    TicketCheckedIn: (e, f) => void (changeOf(f, e.data.ticketId).checkedIn = true),
    TicketCheckInUndone: (e, f) => void (changeOf(f, e.data.ticketId).checkedIn = false),
    TicketSeatChanged(e, f) {
      const change = changeOf(f, e.data.ticketId);
      change.movedSeat = e.data.seat;
      change.seatChanges = (change.seatChanges ?? 0) + 1;
    },
    TicketNoShowReleased: status('INVALID'),
    TicketConfirmed: (e, f) => void (changeOf(f, e.data.ticketId).confirmBy = null),
    TicketConfirmationLapsed(e, f) {
      const change = changeOf(f, e.data.ticketId);
      change.status = 'INVALID';
      change.confirmBy = null;
    },
    WaitlistJoined: ignore,
    SeatOffered: ignore,
    SeatOfferLapsed: ignore,
    SeatOfferTaken: ignore,
    WaitlistEntryErased: ignore,
    WaitlistLeft: ignore,
    WaitlistEntryRemovedByStaff: ignore,
    WaitlistEntryPassedOver: ignore,
    WaitlistEntryBackInLine: ignore,
  }),
  start: (): TicketFold => ({ streamId: '', held: [], changes: new Map() }),
  async write(tx, { held, changes }) {
    if (held.length)
      await tx.send(
        {
          // Sent by every cart add: prepared once per connection.
          name: 'rr_ticket_state_held',
          text: `INSERT INTO ticket_state (ticket_id, time_slot_id, transaction_id, status)
                 SELECT *, 'NEW' FROM unnest($1::uuid[], $2::uuid[], $3::uuid[])
                 ON CONFLICT (ticket_id) DO NOTHING`,
        },
        [
          held.map((h) => h.ticketId),
          held.map((h) => h.timeSlotId),
          held.map((h) => h.transactionId),
        ],
      );
    if (!changes.size) return;
    const rows = [...changes];
    await tx.send(
      `UPDATE ticket_state t SET status = coalesce(u.status, t.status),
              owner_id = coalesce(u.owner_id, t.owner_id), checked_in = coalesce(u.checked_in, t.checked_in),
              confirm_by = CASE WHEN u.confirm_set THEN u.confirm_by ELSE t.confirm_by END,
              moved_seat_id = coalesce(u.seat_id, t.moved_seat_id),
              moved_seat_label = coalesce(u.seat_label, t.moved_seat_label),
              seat_changes = t.seat_changes + u.seat_changes
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::boolean[], $6::timestamptz[],
                     $7::uuid[], $8::text[], $9::int[])
              AS u(id, status, owner_id, checked_in, confirm_set, confirm_by, seat_id, seat_label,
                   seat_changes)
        WHERE t.ticket_id = u.id`,
      [
        rows.map(([id]) => id),
        rows.map(([, c]) => c.status ?? null),
        rows.map(([, c]) => c.ownerId ?? null),
        rows.map(([, c]) => c.checkedIn ?? null),
        rows.map(([, c]) => c.confirmBy !== undefined),
        rows.map(([, c]) => c.confirmBy ?? null),
        rows.map(([, c]) => c.movedSeat?.seatId ?? null),
        rows.map(([, c]) => c.movedSeat?.label ?? null),
        rows.map(([, c]) => c.seatChanges ?? 0),
      ],
    );
  },
});
