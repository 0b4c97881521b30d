import {
  SeatOfferLapsed,
  SeatOfferTaken,
  SeatOffered,
  TicketAddedToTransaction,
  TicketHeld,
  TransactionStarted,
  WaitlistEntryErased,
  WaitlistJoined,
  type SlotTicketEvent,
  type TransactionEvent,
  type WaitlistEvent,
} from '@rr/events/catalogue';
import { instantOf, type LocalDate } from '../calendar.ts';
import type { Now } from '../decider.ts';
import { bookingWindow } from '../booking-window.ts';
import { holdEnd, type BookingLimits } from '../limits.ts';
import { refuse, Refused } from '../refusal.ts';
import { blocks, type BlacklistState } from '../blacklist/blacklist-entry.ts';
import type { RoomState } from '../rooms/room.ts';
import { cartTicketOf, type VisitorState } from '../reservations/cart.ts';
import { seatAnswer } from '../seat-rule.ts';
import { seatsTaken, slotSeatsAt } from '../seats.ts';
import type { SlotState } from '../time-slots/time-slot.ts';
import { isOutstanding } from '../waitlist-line.ts';

export type WaitlistCommand =
  | {
      type: 'JoinWaitlist';
      data: { entryId: string; timeSlotId: string; visitorKey: string; language: 'de' | 'en' };
    }
  /** The matcher: lapse the offers past their time, offer the free seats to the next in line. */
  | { type: 'MatchWaitlist'; data: { timeSlotId: string } }
  /** The visitor follows an offer's link: its seat becomes the first hold of a new cart. */
  | {
      type: 'TakeSeatOffer';
      data: { timeSlotId: string; offerId: string; transactionId: string; ticketId: string };
    }
  /**
   * The erasure job: the addresses of these entries (beside the log) go the day after the slot's
   * day; each entry of the slot's line not erased yet gets its event, once.
   */
  | { type: 'EraseWaitlistEntries'; data: { timeSlotId: string; entryIds: readonly string[] } };

export interface WaitlistState {
  slot: SlotState;
  /** The slot's room (its waitlist setting and booking window decide with the slot). */
  room: RoomState | undefined;
  /** Holiday dates from today on: the working days of the room's booking window. */
  holidays: ReadonlySet<LocalDate>;
  visitor: VisitorState;
  blacklist: BlacklistState;
}

export interface WaitlistContext extends Now {
  limits: BookingLimits;
  timeZone: string;
  newOfferId: () => string;
}

/** Events for the slot's stream, and for a new cart's (a taken offer). */
export interface WaitlistDecision {
  slot: (WaitlistEvent | SlotTicketEvent)[];
  transaction: TransactionEvent[];
}

export const waitlistRefusals = {
  notAvailable: () => new Refused('waitlist__not_available', 'This time slot has no waitlist'),
  seatsFree: () =>
    new Refused('waitlist__seats_free', 'Seats are free in this time slot: book one instead'),
  alreadyJoined: () =>
    new Refused('waitlist__already_joined', 'This e-mail address is already on the waitlist'),
  offerGone: () =>
    new Refused('waitlist__offer_not_valid', 'The offer has lapsed or was taken already'),
};

/** The seats the matcher may offer at `now`: capacity less bookings, cart holds and outstanding offers. */
function offerableSeats(slot: SlotState, now: Date): number {
  return Math.max(0, slot.capacity - seatsTaken(slot, now));
}

/**
 * Pure: a join needs a full, open slot of a room with a waitlist, an address that is not
 * blacklisted, a visitor within the per-visitor limits (as if the slot were booked) and not in
 * line already. The matcher offers as many seats as are free (offers already count as taken),
 * each to the next waiting entry, for the room's offer time but never past the slot's start.
 */
