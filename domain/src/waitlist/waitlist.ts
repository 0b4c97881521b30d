import type { Member } from '../rooms/affiliations.ts';
import {
  SeatOfferLapsed,
  SeatOfferTaken,
  SeatOffered,
  TicketAddedToTransaction,
  TicketHeld,
  TransactionStarted,
  WaitlistEntryBackInLine,
  WaitlistEntryErased,
  WaitlistEntryPassedOver,
  WaitlistEntryRemovedByStaff,
  WaitlistJoined,
  WaitlistLeft,
  type SlotTicketEvent,
  type TransactionEvent,
  type WaitlistEvent,
} from '@rr/events/catalogue';
import { instantOf, type LocalDate } from '../calendar.ts';
import { type Now, unhandled } from '../decider.ts';
import { holdEnd, type BookingLimits } from '../limits.ts';
import { refuse, Refused } from '../refusal.ts';
import type { BlacklistState } from '../blacklist/blacklist-entry.ts';
import type { RoomState } from '../rooms/room.ts';
import { NO_SEAT_PLAN } from '../rooms/seat-plan.ts';
import { offerSeatToTake } from '../time-slots/seat-choice.ts';
import type { TicketSeat } from '../seats.ts';
import { cartTicketOf, type VisitorState } from '../reservations/cart.ts';
import { bookedSeats, type CartRuleSlot } from '../cart-rules.ts';
import { evolveSlot, type SlotState } from '../time-slots/time-slot.ts';
import {
  seatDecision,
  isNoSeatLeft,
  offerableSeats,
  offerGone,
  seatRefusal,
  seatsFree,
  takeSeats,
  type SeatPlace,
} from '../time-slots/take-seat.ts';
import { isInLine, isOutstanding, placeInLine } from '../waitlist-line.ts';
import { limitsKeyOf } from '../person-key.ts';

