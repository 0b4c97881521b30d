import {
  handlersFor,
  ignore,
  timeSlotStream,
  transactionStream,
  type RecordedEvent,
  appliedBy,
  type Projection,
  type Step,
} from '@rr/events';
import {
  enqueueMails,
  enqueueSelectedMails,
  enqueueTicketMail,
  type PoolClient,
} from '@rr/platform';
import { bookedOwnerBefore } from '@rr/integrations';

/**
 * One mail per owner and request: a staff cancellation gives all its tickets one reason, a step
 * moving several of a visitor's tickets to other seats one mail.
 */
async function ticketMail(
  client: PoolClient,
  event: RecordedEvent,
  kind: 'cancellation' | 'release' | 'unconfirmed' | 'seat-change' | 'seat-moved',
  d: {
    ownerId: string;
    ticketId: string;
    reason?: string | undefined;
    reasonEn?: string | undefined;
  },
): Promise<void> {
  await enqueueTicketMail(client, {
    id: `${kind}:${event.position.tx}:${d.ownerId}`,
    kind,
    ownerId: d.ownerId,
    ticketId: d.ticketId,
    reason: d.reason ?? null,
    reasonEn: d.reasonEn ?? null,
    at: event.createdAt,
  });
}

/** A mail to a waitlist entry (its address stays beside the log). */
async function toEntry(
  client: PoolClient,
  event: RecordedEvent,
  kind: 'waitlist-offer' | 'waitlist-joined',
  entryId: string,
): Promise<void> {
  await enqueueMails(client, [
    { id: `${kind}:${event.eventId}`, kind, ownerId: entryId, at: event.createdAt },
  ]);
}

const mails = handlersFor(timeSlotStream, transactionStream).with<PoolClient, Step>({
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  TimeSlotDeleted: ignore,
  async TimeSlotClosed(e, client) {
    // Everyone still waiting for the slot (or holding an offer of it) is told it closed, each
    // by a mail of their own to their address beside the log, while it is there.
    await enqueueSelectedMails(
      client,
      `SELECT 'waitlist-closed:' || $1 || ':' || w.entry_id, 'waitlist-closed', w.entry_id::text,
              NULL::uuid[], $3::text, $4::timestamptz, $5::text
         FROM waitlist_entries w
        WHERE w.time_slot_id = $2 AND w.status IN ('waiting', 'offered') AND w.email IS NOT NULL`,
      [e.eventId, e.data.timeSlotId, e.data.reason, e.createdAt, e.data.reasonEn ?? null],
    );
  },
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ignore,
  TicketBooked: ignore,
  async TicketCancelled(e, client) {
    const { movedTo } = e.data;
    if (!movedTo) return ticketMail(client, e, 'cancellation', e.data);
    // A rebooking: one mail confirming the new ticket, no cancellation mail.
    await enqueueMails(client, [
      {
        id: `move:${e.eventId}`,
        kind: 'move',
        ownerId: e.data.ownerId,
        ticketIds: [movedTo],
        at: e.createdAt,
      },
    ]);
  },
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  async TicketSeatChanged(e, client) {
    // A booked ticket's new seat is told to its visitor, with the calendar entry's new revision
    // (a hold's move shows in the cart). The visitor's own change is confirmed; the library's
    // (the desk, a seat out of service, a plan or a slot's seats changed) says so, with staff's
    // reason when there is one. One mail per owner and step: a plan change moving several of a
    // visitor's tickets makes one.
    const ownerId = await bookedOwnerBefore(client, e, e.data.ticketId);
    if (!ownerId) return;
    const { ticketId, reason } = e.data;
    if (e.metadata.actor.kind === 'visitor')
      await ticketMail(client, e, 'seat-change', { ownerId, ticketId });
    else await ticketMail(client, e, 'seat-moved', { ownerId, ticketId, reason });
  },
  TicketNoShowReleased: (e, client) => ticketMail(client, e, 'release', e.data),
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: (e, client) => ticketMail(client, e, 'unconfirmed', e.data),
  // The confirmation of the place in line, with the link to leave it.
  WaitlistJoined: (e, client) => toEntry(client, e, 'waitlist-joined', e.data.entryId),
  // The offer's mail, to the entry.
  SeatOffered: (e, client) => toEntry(client, e, 'waitlist-offer', e.data.entryId),
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
  TransactionStarted: ignore,
  TicketAddedToTransaction: ignore,
  TicketRemovedFromTransaction: ignore,
  TransactionTouched: ignore,
  async TransactionBooked(e, client) {
    await enqueueMails(client, [
      {
        id: `confirmation:${e.eventId}`,
        kind: 'confirmation',
        ownerId: e.data.ownerId,
        ticketIds: e.data.ticketIds,
        at: e.createdAt,
      },
    ]);
  },
  TransactionRemoved: ignore,
  TransactionExpired: ignore,
  PersonalDataErased: ignore,
  OwnerDataChanged: ignore,
});

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
  ...appliedBy(mails),
};
