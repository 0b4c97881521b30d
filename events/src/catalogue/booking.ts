import { z } from 'zod';
import { defineEvent } from './define.ts';

const id = z.uuid();
const instant = z.iso.datetime({ offset: true });
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const time = z.string().regex(/^\d{2}:\d{2}$/);
const ownerId = z.string().regex(/^[0-9a-f]{32}$/);
const visitorKey = z.string().regex(/^[0-9a-f]{40}$/);

// --- the time slot stream: seats are counted here -------------------------------------------

/** A seat held for a cart until expiresAt (a NEW ticket). */
export const TicketHeld = defineEvent(
  'TicketHeld',
  z.object({ ticketId: id, timeSlotId: id, transactionId: id, expiresAt: instant }),
);
/** The cart was touched or grew: its holds live on until the new expiry. */
export const TicketHoldExtended = defineEvent(
  'TicketHoldExtended',
  z.object({ ticketId: id, expiresAt: instant }),
);
/**
 * A hold ended before booking: removed from the cart, the cart removed, expired, or ended by a
 * closure of its slot (`closed`, written on the slot's stream with the closure) (INVALID ticket).
 */
export const TicketReleased = defineEvent(
  'TicketReleased',
  z.object({
    ticketId: id,
    reason: z.enum(['removed', 'transaction_removed', 'expired', 'closed']),
  }),
);
/**
 * A ticket was booked. `bookingNumber` only for a ticket a booking gains after its booking (a
 * rebooking's new ticket): the others get it from their cart's TransactionBooked. `confirmBy`
 * only in a room with confirmed addresses: the ticket takes its seat but awaits the visitor's
 * confirmation until this instant (fixed at booking, so a rebuild gives the same deadline).
 */
export const TicketBooked = defineEvent(
  'TicketBooked',
  z.object({
    ticketId: id,
    ownerId,
    bookingNumber: z.string().optional(),
    confirmBy: instant.optional(),
  }),
);
/** Confirmed addresses: the visitor followed the confirmation mail's link in time. */
export const TicketConfirmed = defineEvent('TicketConfirmed', z.object({ ticketId: id, ownerId }));
/**
 * Confirmed addresses: a ticket awaiting confirmation was not confirmed by its deadline; it is no
 * longer booked (status INVALID, flagged unconfirmed) and its seat is free again. Actor `system`.
 */
export const TicketConfirmationLapsed = defineEvent(
  'TicketConfirmationLapsed',
  z.object({ ticketId: id, ownerId }),
);
/** A booked ticket was cancelled; staff may give a reason (a closure's), which the mail states. */
export const TicketCancelled = defineEvent(
  'TicketCancelled',
  z.object({
    ticketId: id,
    ownerId,
    reason: z.string().min(1).max(500).optional(),
    /** A rebooking: the booking's new ticket, which took this one's place (its mail says so). */
    movedTo: id.optional(),
  }),
);
/** Check-in: staff checked a booked ticket's reader in (at the clock's instant). */
export const TicketCheckedIn = defineEvent(
  'TicketCheckedIn',
  z.object({ ticketId: id, checkedInAt: instant }),
);
/** Check-in: staff took a check-in back (within the undo time). */
export const TicketCheckInUndone = defineEvent('TicketCheckInUndone', z.object({ ticketId: id }));
/**
 * No-show release: a booked ticket not checked in by its room's release time is no
 * longer booked (status INVALID, flagged a no-show); its seat is free again. Actor `system`.
 */
export const TicketNoShowReleased = defineEvent(
  'TicketNoShowReleased',
  z.object({ ticketId: id, ownerId }),
);

// --- the transaction (cart) stream ------------------------------------------------------------

