import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { date, emailKey, id, instant, language, ownerId, seat, time } from './fields.ts';

/**
 * The transaction (cart) stream (`transaction-<id>`): a cart's tickets and expiry, its booking,
 * and, once booked, the changes of its owner's data (the data itself stays beside the log).
 */

const CartTicket = z.object({
  ticketId: id,
  timeSlotId: id,
  roomId: id,
  date,
  startTime: time,
  endTime: time,
  /** The seat the ticket took in a room with a seat plan (its slot's stream decides it). */
  seat: seat.optional(),
});
export type CartTicket = z.infer<typeof CartTicket>;

export const TransactionStarted = defineEvent(
  'TransactionStarted',
  z.object({ transactionId: id, expiresAt: instant }),
);
export const TicketAddedToTransaction = defineEvent(
  'TicketAddedToTransaction',
  CartTicket.extend({ expiresAt: instant }),
);
export const TicketRemovedFromTransaction = defineEvent(
  'TicketRemovedFromTransaction',
  z.object({ ticketId: id }),
);
export const TransactionTouched = defineEvent(
  'TransactionTouched',
  z.object({ expiresAt: instant }),
);
/**
 * A cart booked. Version 2: `subjectKey`, the keyed hash of the campus subject of a visitor
 * signed in while booking, whom the per-visitor limits and the no-show rule count the booking
 * for (docs/product.md#one-person-one-set-of-limits); absent (every version 1 event, a guest,
 * staff): the address's key `visitorKey` counts, as before.
 */
export const TransactionBooked = defineEvent(
  'TransactionBooked',
  z.object({
    transactionId: id,
    ownerId,
    bookingNumber: z.string(),
    visitorKey: emailKey,
    subjectKey: emailKey.optional(),
    language,
    ticketIds: z.array(id),
  }),
  2,
);
export const TransactionRemoved = defineEvent(
  'TransactionRemoved',
  z.object({ transactionId: id }),
);
export const TransactionExpired = defineEvent(
  'TransactionExpired',
  z.object({ transactionId: id }),
);

// --- the booking's owner ----------------------------------------------------------------------

/** The erasure job deleted the booking's personal data (the day after the booked day). */
export const PersonalDataErased = defineEvent('PersonalDataErased', z.object({ ownerId }));

/** Staff changed the owner data of a booking (the data itself stays in the personal-data table). */
export const OwnerDataChanged = defineEvent(
  'OwnerDataChanged',
  z.object({ ownerId, ticketId: id }),
);

/** Every event type of a cart's stream. */
export const transactionStream = defineStream('transaction', [
  TransactionStarted,
  TicketAddedToTransaction,
  TicketRemovedFromTransaction,
  TransactionTouched,
  TransactionBooked,
  TransactionRemoved,
  TransactionExpired,
  PersonalDataErased,
  OwnerDataChanged,
]);

export type TransactionEvent = EventOf<typeof transactionStream>;

export const transactionStreamId = (transactionId: string) =>
  `${transactionStream.kind}-${transactionId}`;
