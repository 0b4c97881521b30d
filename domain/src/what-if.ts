import {
  TicketReleased,
  type SlotTicketEvent,
  type TransactionEvent,
  type VisitorEvent,
} from '@rr/events/catalogue';
import { cartRules } from './cart-rules.ts';
import type { Now } from './decider.ts';
import { holdEnd, type BookingLimits } from './limits.ts';
import { Refused } from './refusal.ts';
import {
  evolveTransaction,
  evolveVisitor,
  initialTransaction,
  initialVisitor,
  type TransactionState,
  type VisitorState,
} from './reservations/cart.ts';
import { decideReservation, emptyReservation } from './reservations/reservation.ts';
import type { RoomState } from './rooms/room.ts';
import { seatsForCarts } from './seat-rule.ts';
import { slotSeatsAt } from './seats.ts';
import {
  evolveSlot,
  initialSlotState,
  type SlotEvent,
  type SlotState,
} from './time-slots/time-slot.ts';
import { bookedSeats, visitorLimits } from './waitlist/waitlist.ts';

/**
 * The what-if replay of the insights (docs/product.md#insights): a room's recorded demand over a
 * period (every cart request, served or refused as full, waitlist joins, releases, bookings,
 * cancellations, in their order and at their times) decided again by the cart decider
 * (`decideReservation`) and folded by the slot's own `evolveSlot`, under other rules: another
 * capacity for every slot, another hold time of carts, another most tickets per visitor and day.
 * Pure: the caller reads the log and the refusals and hands them in, commit by commit as it reads
 * them (the replay keeps its own state, never the history: a reader in batches bounds the memory).
 *
 * Without a changed `maxTicketsPerDay` each request is decided as a cart's first ticket: the seat
 * rule (seats, holds, the waitlist's claims, a closure) is what a capacity or a hold time changes.
 * With it, the caller hands in the streams of the slots' carts and of the visitors who booked
 * them as well, and a request is decided with what its cart holds (the cart's add: the cart
 * rules), a booking with the visitor's other bookings (the per-visitor limits a booking meets,
 * `visitorLimits`, as the waitlist's matcher applies them). The booking window is not replayed:
 * every recorded request met it.
 */

/** When a recorded thing happened: the instant and the library's local day and time of it. */
export type At = Now;

/** One recorded event of the history, of a slot's, a cart's or a visitor's stream. */
export type RecordedEntry =
  | {
      stream: 'slot';
      timeSlotId: string;
      event: SlotEvent;
      at: At;
      /** Staff's bookings take a seat without the seat rule (they may overbook). */
      byStaff: boolean;
    }
  | { stream: 'cart'; cartId: string; event: TransactionEvent; at: At }
  | { stream: 'visitor'; visitorKey: string; event: VisitorEvent; at: At };

/** A cart request the seat rule refused as full: once per cart and slot, at its first refusal. */
export interface RecordedRefusal {
  timeSlotId: string;
  at: At;
  /** The cart, when the history holds its stream (it held a seat of the replayed slots). */
  cartId?: string | undefined;
}

/** One commit's events of the history (a transaction's), in their order. */
export type RecordedCommit = readonly RecordedEntry[];

export interface WhatIfHistory {
  /** The replayed slots (a room's over a period), in the order of the answer. */
  slotIds: readonly string[];
  /**
   * Their streams' events, commit by commit in commit order; for a changed `maxTicketsPerDay`
   * among them the streams of the carts that held their seats and of the visitors who booked
   * those carts. A commit's events are known together before any of them is decided (a booking
   * names its visitor and a staff booking its holds in the same commit, in either order).
   */
  log: AsyncIterable<RecordedCommit>;
  /** The refusals in the order of their times. */
  refusals: AsyncIterable<RecordedRefusal>;
  /**
   * The visitor key each booked cart of the log names (its `TransactionBooked`): for a changed
   * `maxTicketsPerDay`, the visitor whose other bookings a booking meets.
   */
  visitorOf: ReadonlyMap<string, string>;
}

