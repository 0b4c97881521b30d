import { handlersFor, ignore, transactionStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

interface BookingFold extends InlineFold {
  booked: {
    ownerId: string;
    transactionId: string;
    visitorKey: string;
    subjectKey?: string | undefined;
    bookingNumber: string;
    language: string;
  }[];
}

/**
 * `bookings`: each booking's owner id, cart, visitor, booking number and language (what a cancel
 * link, a check-in or a mail finds the booking by; its personal data is a `record`, which refers
 * to this row). A booked cart is a booking.
 */
export const bookingsProjection = inlineProjection({
  table: 'bookings',
  handlers: handlersFor(transactionStream).with<BookingFold, void, NewEvent>({
    TransactionStarted: ignore,
    TicketAddedToTransaction: ignore,
    TicketRemovedFromTransaction: ignore,
    TransactionTouched: ignore,
    TransactionBooked: (e, f) => void f.booked.push(e.data),
    TransactionRemoved: ignore,
    TransactionExpired: ignore,
    PersonalDataErased: ignore,
    OwnerDataChanged: ignore,
  }),
  start: (): BookingFold => ({ streamId: '', booked: [] }),
  async write(tx, { booked }, at) {
    if (!booked.length) return;
    await tx.send(
      `INSERT INTO bookings (owner_id, transaction_id, visitor_key, booking_number, language, created_at, subject_key)
       SELECT u.o, u.t, u.v, u.b, u.l, $6::timestamptz, u.s
         FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $7::text[])
           AS u(o, t, v, b, l, s)`,
      [
        booked.map((b) => b.ownerId),
        booked.map((b) => b.transactionId),
        booked.map((b) => b.visitorKey),
        booked.map((b) => b.bookingNumber),
        booked.map((b) => b.language),
        at,
        booked.map((b) => b.subjectKey ?? null),
      ],
    );
  },
});