const CartTicket = z.object({
  ticketId: id,
  timeSlotId: id,
  roomId: id,
  date,
  startTime: time,
  endTime: time,
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
export const TransactionBooked = defineEvent(
  'TransactionBooked',
  z.object({
    transactionId: id,
    ownerId,
    bookingNumber: z.string(),
    visitorKey,
    language: z.enum(['de', 'en']),
    ticketIds: z.array(id),
  }),
);
export const TransactionRemoved = defineEvent(
  'TransactionRemoved',
  z.object({ transactionId: id }),
);
export const TransactionExpired = defineEvent(
  'TransactionExpired',
  z.object({ transactionId: id }),
);

// --- the visitor stream (keyed by the HMAC of the normalised e-mail): per-visitor limits --------

const VisitorTicket = z.object({ ticketId: id, date, startTime: time, endTime: time });
export const VisitorTicketsBooked = defineEvent(
  'VisitorTicketsBooked',
  z.object({ ownerId, tickets: z.array(VisitorTicket) }),
);
export const VisitorTicketCancelled = defineEvent(
  'VisitorTicketCancelled',
  z.object({ ticketId: id }),
);

/** The erasure job deleted the booking's personal data (the day after the booked day). */
export const PersonalDataErased = defineEvent('PersonalDataErased', z.object({ ownerId }));

/** Staff changed the owner data of a booking (the data itself stays in the personal-data table). */
export const OwnerDataChanged = defineEvent(
  'OwnerDataChanged',
  z.object({ ownerId, ticketId: id }),
);

export const bookingEvents = [
  PersonalDataErased,
  OwnerDataChanged,
  TicketHeld,
  TicketHoldExtended,
  TicketReleased,
  TicketBooked,
  TicketCancelled,
  TicketCheckedIn,
  TicketCheckInUndone,
  TicketNoShowReleased,
  TicketConfirmed,
  TicketConfirmationLapsed,
  TransactionStarted,
  TicketAddedToTransaction,
  TicketRemovedFromTransaction,
  TransactionTouched,
  TransactionBooked,
  TransactionRemoved,
  TransactionExpired,
  VisitorTicketsBooked,
  VisitorTicketCancelled,
];

type D<T extends { schema: z.ZodType }> = z.infer<T['schema']>;

export type SlotTicketEvent =
  | { type: 'TicketHeld'; data: D<typeof TicketHeld> }
  | { type: 'TicketHoldExtended'; data: D<typeof TicketHoldExtended> }
  | { type: 'TicketReleased'; data: D<typeof TicketReleased> }
  | { type: 'TicketBooked'; data: D<typeof TicketBooked> }
  | { type: 'TicketCancelled'; data: D<typeof TicketCancelled> }
  | { type: 'TicketCheckedIn'; data: D<typeof TicketCheckedIn> }
  | { type: 'TicketCheckInUndone'; data: D<typeof TicketCheckInUndone> }
  | { type: 'TicketNoShowReleased'; data: D<typeof TicketNoShowReleased> }
  | { type: 'TicketConfirmed'; data: D<typeof TicketConfirmed> }
  | { type: 'TicketConfirmationLapsed'; data: D<typeof TicketConfirmationLapsed> };

export type TransactionEvent =
  | { type: 'TransactionStarted'; data: D<typeof TransactionStarted> }
  | { type: 'TicketAddedToTransaction'; data: D<typeof TicketAddedToTransaction> }
  | { type: 'TicketRemovedFromTransaction'; data: D<typeof TicketRemovedFromTransaction> }
  | { type: 'TransactionTouched'; data: D<typeof TransactionTouched> }
  | { type: 'TransactionBooked'; data: D<typeof TransactionBooked> }
  | { type: 'TransactionRemoved'; data: D<typeof TransactionRemoved> }
  | { type: 'TransactionExpired'; data: D<typeof TransactionExpired> }
  | { type: 'PersonalDataErased'; data: D<typeof PersonalDataErased> }
  | { type: 'OwnerDataChanged'; data: D<typeof OwnerDataChanged> };

export type VisitorEvent =
  | { type: 'VisitorTicketsBooked'; data: D<typeof VisitorTicketsBooked> }
  | { type: 'VisitorTicketCancelled'; data: D<typeof VisitorTicketCancelled> };

export const transactionStreamId = (transactionId: string) => `transaction-${transactionId}`;
export const visitorStreamId = (visitorKey: string) => `visitor-${visitorKey}`;