export function decideWaitlist(
  command: WaitlistCommand,
  state: WaitlistState,
  ctx: WaitlistContext,
): WaitlistDecision {
  const { slot, room } = state;
  const d: WaitlistDecision = { slot: [], transaction: [] };
  if (command.type === 'EraseWaitlistEntries') {
    // Whatever became of the slot since (deleted with its room): the addresses go all the same.
    const { timeSlotId, entryIds } = command.data;
    const due = new Set(entryIds);
    for (const e of slot.waitlist ?? [])
      if (due.has(e.entryId) && !e.erased)
        d.slot.push(WaitlistEntryErased.create({ entryId: e.entryId, timeSlotId }));
    return d;
  }
  if (slot.status !== 'active') throw refuse.notFound('Time slot');
  const offerMinutes = room?.services.waitlistOfferMinutes ?? null;
  const list = slot.waitlist ?? [];
  const startsAt = instantOf(slot.date, slot.startTime, ctx.timeZone);
  switch (command.type) {
    case 'JoinWaitlist': {
      if (offerMinutes === null) throw waitlistRefusals.notAvailable();
      // The one seat rule (seat-rule.ts) a cart's add meets, with the visitor's bookings from
      // today on in the place of the cart: the per-visitor limits as a booking would meet them.
      const answer = seatAnswer({
        slot: { timeSlotId: command.data.timeSlotId, ...slot },
        closed: slot.closed !== undefined,
        seats: slotSeatsAt(slot, true, ctx),
        window: room
          ? bookingWindow(ctx.today, room.openStart, room.openEnd, (x) => state.holidays.has(x))
          : null,
        held: state.visitor.tickets
          .filter((t) => !t.cancelled && t.date >= ctx.today)
          .map((t) => ({ ...t, timeSlotId: '' })),
        limits: { ...ctx.limits, maxCartTickets: Number.POSITIVE_INFINITY },
      });
      if (!answer.open || startsAt <= ctx.now) throw refuse.ticket('timeslot_not_open');
      if (!answer.full) throw waitlistRefusals.seatsFree();
      if (blocks(state.blacklist, ctx.today))
        throw new Refused('booking__email_blacklisted', 'This e-mail address may not book');
      const { visitorKey } = command.data;
      if (list.some((e) => e.visitorKey === visitorKey && e.status !== 'lapsed'))
        throw waitlistRefusals.alreadyJoined();
      const [rule] = answer.cart;
      if (rule === 'max_tickets_per_day_reached')
        throw refuse.dayLimit(slot.date, ctx.limits.maxTicketsPerDay);
      if (rule) throw refuse.ticket(rule);
      d.slot.push(WaitlistJoined.create({ ...command.data, joinedAt: ctx.now.toISOString() }));
      return d;
    }
    case 'MatchWaitlist': {
      for (const e of list) {
        if (e.status === 'offered' && !isOutstanding(e, ctx.now) && e.offerId)
          d.slot.push(
            SeatOfferLapsed.create({
              entryId: e.entryId,
              timeSlotId: command.data.timeSlotId,
              offerId: e.offerId,
            }),
          );
      }
      // A closed slot offers no seat: the people waiting were told it closed.
      if (offerMinutes === null || startsAt <= ctx.now || slot.closed) return d;
      const free = offerableSeats(slot, ctx.now);
      const until = Math.min(ctx.now.getTime() + offerMinutes * 60_000, startsAt.getTime());
      const expiresAt = new Date(until).toISOString();
      for (const e of list.filter((x) => x.status === 'waiting').slice(0, free))
        d.slot.push(
          SeatOffered.create({
            entryId: e.entryId,
            timeSlotId: command.data.timeSlotId,
            offerId: ctx.newOfferId(),
            expiresAt,
          }),
        );
      return d;
    }
    case 'TakeSeatOffer': {
      const { offerId, transactionId, ticketId, timeSlotId } = command.data;
      const entry = list.find((e) => e.offerId === offerId);
      if (!entry) throw refuse.notFound('Offer');
      if (!isOutstanding(entry, ctx.now) || slot.closed) throw waitlistRefusals.offerGone();
      // The offer's seat becomes the cart's hold: counted once, never freed in between.
      const expiresAt = holdEnd(ctx.now, ctx.limits);
      const ticket = cartTicketOf(slot, timeSlotId, ticketId);
      d.transaction.push(
        TransactionStarted.create({ transactionId, expiresAt }),
        TicketAddedToTransaction.create({ ...ticket, expiresAt }),
      );
      d.slot.push(
        SeatOfferTaken.create({
          entryId: entry.entryId,
          timeSlotId,
          offerId,
          ticketId,
          transactionId,
        }),
        TicketHeld.create({ ticketId, timeSlotId, transactionId, expiresAt }),
      );
      return d;
    }
  }
}
