import { instantOf, type LocalDate } from '../calendar.ts';
import type { Now } from '../decider.ts';
import { isOpenForBooking, roomWindowOn, type RoomHolidays } from '../booking-window.ts';
import { cartRules, type CartRule, type CartRuleSlot } from '../cart-rules.ts';
import type { BookingLimits } from '../limits.ts';
import { refuse, Refused } from '../refusal.ts';
import { mustNotBeBlocked, type BlacklistState } from '../blacklist/blacklist-entry.ts';
import type { RoomState } from '../rooms/room.ts';
import { mustAdmitAddress } from '../rooms/email-domains.ts';
import { mustAdmitMember, type Admission } from '../rooms/affiliations.ts';
import { mustNotBeNoShowBlocked } from '../no-show-rule.ts';
import { holdHasSeat, seatsTaken, slotSeatsAt, type HeldTicket } from '../seats.ts';
import { isUnderWay, seatsForCarts } from '../seat-rule.ts';
import { isOutstanding } from '../waitlist-line.ts';
import {
  confirmationDeadline,
  confirmationDue,
  confirmationRefusals,
  earlierDeadline,
} from './confirmation.ts';
import type { SlotState } from './time-slot.ts';
import { seatRulesOf, type SeatPath, type SeatRuleName } from './seat-paths.ts';
import { chooseSeat, freeSeats, type SeatWish } from './seat-choice.ts';
import { hasSeatPlan } from '../rooms/seat-plan.ts';
import type { TicketSeat } from '../seats.ts';

/**
 * The one decision that gives a person a seat of a slot. Every path to a seat asks it: a cart's
 * add, booking a cart, a staff booking, a rebooking, a waitlist join (a seat wanted once one is
 * free), the matcher's offer, the taking of an offer and a walk-in at the seat. It applies every rule of the slot and of
 * the person in one order; a path supplies only what differs (who acts, what the person holds,
 * what is given up), and `seatRulesOf` (seat-paths.ts) says, for every path and every rule,
 * whether the path applies it or why not.
 */

/** A seat wanted: the slot as folded now, and what of it the path holds already. */
export interface SeatWanted {
  timeSlotId: string;
  /** The ticket that takes the seat (booking a cart: the held ticket). */
  ticketId: string;
  slot: SlotState;
  /** A rebooking: the ticket the seat replaces, whose booking's confirmation goes on with it. */
  replaces?: HeldTicket | undefined;
  /** Taking a waitlist offer: the offer. */
  offerId?: string | undefined;
  /** In a room with a seat plan: the seat, or the attributes, the person asks for. */
  wish?: SeatWish | undefined;
  /** In a room with a seat plan: seats to prefer when free (a cart's adjacent slot's, a rebooked ticket's). */
  prefer?: readonly string[] | undefined;
}

/** The person a seat is for, as far as the path knows them. */
export interface SeatTaker extends Admission {
  /** The seats the person holds already: the cart's tickets, or their bookings (and offers). */
  held: readonly CartRuleSlot[];
  blacklist?: BlacklistState | undefined;
  /** The days of the person's no-show releases the rule counts. */
  noShows?: readonly LocalDate[] | undefined;
  /** Staff: `false` refuses a slot without a free seat; otherwise they book beyond it. */
  confirmOverbooking?: boolean | undefined;
}

/** Where the seats are: the rooms of the slots, and each one's holidays (by room id). */
export interface SeatPlace {
  rooms: ReadonlyMap<string, RoomState>;
  holidays: RoomHolidays;
}

export interface SeatContext extends Now {
  limits: BookingLimits;
  /** The library's zone: a slot's start as an instant (a join, an offer, a confirmation deadline). */
  timeZone?: string | undefined;
}

/**
 * What taking the seats decided: each booked seat's confirmation deadline, and in a room with a
 * seat plan the seat of the plan each ticket takes (null: none, a staff booking beyond the free
 * seats), by ticket id.
 */
export interface SeatsGiven {
  confirmBy: Map<string, string>;
  seats: Map<string, TicketSeat | null>;
}

const applies = (path: SeatPath, rule: SeatRuleName) => seatRulesOf[path][rule] === 'applies';