export type WaitlistCommand =
  | {
      type: 'JoinWaitlist';
      data: {
        entryId: string;
        timeSlotId: string;
        visitorKey: string;
        /**
         * The keyed campus subject of a signed-in visitor: whom the line's per-person rules count
         * the entry for (limitsKeyOf); absent: a guest, counted by `visitorKey`.
         */
        subjectKey?: string | undefined;
        language: 'de' | 'en';
        /** The domain of the address (a members-only room's rule); never written to an event. */
        emailDomain?: string | undefined;
        /** The signed-in visitor (members' rooms); absent: a guest. Never written to an event. */
        member?: Member | undefined;
      };
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
  | { type: 'EraseWaitlistEntries'; data: { timeSlotId: string; entryIds: readonly string[] } }
  /** The visitor leaves the line (their reference: the mail's link, the remembered place). */
  | { type: 'LeaveWaitlist'; data: { timeSlotId: string; entryId: string } }
  /** Staff take an entry off the line. */
  | { type: 'RemoveWaitlistEntry'; data: { timeSlotId: string; entryId: string } };

export interface WaitlistState {
  slot: SlotState;
  /** The slot's room (its waitlist setting and booking window decide with the slot). */
  room: RoomState | undefined;
  /** The room's holiday dates from today on (the whole system's and its site's): its working days. */
  holidays: ReadonlySet<LocalDate>;
  visitor: VisitorState;
  blacklist: BlacklistState;
  /** The days of the visitor's no-show releases (the no-show rule); loaded by a join. */
  noShows?: readonly LocalDate[];
  /**
   * The matcher's view of the people waiting, by visitor key: the seats each holds already (their
   * bookings from today on and their offers still out in other slots). Loaded only when a seat is
   * free to offer or someone waiting was passed over; someone missing here holds nothing.
   */
  held?: ReadonlyMap<string, readonly CartRuleSlot[]>;
}

export interface WaitlistContext extends Now {
  limits: BookingLimits;
  timeZone: string;
  newOfferId: () => string;
  /**
   * Whether the matcher records whom the limits pass over (absent: it does). Off, everyone waiting
   * claims a seat as before those events existed: a release older than them, running beside this
   * one during a rolling upgrade, cannot fold them (WAITLIST_PASS_OVER).
   */
  passOver?: boolean;
}

/** Events for the slot's stream, and for a new cart's (a taken offer). */
export interface WaitlistDecision {
  slot: (WaitlistEvent | SlotTicketEvent)[];
  transaction: TransactionEvent[];
}

export const waitlistRefusals = {
  notAvailable: () => new Refused('waitlist__not_available', 'This time slot has no waitlist'),
  seatsFree,
  /** The address waits already: the refusal names its place (empty while it holds an offer). */
  alreadyJoined: (positionInLine: number | null = null) =>
    new Refused(
      { code: 'waitlist__already_joined', positionInLine },
      'This e-mail address is already on the waitlist',
    ),
  offerGone,
};

/**
 * The per-visitor limits as a booking meets them (cart-rules.ts), without a cart's own size: what
 * the what-if replay weighs an offer with.
 */
export function visitorLimits(limits: BookingLimits): BookingLimits {
  return { ...limits, maxCartTickets: Number.POSITIVE_INFINITY };
}

export { bookedSeats, offerableSeats };

/**
 * Pure: a join needs a full, open slot of a room with a waitlist, an address that is not
 * blacklisted, a visitor within the per-visitor limits (as if the slot were booked) and not in
 * line already. The matcher offers as many seats as are free (offers already count as taken),
 * each to the next waiting entry the limits allow, for the room's offer time but never past the
 * slot's start; an entry they bar while a seat is free is passed over (it then claims no seat),
 * and one passed over that they allow again with no seat free claims again.
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
  if (command.type === 'LeaveWaitlist' || command.type === 'RemoveWaitlistEntry') {
    // Whatever became of the slot: once out of line, nobody is offered a seat any more. Leaving
    // twice (or after the offer was taken or lapsed) changes nothing and is no error.
    const { timeSlotId, entryId } = command.data;
    const entry = (slot.waitlist ?? []).find((e) => e.entryId === entryId);
    if (!entry) throw refuse.notFound('Waitlist entry');
    if (isInLine(entry))
      d.slot.push(
        command.type === 'LeaveWaitlist'
          ? WaitlistLeft.create({ entryId, timeSlotId })
          : WaitlistEntryRemovedByStaff.create({ entryId, timeSlotId }),
      );
    return d;
  }
  if (slot.status !== 'active') throw refuse.notFound('Time slot');
  const offerMinutes = room?.services.waitlistOfferMinutes ?? null;
  const list = slot.waitlist ?? [];
  const startsAt = instantOf(slot.date, slot.startTime, ctx.timeZone);
  const place: SeatPlace = {
    rooms: room ? new Map([[slot.roomId, room]]) : new Map(),
    holidays: new Map([[slot.roomId, state.holidays]]),
  };
  switch (command.type) {
    case 'JoinWaitlist': {
      if (offerMinutes === null) throw waitlistRefusals.notAvailable();
      // The one decision that gives a seat (take-seat.ts), as if the slot had one free: the
      // visitor's bookings from today on count against their limits, and the slot must be full.
      takeSeats(
        'waitlist-join',
        [{ timeSlotId: command.data.timeSlotId, ticketId: command.data.entryId, slot }],
        {
          held: bookedSeats(state.visitor, ctx.today),
          blacklist: state.blacklist,
          noShows: state.noShows,
          emailDomain: command.data.emailDomain,
          member: command.data.member ?? null,
        },
        place,
        ctx,
      );
      const { emailDomain: _domain, member: _member, ...joined } = command.data;
      const personKey = limitsKeyOf(joined);
      // Once more in line, or taken a seat, or taken off by staff: no second entry of the person
      // (a signed-in visitor's subject, whatever address). Who left or let an offer lapse may
      // join again (last in line).
      const earlier = list.find(
        (e) => e.personKey === personKey && e.status !== 'lapsed' && e.status !== 'left',
      );
      if (earlier) throw waitlistRefusals.alreadyJoined(placeInLine(list, earlier.entryId));
      d.slot.push(WaitlistJoined.create({ ...joined, joinedAt: ctx.now.toISOString() }));
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
      if (offerMinutes === null) return d;
      const { timeSlotId } = command.data;
      // The one decision that gives a seat (take-seat.ts) for each person in line order, on the
      // slot as the offers made so far leave it: a closed or started slot offers nobody a seat
      // (the people waiting were told it closed), a seat is offered only while one is free.
      const wanted = (current: SlotState) => [{ timeSlotId, ticketId: '', slot: current }];
      const slotRefused = seatRefusal('waitlist-offer', wanted(slot), { held: [] }, place, ctx);
      if (slotRefused && !isNoSeatLeft(slotRefused)) return d;
      const until = Math.min(ctx.now.getTime() + offerMinutes * 60_000, startsAt.getTime());
      const expiresAt = new Date(until).toISOString();
      // With no seat free, only someone passed over is looked at again, and only when the
      // matcher loaded what the people waiting hold.
      if (slotRefused && !state.held) return d;
      const passOver = ctx.passOver !== false;
      let current = slot;
      for (const e of list) {
        if (e.status !== 'waiting') continue;
        // In line order, counting the seats each holds by bookings and other offers.
        const held = state.held?.get(e.personKey) ?? [];
        const decided = seatDecision('waitlist-offer', wanted(current), { held }, place, ctx);
        const refused = decided instanceof Refused ? decided : null;
        const allowed = refused === null || isNoSeatLeft(refused);
        if (!(decided instanceof Refused)) {
          const offered = seatOffer(e.entryId, timeSlotId, decided.get(''), ctx, expiresAt);
          d.slot.push(offered);
          current = evolveSlot(current, offered);
        } else if (allowed && e.passedOver && passOver) {
          // Allowed again with no seat free: it claims the next freed seat again.
          d.slot.push(WaitlistEntryBackInLine.create({ entryId: e.entryId, timeSlotId }));
        } else if (!allowed && offerableSeats(current, ctx.now) > 0 && !e.passedOver && passOver) {
          // Barred from this seat: passed over, once, keeping its place; it no longer claims a
          // seat, so one nobody in line may take goes to carts (docs/product.md#waitlist).
          d.slot.push(WaitlistEntryPassedOver.create({ entryId: e.entryId, timeSlotId }));
        }
      }
      return d;
    }
    case 'TakeSeatOffer': {
      const { offerId, transactionId, ticketId, timeSlotId } = command.data;
      const entry = list.find((e) => e.offerId === offerId);
      if (!entry) throw refuse.notFound('Offer');
      // The one decision that gives a seat (take-seat.ts): the offer holds it, unless it lapsed,
      // was taken, or the slot closed since.
      takeSeats('offer-taken', [{ timeSlotId, ticketId, slot, offerId }], { held: [] }, place, ctx);
      // The offer's seat becomes the cart's hold: counted once, never freed in between.
      const expiresAt = holdEnd(ctx.now, ctx.limits);
      const seat = offerSeatToTake(room?.seatPlan ?? NO_SEAT_PLAN, slot, entry.offerSeat, ctx.now);
      // The offer's seat gone and none free for it: the offer is as good as lapsed.
      if (seat === null) throw offerGone();
      const seated = seat ? { seat } : {};
      const ticket = { ...cartTicketOf(slot, timeSlotId, ticketId), ...seated };
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
        TicketHeld.create({ ticketId, timeSlotId, transactionId, expiresAt, ...seated }),
      );
      return d;
    }
    default:
      return unhandled(command);
  }
}

/** An offer of a free seat to an entry; in a room with a seat plan it holds the seat chosen. */
function seatOffer(
  entryId: string,
  timeSlotId: string,
  seat: TicketSeat | null | undefined,
  ctx: { newOfferId: () => string },
  expiresAt: string,
) {
  const offerId = ctx.newOfferId();
  return SeatOffered.create({ entryId, timeSlotId, offerId, expiresAt, ...(seat ? { seat } : {}) });
}