export interface WhatIfChange {
  /** Seats of every slot. */
  capacity?: number | undefined;
  /** How long a cart holds its seats. */
  cartHoldMinutes?: number | undefined;
  /** Tickets per visitor and day (a cart may not hold more on one day either). */
  maxTicketsPerDay?: number | undefined;
}

export interface Outcome {
  served: number;
  refused: number;
  waitlisted: number;
}

export interface SlotOutcome {
  timeSlotId: string;
  date: string;
  startTime: string;
  actual: Outcome;
  whatIf: Outcome;
}

const zero = (): Outcome => ({ served: 0, refused: 0, waitlisted: 0 });

/** An id for a request the log has no ticket for (a refused cart's, a join's), in uuid form. */
const replayId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const LIFECYCLE = new Set(['TimeSlotCreated', 'TimeSlotUpdated', 'TimeSlotCapacityChanged']);

interface ReplayedSlot {
  state: SlotState;
  actual: Outcome;
  whatIf: Outcome;
}

/**
 * Replays the history under the changed rules as it comes, one commit at a time, with the refusals
 * among the log by time (a refusal before the first event after its instant); answers each slot's
 * recorded and replayed outcome.
 */
export async function replay(
  history: WhatIfHistory,
  room: RoomState,
  limits: BookingLimits,
  change: WhatIfChange,
): Promise<SlotOutcome[]> {
  const rules: BookingLimits = {
    ...limits,
    holdMinutes: change.cartHoldMinutes ?? limits.holdMinutes,
    maxTicketsPerDay: change.maxTicketsPerDay ?? limits.maxTicketsPerDay,
  };
  const holdChanged = change.cartHoldMinutes !== undefined;
  const perVisitor = change.maxTicketsPerDay !== undefined;
  // Every recorded request is replayed with a window that holds its slot (it met the room's):
  // ten years of days, wider than any room's, and counted in one step (a bound in working days
  // walks them day by day, on every request).
  const anyDay: RoomState = {
    ...room,
    status: 'active',
    openStart: { type: 'DAY', value: 0 },
    openEnd: { type: 'DAY', value: 3660 },
  };
  const waitlistOn = room.services.waitlistOfferMinutes !== null;
  const slots = new Map<string, ReplayedSlot>(
    history.slotIds.map((id) => [id, { state: initialSlotState, actual: zero(), whatIf: zero() }]),
  );
  /** Tickets of the replayed slots the replay holds or booked. */
  const served = new Set<string>();
  /** Every ticket the replayed slots' streams held, with its cart: the replay decides these. */
  const replayedTickets = new Map<string, string>();
  /** Tickets of taken waitlist offers: their seat was the offer's, not a cart's request. */
  const offered = new Set<string>();
  // The carts and visitors as recorded (their own folds), and whom each booked cart names.
  const carts = new Map<string, TransactionState>();
  const visitors = new Map<string, VisitorState>();
  const { visitorOf } = history;
  const bookingDecided = new Set<string>();
  /** Carts staff booked: staff book without the per-visitor limits. */
  const staffCarts = new Set<string>();
  let extra = 0;

  /**
   * What happened, and what the replay must know of a commit before deciding any of its events:
   * the tickets its slots' streams hold (with their carts) and whether staff held them.
   */
  const record = (commit: RecordedCommit) => {
    for (const e of commit) {
      if (e.stream !== 'slot') continue;
      const slot = slots.get(e.timeSlotId);
      if (!slot) continue;
      if (e.event.type === 'TicketHeld') {
        slot.actual.served += 1;
        replayedTickets.set(e.event.data.ticketId, e.event.data.transactionId);
        if (e.byStaff) staffCarts.add(e.event.data.transactionId);
      }
      if (e.event.type === 'WaitlistJoined') slot.actual.waitlisted += 1;
    }
  };

  /** The recorded cart as the replay left it: without the replayed tickets it does not hold. */
  const cartAsReplayed = (cartId: string | undefined, except?: string): TransactionState => {
    const cart = cartId === undefined ? undefined : carts.get(cartId);
    if (!cart) return initialTransaction;
    const tickets = cart.tickets.filter(
      (t) => t.ticketId !== except && (!replayedTickets.has(t.ticketId) || served.has(t.ticketId)),
    );
    // The replay decides the holds' ends itself: the cart is open while it holds anything.
    return { ...cart, status: tickets.length > 0 ? 'open' : 'none', expiresAt: null, tickets };
  };

  /** A cart's request for a seat: the cart decider decides it on the slot as the replay left it. */
  const request = (
    timeSlotId: string,
    ticketId: string,
    at: At,
    cartId?: string,
    recorded?: SlotTicketEvent,
  ): void => {
    const slot = slots.get(timeSlotId)!;
    try {
      const decision = decideReservation(
        {
          type: 'AddTicket',
          data: { transactionId: cartId ?? ticketId, ticketId, timeSlotId },
        },
        {
          ...emptyReservation,
          cart: perVisitor ? cartAsReplayed(cartId, ticketId) : initialTransaction,
          slots: new Map([[timeSlotId, slot.state]]),
          rooms: new Map([[slot.state.roomId, anyDay]]),
        },
        { ...at, limits: rules },
      );
      // With the recorded hold time, the recorded hold (its exact expiry) is folded; a cart's
      // other holds are renewed by their own recorded events.
      const events = recorded && !holdChanged ? [recorded] : (decision.slots.get(timeSlotId) ?? []);
      for (const ev of events) slot.state = evolveSlot(slot.state, ev);
      served.add(ticketId);
      slot.whatIf.served += 1;
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      slot.whatIf.refused += 1;
    }
  };

  /**
   * A cart's booking (once, at the first of its recorded events): the per-visitor limits as a
   * booking meets them, with the visitor's other bookings as the replay left them. Refused, every
   * replayed seat of the cart is free again and its request counts refused, not served.
   */
  const book = (cartId: string, at: At): void => {
    if (!perVisitor || staffCarts.has(cartId) || bookingDecided.has(cartId)) return;
    bookingDecided.add(cartId);
    const cart = cartAsReplayed(cartId);
    const mine = cart.tickets.filter((t) => replayedTickets.has(t.ticketId));
    if (mine.length === 0) return;
    const key = visitorOf.get(cartId);
    const visitor = (key === undefined ? undefined : visitors.get(key)) ?? initialVisitor;
    const inCart = new Set((carts.get(cartId)?.tickets ?? []).map((t) => t.ticketId));
    const others = bookedSeats(
      {
        ...visitor,
        tickets: visitor.tickets.filter(
          (t) =>
            !inCart.has(t.ticketId) && (!replayedTickets.has(t.ticketId) || served.has(t.ticketId)),
        ),
      },
      at.today,
    );
    const refused = cart.tickets.some(
      (t) =>
        cartRules(
          [...others, ...cart.tickets.filter((o) => o.ticketId !== t.ticketId)],
          t,
          visitorLimits(rules),
        ).length > 0,
    );
    if (!refused) return;
    for (const t of mine) {
      const slot = slots.get(t.timeSlotId);
      if (!slot) continue;
      slot.state = evolveSlot(
        slot.state,
        TicketReleased.create({ ticketId: t.ticketId, reason: 'expired' }),
      );
      served.delete(t.ticketId);
      slot.whatIf.served -= 1;
      slot.whatIf.refused += 1;
    }
  };

  /** A request refused as full, decided again. */
  const refusal = (r: RecordedRefusal) => {
    const slot = slots.get(r.timeSlotId);
    if (!slot) return;
    slot.actual.refused += 1;
    request(r.timeSlotId, replayId(extra++), r.at, r.cartId);
  };

  /** One recorded event, decided again or folded. */
  const replayEntry = (entry: RecordedEntry) => {
    if (entry.stream === 'cart') {
      carts.set(
        entry.cartId,
        evolveTransaction(carts.get(entry.cartId) ?? initialTransaction, entry.event),
      );
      if (entry.event.type === 'TransactionBooked') book(entry.cartId, entry.at);
      return;
    }
    if (entry.stream === 'visitor') {
      visitors.set(
        entry.visitorKey,
        evolveVisitor(visitors.get(entry.visitorKey) ?? initialVisitor, entry.event),
      );
      return;
    }
    const slot = slots.get(entry.timeSlotId);
    if (!slot) return;
    const { event, at, byStaff } = entry;
    const apply = (e: SlotEvent) => {
      slot.state = evolveSlot(slot.state, e);
    };
    switch (event.type) {
      case 'TicketHeld':
        if (byStaff || offered.has(event.data.ticketId)) {
          // A staff booking, or the seat of a taken waitlist offer: decided without the seat rule.
          apply(
            holdChanged && !byStaff
              ? { ...event, data: { ...event.data, expiresAt: holdEnd(at.now, rules) } }
              : event,
          );
          served.add(event.data.ticketId);
          slot.whatIf.served += 1;
        } else request(entry.timeSlotId, event.data.ticketId, at, event.data.transactionId, event);
        break;
      case 'TicketHoldExtended':
        if (served.has(event.data.ticketId))
          apply(
            holdChanged
              ? { ...event, data: { ...event.data, expiresAt: holdEnd(at.now, rules) } }
              : event,
          );
        break;
      case 'TicketBooked': {
        const cartId = replayedTickets.get(event.data.ticketId);
        if (cartId !== undefined) book(cartId, at);
        if (!served.has(event.data.ticketId)) break;
        const held = slot.state.tickets[event.data.ticketId];
        // A hold that ended before the booking in the replay could not be booked.
        if (held?.expiresAt && new Date(held.expiresAt) <= at.now && !byStaff) {
          apply(TicketReleased.create({ ticketId: event.data.ticketId, reason: 'expired' }));
          served.delete(event.data.ticketId);
        } else apply(event);
        break;
      }
      case 'TicketReleased':
      case 'TicketCancelled':
      case 'TicketCheckedIn':
      case 'TicketCheckInUndone':
      case 'TicketNoShowReleased':
      case 'TicketConfirmed':
      case 'TicketConfirmationLapsed':
        if (served.has(event.data.ticketId)) apply(event);
        break;
      case 'WaitlistJoined': {
        // A join while carts could still take a seat is a reader who would have had one.
        const free = seatsForCarts(slotSeatsAt(slot.state, waitlistOn, at));
        if (free > 0) request(entry.timeSlotId, replayId(extra++), at);
        else slot.whatIf.waitlisted += 1;
        apply(event);
        break;
      }
      case 'SeatOfferTaken':
        offered.add(event.data.ticketId);
        apply(event);
        break;
      default:
        apply(event);
        if (change.capacity !== undefined && LIFECYCLE.has(event.type))
          slot.state = { ...slot.state, capacity: change.capacity };
    }
  };

  const refusals = history.refusals[Symbol.asyncIterator]();
  let next = await refusals.next();
  for await (const commit of history.log) {
    record(commit);
    for (const entry of commit) {
      while (!next.done && next.value.at.now < entry.at.now) {
        refusal(next.value);
        next = await refusals.next();
      }
      replayEntry(entry);
    }
  }
  for (; !next.done; next = await refusals.next()) refusal(next.value);
  return history.slotIds.map((id) => {
    const slot = slots.get(id)!;
    return {
      timeSlotId: id,
      date: slot.state.date,
      startTime: slot.state.startTime,
      actual: slot.actual,
      whatIf: slot.whatIf,
    };
  });
}

/** Sums the slots' outcomes. */
export function totalOf(slots: readonly SlotOutcome[], which: 'actual' | 'whatIf'): Outcome {
  return slots.reduce(
    (sum, s) => ({
      served: sum.served + s[which].served,
      refused: sum.refused + s[which].refused,
      waitlisted: sum.waitlisted + s[which].waitlisted,
    }),
    zero(),
  );
}