const cartRuleOf: Record<CartRule, SeatRuleName> = {
  timeslot_already_in_transaction: 'per-time',
  max_tickets_per_time_reached: 'per-time',
  max_tickets_per_transaction_reached: 'cart-size',
  max_tickets_by_user_reached: 'per-visitor',
  max_tickets_per_day_reached: 'per-day',
};

const notOpen = () => refuse.ticket('timeslot_not_open');

/** A wanted seat's slot as the limits count it, with its room's site. */
const asHeld = ({ timeSlotId, slot }: SeatWanted, place: SeatPlace): CartRuleSlot => ({
  timeSlotId,
  date: slot.date,
  startTime: slot.startTime,
  endTime: slot.endTime,
  roomId: slot.roomId,
  siteId: place.rooms.get(slot.roomId)?.siteId,
});

/**
 * A held ticket with its site, when the limits count per site: as its loader gave it, else its
 * room's (a cart's tickets name their rooms, which the decision has loaded).
 */
const withSite = (t: CartRuleSlot, place: SeatPlace): CartRuleSlot =>
  t.siteId !== undefined || t.roomId === undefined
    ? t
    : { ...t, siteId: place.rooms.get(t.roomId)?.siteId ?? '' };

function startsAt(slot: SlotState, timeZone: string | undefined): Date {
  // Every command side passes the library's zone; a start without it would be a guess.
  if (!timeZone) throw new Error('the time zone is needed for a slot’s start');
  return instantOf(slot.date, slot.startTime, timeZone);
}

export const notUnderWay = () =>
  new Refused('walk_in__not_under_way', 'The time slot has not started or has ended');

/**
 * The slot's own rules: open, in its room's window, not started (a walk-in: under way). Null
 * when it passes them.
 */
function slotRefusal(
  path: SeatPath,
  seat: SeatWanted,
  place: SeatPlace,
  ctx: SeatContext,
): Refused | null {
  const { slot } = seat;
  if (applies(path, 'slot-open') && (slot.status !== 'active' || slot.closed !== undefined))
    return path === 'offer-taken' ? offerGone() : notOpen();
  if (applies(path, 'booking-window')) {
    const room = place.rooms.get(slot.roomId);
    const window =
      room && room.status === 'active'
        ? roomWindowOn(ctx.today, room, place.holidays.get(slot.roomId))
        : null;
    if (slot.capacity <= 0 || !window || !isOpenForBooking(slot.date, window)) return notOpen();
  }
  if (applies(path, 'not-started') && startsAt(slot, ctx.timeZone) <= ctx.now) return notOpen();
  if (applies(path, 'under-way') && !isUnderWay(slot, ctx)) return notUnderWay();
  return null;
}

/** The person's limits: the seats they hold and the one wanted (cart-rules.ts). */
function limitRefusal(
  path: SeatPath,
  seat: SeatWanted,
  held: readonly CartRuleSlot[],
  limits: BookingLimits,
  place: SeatPlace,
): Refused | null {
  const wanted = asHeld(seat, place);
  const cartSize = applies(path, 'cart-size') ? limits.maxCartTickets : Number.POSITIVE_INFINITY;
  for (const rule of cartRules(held, wanted, { ...limits, maxCartTickets: cartSize })) {
    if (!applies(path, cartRuleOf[rule])) continue;
    return rule === 'max_tickets_per_day_reached'
      ? refuse.dayLimit(seat.slot.date, limits.maxTicketsPerDay)
      : refuse.ticket(rule);
  }
  return null;
}

function loaded<T>(state: T | undefined, what: string): T {
  if (state === undefined) throw new Error(`the ${what} of the person was not loaded`);
  return state;
}

/** Who the person is: blacklist, no-show block, the members-only rooms of the seats. */
function personRefusal(
  path: SeatPath,
  rooms: readonly RoomState[],
  taker: SeatTaker,
  ctx: Pick<SeatContext, 'today' | 'limits'>,
): Refused | null {
  try {
    // A path that applies a rule of the person must have loaded what it decides on: a rule left
    // without its state would pass silently, the very gap this decision closes.
    if (applies(path, 'blacklist'))
      mustNotBeBlocked(loaded(taker.blacklist, 'blacklist'), ctx.today);
    if (applies(path, 'no-show-block'))
      mustNotBeNoShowBlocked(
        loaded(taker.noShows, 'no-show days'),
        ctx.today,
        ctx.limits.noShowRule,
      );
    if (applies(path, 'members-only')) mustAdmitAddress(rooms, taker.emailDomain);
    if (applies(path, 'members-sign-in')) mustAdmitMember(rooms, loaded(taker.member, 'sign-in'));
    return null;
  } catch (err) {
    if (err instanceof Refused) return err;
    throw err;
  }
}

