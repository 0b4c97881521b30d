import type { RecordedEvent } from '@rr/events';
import {
  enqueueMails,
  enqueueSelectedMails,
  enqueueTicketMail,
  type PoolClient,
} from '@rr/platform';
import type { Projection } from '../projection.ts';

/**
 * Enqueues mails from events. Runs like a projection (its checkpoint and the enqueue commit
 * together), so a booking or cancellation enqueues its mail exactly once, even across crashes.
 * Cancellations of one request (one database transaction) for one owner make one mail; so do
 * the no-show releases of one job round for one owner (kind 'release'), and the release of a
 * booking's tickets not confirmed in time (kind 'unconfirmed': the job releases a booking's due
 * tickets in one transaction).
 * A mail is due from its event's time, which the command's clock wrote (never the database's
 * `now()`): the sender compares due times with the same clock.
 */
export const mailOutboxReactor: Projection = {
  name: 'mail-outbox',
  tables: [],
  quietCheckpoint: true,
  handles: new Set([
    'TransactionBooked',
    'TicketCancelled',
    'TicketNoShowReleased',
    'TicketConfirmationLapsed',
    'SeatOffered',
    'WaitlistJoined',
    'TimeSlotClosed',
  ]),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    if (event.type === 'TransactionBooked') {
      const d = event.data as { ownerId: string; ticketIds: string[] };
      await enqueueMails(client, [
        {
          id: `confirmation:${event.eventId}`,
          kind: 'confirmation',
          ownerId: d.ownerId,
          ticketIds: d.ticketIds,
          at: event.createdAt,
        },
      ]);
      return;
    }
    if (event.type === 'SeatOffered') {
      // The offer's mail, to the entry (its address stays beside the log).
      const d = event.data as { entryId: string };
      await enqueueMails(client, [
        {
          id: `waitlist-offer:${event.eventId}`,
          kind: 'waitlist-offer',
          ownerId: d.entryId,
          at: event.createdAt,
        },
      ]);
      return;
    }
    if (event.type === 'WaitlistJoined') {
      // The confirmation of the place in line, with the link to leave it.
      const d = event.data as { entryId: string };
      await enqueueMails(client, [
        {
          id: `waitlist-joined:${event.eventId}`,
          kind: 'waitlist-joined',
          ownerId: d.entryId,
          at: event.createdAt,
        },
      ]);
      return;
    }
    if (event.type === 'TimeSlotClosed') {
      // Everyone still waiting for the slot (or holding an offer of it) is told it closed, each
      // by a mail of their own to their address beside the log, while it is there.
      const d = event.data as { timeSlotId: string; reason: string };
      await enqueueSelectedMails(
        client,
        `SELECT 'waitlist-closed:' || $1 || ':' || w.entry_id, 'waitlist-closed', w.entry_id::text,
                NULL::uuid[], $3::text, $4::timestamptz
           FROM waitlist_entries w
          WHERE w.time_slot_id = $2 AND w.status IN ('waiting', 'offered') AND w.email IS NOT NULL`,
        [event.eventId, d.timeSlotId, d.reason, event.createdAt],
      );
      return;
    }
    if (event.type === 'TicketCancelled' && (event.data as { movedTo?: string }).movedTo) {
      // A rebooking: one mail confirming the new ticket, no cancellation mail.
      const d = event.data as { ownerId: string; movedTo: string };
      await enqueueMails(client, [
        {
          id: `move:${event.eventId}`,
          kind: 'move',
          ownerId: d.ownerId,
          ticketIds: [d.movedTo],
          at: event.createdAt,
        },
      ]);
      return;
    }
    if (
      event.type === 'TicketCancelled' ||
      event.type === 'TicketNoShowReleased' ||
      event.type === 'TicketConfirmationLapsed'
    ) {
      const d = event.data as { ownerId: string; ticketId: string; reason?: string };
      const kind =
        event.type === 'TicketCancelled'
          ? 'cancellation'
          : event.type === 'TicketNoShowReleased'
            ? 'release'
            : 'unconfirmed';
      // One mail per owner and request: a staff cancellation gives all its tickets one reason.
      await enqueueTicketMail(client, {
        id: `${kind}:${event.position.tx}:${d.ownerId}`,
        kind,
        ownerId: d.ownerId,
        ticketId: d.ticketId,
        reason: d.reason ?? null,
        at: event.createdAt,
      });
    }
  },
};
