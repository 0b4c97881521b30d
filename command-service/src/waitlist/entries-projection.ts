import { handlersFor, ignore, rekeyingStream, timeSlotStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from '../inline/define.ts';

type EntryStatus = 'offered' | 'lapsed' | 'taken' | 'left' | 'removed';

interface EntryFold extends InlineFold {
  /** The entries' new status, in append order; an offer with its id, expiry and seat's label. */
  changes: {
    entryId: string;
    status: EntryStatus;
    offer?: { id: string; expiresAt: string; seatLabel: string | null };
  }[];
}

const status =
  (to: Exclude<EntryStatus, 'offered'>) =>
  (e: { data: { entryId: string } }, f: EntryFold): void =>
    void f.changes.push({ entryId: e.data.entryId, status: to });

/**
 * `waitlist_entries` beside the log: offers and lapses move the entries' status and offer (the
 * offer mail's recipient and the seat it names, the matcher's candidate slots). The row itself, with the address, is
 * written by the join and deleted by the erasure (personal data: never in an event).
 */
export const waitlistEntriesProjection = inlineProjection({
  table: 'waitlist_entries',
  handlers: handlersFor(timeSlotStream).with<EntryFold, void, NewEvent>({
    TimeSlotCreated: ignore,
    TimeSlotUpdated: ignore,
    TimeSlotCapacityChanged: ignore,
    TimeSlotSeatsChosen: ignore,
    TimeSlotDeleted: ignore,
    TimeSlotClosed: ignore,
    TicketHeld: ignore,
    TicketHoldExtended: ignore,
    TicketReleased: ignore,
    TicketBooked: ignore,
    TicketCancelled: ignore,
    TicketCheckedIn: ignore,
    TicketCheckInUndone: ignore,
    TicketSeatChanged: ignore,
    TicketNoShowReleased: ignore,
    TicketConfirmed: ignore,
    TicketConfirmationLapsed: ignore,
    WaitlistJoined: ignore,
    SeatOffered(e, f) {
      const seatLabel = e.data.seat?.label ?? null;
      const offer = { id: e.data.offerId, expiresAt: e.data.expiresAt, seatLabel };
      f.changes.push({ entryId: e.data.entryId, status: 'offered', offer });
    },
    SeatOfferLapsed: status('lapsed'),
    SeatOfferTaken: status('taken'),
    WaitlistEntryErased: ignore,
    WaitlistLeft: status('left'),
    WaitlistEntryRemovedByStaff: status('removed'),
    WaitlistEntryPassedOver: ignore,
    WaitlistEntryBackInLine: ignore,
  }),
  start: (): EntryFold => ({ streamId: '', changes: [] }),
  async write(tx, { changes }) {
    for (const { entryId, status, offer } of changes) {
      if (offer)
        await tx.send(
          `UPDATE waitlist_entries SET status = 'offered', offer_id = $2, offer_expires_at = $3,
                  offer_seat_label = $4
            WHERE entry_id = $1`,
          [entryId, offer.id, offer.expiresAt, offer.seatLabel],
        );
      else
        await tx.send(`UPDATE waitlist_entries SET status = $2 WHERE entry_id = $1`, [
          entryId,
          status,
        ]);
    }
  },
});

/** A waitlist entry stored under an older key of its address takes the key now. */
interface EntriesFold extends InlineFold {
  rekeyed: { entryId: string; visitorKey: string }[];
}

export const waitlistEntriesRekeyedProjection = inlineProjection({
  table: 'waitlist_entries',
  handlers: handlersFor(rekeyingStream).with<EntriesFold, void, NewEvent>({
    BookingRekeyed: ignore,
    WaitlistEntryRekeyed: (e, f) => void f.rekeyed.push(e.data),
  }),
  start: (): EntriesFold => ({ streamId: '', rekeyed: [] }),
  async write(tx, { rekeyed }) {
    if (!rekeyed.length) return;
    await tx.send(
      `UPDATE waitlist_entries w SET visitor_key = u.visitor_key
         FROM unnest($1::uuid[], $2::text[]) AS u(entry_id, visitor_key)
        WHERE w.entry_id = u.entry_id`,
      [rekeyed.map((d) => d.entryId), rekeyed.map((d) => d.visitorKey)],
    );
  },
});