export const offerGone = () =>
  new Refused('waitlist__offer_not_valid', 'The offer has lapsed or was taken already');
export const seatsFree = () =>
  new Refused('waitlist__seats_free', 'Seats are free in this time slot: book one instead');
export const transactionExpired = () =>
  new Refused('transaction__expired', 'The reservation cart has expired');

/** Whether a seat is free for the person, counted by what the path holds. */
function capacityRefusal(
  path: SeatPath,
  seat: SeatWanted,
  taker: SeatTaker,
  place: SeatPlace,
  ctx: SeatContext,
): Refused | null {
  const { slot } = seat;
  const room = place.rooms.get(slot.roomId);
  const waitlistOn = (room?.services.waitlistOfferMinutes ?? null) !== null;
  // In a room with a seat plan, no more seats than the plan has free (seat-choice.ts).
  const planFree =
    room && hasSeatPlan(room.seatPlan) ? freeSeats(room.seatPlan, slot, ctx.now).length : null;
  switch (path) {
    case 'cart-add':
    case 'move':
    case 'walk-in':
      return seatsForCarts(slotSeatsAt(slot, waitlistOn, ctx, planFree)) > 0
        ? null
        : refuse.ticket('timeslot_no_tickets_left');
    case 'cart-booking': {
      const held = slot.tickets.get(seat.ticketId);
      if (!held || held.status !== 'NEW') return transactionExpired();
      return holdHasSeat(slot, seat.ticketId, ctx.now)
        ? null
        : refuse.ticket('timeslot_no_tickets_left');
    }
    case 'staff-booking': {
      const taken = seatsTaken(slot, ctx.now);
      // In a room with a seat plan, a slot with no free seat of it is full too.
      const full = taken >= slot.capacity || planFree === 0;
      return taker.confirmOverbooking === false && full
        ? new Refused(
            { code: 'timeslot__overbooking_not_confirmed', taken, capacity: slot.capacity },
            'The time slot is full: booking would overbook it',
          )
        : null;
    }
    case 'waitlist-join':
      return seatsForCarts(slotSeatsAt(slot, true, ctx, planFree)) > 0 ? seatsFree() : null;
    case 'waitlist-offer':
      return Math.min(offerableSeats(slot, ctx.now), planFree ?? Number.POSITIVE_INFINITY) > 0
        ? null
        : refuse.ticket('timeslot_no_tickets_left');
    case 'offer-taken': {
      const entry = (slot.waitlist ?? []).find((e) => e.offerId === seat.offerId);
      return entry && isOutstanding(entry, ctx.now) ? null : offerGone();
    }
  }
}

/**
 * The seats of the rooms' plans the wanted seats take, by ticket id (seat-choice.ts), or the
 * refusal of the first that cannot have one. Staff booking beyond the free seats (without a wish)
 * book a ticket without a seat. A path that does not apply the rule takes none here.
 */
export function chosenSeats(
  path: SeatPath,
  seats: readonly SeatWanted[],
  place: SeatPlace,
  ctx: Pick<SeatContext, 'now'>,
): Map<string, TicketSeat | null> | Refused {
  const chosen = new Map<string, TicketSeat | null>();
  if (!applies(path, 'seat')) return chosen;
  const given = new Set<string>();
  for (const seat of seats) {
    const plan = place.rooms.get(seat.slot.roomId)?.seatPlan;
    const choice = plan
      ? chooseSeat({
          plan,
          slot: seat.slot,
          wish: seat.wish,
          prefer: seat.prefer,
          given,
          now: ctx.now,
        })
      : null;
    if (choice instanceof Refused) {
      if (path === 'staff-booking' && !seat.wish && isNoSeatLeft(choice)) {
        chosen.set(seat.ticketId, null);
        continue;
      }
      return choice;
    }
    if (choice) given.add(choice.seatId);
    chosen.set(seat.ticketId, choice);
  }
  return chosen;
}

