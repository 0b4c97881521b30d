import { z } from 'zod';
import { defineEvent } from './define.ts';

/**
 * The waitlist of a full slot. Its events live on the slot's stream: the slot lock
 * serialises joins, offers and takes with the carts' holds, so an offer holds a seat exactly
 * like a cart hold and two offers never take one seat. Events carry the visitor's HMAC key,
 * never the address (that lives in `waitlist_entries` beside the log until its erasure).
 */
const id = z.uuid();
const instant = z.iso.datetime({ offset: true });
const visitorKey = z.string().regex(/^[0-9a-f]{40}$/);
/** The unguessable reference of an offer (its mail's link): 128 random bits. */
const offerId = z.string().regex(/^[0-9a-f]{32}$/);

/** A visitor joined a full slot's waitlist (last in line). */
export const WaitlistJoined = defineEvent(
  'WaitlistJoined',
  z.object({
    entryId: id,
    timeSlotId: id,
    visitorKey,
    language: z.enum(['de', 'en']),
    joinedAt: instant,
  }),
);
/** A free seat is held for the first in line until expiresAt (never past the slot's start). */
export const SeatOffered = defineEvent(
  'SeatOffered',
  z.object({ entryId: id, timeSlotId: id, offerId, expiresAt: instant }),
);
/** The offer was not taken in time: its seat goes to the next in line. */
export const SeatOfferLapsed = defineEvent(
  'SeatOfferLapsed',
  z.object({ entryId: id, timeSlotId: id, offerId }),
);
/** The visitor followed the offer: its seat became a cart's hold (TicketHeld follows). */
export const SeatOfferTaken = defineEvent(
  'SeatOfferTaken',
  z.object({ entryId: id, timeSlotId: id, offerId, ticketId: id, transactionId: id }),
);

/**
 * The entry's personal data (its address beside the log) was erased, the day after the slot's
 * day: every change of personal data is an event, though the data itself never is one.
 */
export const WaitlistEntryErased = defineEvent(
  'WaitlistEntryErased',
  z.object({ entryId: id, timeSlotId: id }),
);

/**
 * The visitor left the line (their mail's leave link, or the page that remembers their place):
 * no offer reaches them any more, and an offer still out frees its seat for the next.
 */
export const WaitlistLeft = defineEvent('WaitlistLeft', z.object({ entryId: id, timeSlotId: id }));
/**
 * Staff took the entry off the line (the actor in the event's metadata): as a leave, no offer
 * reaches the person any more and an offer still out frees its seat.
 */
export const WaitlistEntryRemovedByStaff = defineEvent(
  'WaitlistEntryRemovedByStaff',
  z.object({ entryId: id, timeSlotId: id }),
);

/**
 * The matcher passed the entry over for a free seat: the per-visitor limits bar its visitor from
 * it (docs/product.md#waitlist). Written once while it stays barred; the entry keeps its place
 * in line but no longer claims a freed seat, so carts may take one nobody in line can.
 */
export const WaitlistEntryPassedOver = defineEvent(
  'WaitlistEntryPassedOver',
  z.object({ entryId: id, timeSlotId: id }),
);
/**
 * A passed-over entry's limits allow it a seat again while none is free: it claims the next freed
 * seat again (an offer clears the passed-over state by itself and needs no such event).
 */
export const WaitlistEntryBackInLine = defineEvent(
  'WaitlistEntryBackInLine',
  z.object({ entryId: id, timeSlotId: id }),
);

export const waitlistEvents = [
  WaitlistJoined,
  SeatOffered,
  SeatOfferLapsed,
  SeatOfferTaken,
  WaitlistEntryErased,
  WaitlistLeft,
  WaitlistEntryRemovedByStaff,
  WaitlistEntryPassedOver,
  WaitlistEntryBackInLine,
];

type D<T extends { schema: z.ZodType }> = z.infer<T['schema']>;
export type WaitlistEvent =
  | { type: 'WaitlistJoined'; data: D<typeof WaitlistJoined> }
  | { type: 'SeatOffered'; data: D<typeof SeatOffered> }
  | { type: 'SeatOfferLapsed'; data: D<typeof SeatOfferLapsed> }
  | { type: 'SeatOfferTaken'; data: D<typeof SeatOfferTaken> }
  | { type: 'WaitlistEntryErased'; data: D<typeof WaitlistEntryErased> }
  | { type: 'WaitlistLeft'; data: D<typeof WaitlistLeft> }
  | { type: 'WaitlistEntryRemovedByStaff'; data: D<typeof WaitlistEntryRemovedByStaff> }
  | { type: 'WaitlistEntryPassedOver'; data: D<typeof WaitlistEntryPassedOver> }
  | { type: 'WaitlistEntryBackInLine'; data: D<typeof WaitlistEntryBackInLine> };
