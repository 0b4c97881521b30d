import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { date, emailKey, id, instant, language, ownerId, seat, time } from './fields.ts';

/**
 * The time slot stream (`timeslot-<id>`): the slot itself, its seats (the tickets held and booked
 * for it) and its waitlist. The slot lock serialises everything that takes or frees a seat.
 */

// --- the slot itself ------------------------------------------------------------------------------

const SlotDetails = z.object({
  timeSlotId: id,
  roomId: id,
  date,
  startTime: time,
  endTime: time,
  capacity: z.number().int().min(0),
});

export const TimeSlotCreated = defineEvent('TimeSlotCreated', SlotDetails);
export const TimeSlotUpdated = defineEvent('TimeSlotUpdated', SlotDetails);
export const TimeSlotCapacityChanged = defineEvent(
  'TimeSlotCapacityChanged',
  z.object({ timeSlotId: id, roomId: id, capacity: z.number().int().min(0) }),
);
/**
 * Staff chose which seats of the room's plan the slot offers (docs/product.md#seat-plans), e.g.
 * exam places: its tickets take only these. Null: every seat of the plan in service (as before
 * any choice).
 */
export const TimeSlotSeatsChosen = defineEvent(
  'TimeSlotSeatsChosen',
  z.object({ timeSlotId: id, roomId: id, seatIds: z.array(id).min(1).nullable() }),
);
export const TimeSlotDeleted = defineEvent(
  'TimeSlotDeleted',
  z.object({ timeSlotId: id, roomId: id }),
);

/**
 * Staff closed the slot (a closure of rooms and days, e.g. for a holiday added later): it takes no
 * more carts and the waitlist offers no more seats; its tickets stay until cancelled. The reason
 * is the library's text, shown to staff and written into the mails; no personal data.
 */
export const TimeSlotClosed = defineEvent(
  'TimeSlotClosed',
  z.object({
    timeSlotId: id,
    roomId: id,
    closureId: id,
    reason: z.string().min(1).max(500),
    /** The reason's English text; absent (every event before it, and every closure without it): the reason serves both languages. */
    reasonEn: z.string().min(1).max(500).optional(),
  }),
);

// --- tickets: seats are counted here ----------------------------------------------------------

/**
 * A seat held for a cart until expiresAt (a NEW ticket). In a room with a seat plan, `seat` is the
 * plan's seat it holds (docs/product.md#seat-plans): no other active ticket of the slot holds it.
 */
export const TicketHeld = defineEvent(
  'TicketHeld',
  z.object({
    ticketId: id,
    timeSlotId: id,
    transactionId: id,
    expiresAt: instant,
    seat: seat.optional(),
  }),
);
/**
 * A ticket moved to another seat of its slot (staff at the desk, or its seat taken out of
 * service): `seat` is the new one; the actor and `reason` say why.
 */
export const TicketSeatChanged = defineEvent(
  'TicketSeatChanged',
  z.object({ ticketId: id, timeSlotId: id, seat, reason: z.string().min(1).max(500).optional() }),
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
/**
 * A booked ticket was cancelled; staff may give a reason (a closure's), which the mail states. Who
 * cancelled is the actor; a closure's cancellation names its closure.
 */
export const TicketCancelled = defineEvent(
  'TicketCancelled',
  z.object({
    ticketId: id,
    ownerId,
    reason: z.string().min(1).max(500).optional(),
    /** The reason's English text, only beside a reason that has one (an English mail states it). */
    reasonEn: z.string().min(1).max(500).optional(),
    /** A rebooking: the booking's new ticket, which took this one's place (its mail says so). */
    movedTo: id.optional(),
    /** A closure's cancellation: the closure it belongs to (its reason is `reason`). */
    closureId: id.optional(),
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

// --- the waitlist ---------------------------------------------------------------------------------

/*
 * The waitlist of a full slot. Its events live on the slot's stream: the slot lock
 * serialises joins, offers and takes with the carts' holds, so an offer holds a seat exactly
 * like a cart hold and two offers never take one seat. Events carry the visitor's HMAC key,
 * never the address (that lives in `waitlist_entries` beside the log until its erasure).
 */

/** The unguessable reference of an offer (its mail's link): 128 random bits. */
const offerId = z.string().regex(/^[0-9a-f]{32}$/);

/**
 * A visitor joined a full slot's waitlist (last in line). Version 2: `subjectKey`, the keyed
 * hash of the campus subject of a visitor signed in while joining, whom the line's per-person
 * rules count the entry for (docs/product.md#one-person-one-set-of-limits); absent (every
 * version 1 event, a guest): the address's key `visitorKey`, as before.
 */
export const WaitlistJoined = defineEvent(
  'WaitlistJoined',
  z.object({
    entryId: id,
    timeSlotId: id,
    visitorKey: emailKey,
    subjectKey: emailKey.optional(),
    language,
    joinedAt: instant,
  }),
  2,
);
/**
 * A free seat is held for the first in line until expiresAt (never past the slot's start); in a
 * room with a seat plan, `seat` is the plan's seat the offer holds.
 */
export const SeatOffered = defineEvent(
  'SeatOffered',
  z.object({ entryId: id, timeSlotId: id, offerId, expiresAt: instant, seat: seat.optional() }),
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

const lifecycle = [
  TimeSlotCreated,
  TimeSlotUpdated,
  TimeSlotCapacityChanged,
  TimeSlotSeatsChosen,
  TimeSlotDeleted,
  TimeSlotClosed,
] as const;
const tickets = [
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
  TicketSeatChanged,
] as const;
const waitlist = [
  WaitlistJoined,
  SeatOffered,
  SeatOfferLapsed,
  SeatOfferTaken,
  WaitlistEntryErased,
  WaitlistLeft,
  WaitlistEntryRemovedByStaff,
  WaitlistEntryPassedOver,
  WaitlistEntryBackInLine,
] as const;

/** Every event type of a time slot's stream. */
export const timeSlotStream = defineStream('timeslot', [...lifecycle, ...tickets, ...waitlist]);

export type TimeSlotEvent = EventOf<typeof timeSlotStream>;
export type TimeSlotLifecycleEvent = EventOf<typeof lifecycle>;
export type SlotTicketEvent = EventOf<typeof tickets>;
export type WaitlistEvent = EventOf<typeof waitlist>;

export const timeSlotStreamId = (timeSlotId: string) => `${timeSlotStream.kind}-${timeSlotId}`;