/** The seats the matcher may offer: capacity less bookings, cart holds and outstanding offers. */
export function offerableSeats(slot: SlotState, now: Date): number {
  return Math.max(0, slot.capacity - seatsTaken(slot, now));
}

/** Whether a refusal is the capacity's: the rules would let the person have a seat were one free. */
export function isNoSeatLeft(refusal: Refused): boolean {
  const r = refusal.refusal;
  return r.code === 'ticket__validation_error' && r.rule === 'timeslot_no_tickets_left';
}

/** The first rule the seats fail for the person on this path, or null when they may be taken. */
export function seatRefusal(
  path: SeatPath,
  seats: readonly SeatWanted[],
  taker: SeatTaker,
  place: SeatPlace,
  ctx: SeatContext,
): Refused | null {
  const decided = seatDecision(path, seats, taker, place, ctx);
  return decided instanceof Refused ? decided : null;
}

/**
 * The first rule the seats fail for the person on this path, or, when they may be taken, the
 * seat of the rooms' plans each takes (chosenSeats).
 */
export function seatDecision(
  path: SeatPath,
  seats: readonly SeatWanted[],
  taker: SeatTaker,
  place: SeatPlace,
  ctx: SeatContext,
): Refused | Map<string, TicketSeat | null> {
  for (const seat of seats) {
    const refusal = slotRefusal(path, seat, place, ctx);
    if (refusal) return refusal;
  }
  // Each seat counts against what the person holds and the seats wanted before it.
  const held = ctx.limits.limitsPerSite
    ? taker.held.map((t) => withSite(t, place))
    : [...taker.held];
  for (const seat of seats) {
    const refusal = limitRefusal(path, seat, held, ctx.limits, place);
    if (refusal) return refusal;
    held.push(asHeld(seat, place));
  }
  const roomIds = new Set(seats.map((s) => s.slot.roomId));
  const rooms = [...roomIds].flatMap((id) => place.rooms.get(id) ?? []);
  const person = personRefusal(path, rooms, taker, ctx);
  if (person) return person;
  for (const seat of seats) {
    const refusal = capacityRefusal(path, seat, taker, place, ctx);
    if (refusal) return refusal;
  }
  return chosenSeats(path, seats, place, ctx);
}

/**
 * The rules of who the person is that booking seats of these rooms would refuse them with: asked
 * when the visitor enters the address, before the booking decides them again.
 */
export function bookingPersonRefusal(
  rooms: readonly RoomState[],
  taker: SeatTaker,
  ctx: Pick<SeatContext, 'today' | 'limits'>,
): Refused | null {
  return personRefusal('cart-booking', rooms, taker, ctx);
}

/**
 * Gives the person the seats, or throws the first rule they fail. Answers each booked seat's
 * confirmation deadline in a room with confirmed addresses (docs/product.md#confirmed-addresses):
 * a rebooked seat goes on with its booking's confirmation (confirmed stays confirmed, awaiting
 * keeps its deadline but never past the new slot's start, a deadline that has come refuses), a
 * new booking is asked from now.
 */
export function takeSeats(
  path: SeatPath,
  seats: readonly SeatWanted[],
  taker: SeatTaker,
  place: SeatPlace,
  ctx: SeatContext,
): SeatsGiven {
  const chosen = seatDecision(path, seats, taker, place, ctx);
  if (chosen instanceof Refused) throw chosen;
  const confirmBy = new Map<string, string>();
  if (!applies(path, 'confirmed-address')) return { confirmBy, seats: chosen };
  for (const seat of seats) {
    const { replaces, slot } = seat;
    if (replaces?.confirmed) continue;
    if (replaces && confirmationDue(replaces, ctx.now)) throw confirmationRefusals.lapsed();
    const timeZone = ctx.timeZone;
    const deadline =
      replaces?.confirmBy != null
        ? earlierDeadline(replaces.confirmBy, slot, timeZone)
        : confirmationDeadline(ctx.now, place.rooms.get(slot.roomId)?.services, slot, timeZone);
    if (deadline) confirmBy.set(seat.ticketId, deadline);
  }
  return { confirmBy, seats: chosen };
}
