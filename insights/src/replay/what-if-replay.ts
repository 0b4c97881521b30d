import {
  handlersFor,
  TicketReleased,
  timeSlotStream,
  type NewEvent,
  type SlotTicketEvent,
} from '@rr/events/catalogue';
import {
  bookedSeats,
  cartRules,
  decideReservation,
  emptyReservation,
  evolveSlot,
  evolveSlotWith,
  evolveTransaction,
  evolveVisitor,
  holdEnd,
  initialSlotState,
  initialTransaction,
  initialVisitor,
  Refused,
  seatsForCarts,
  slotSeatsAt,
  visitorLimits,
  type BookingLimits,
  type RoomState,
  type SlotEvent,
  type SlotState,
  type TransactionState,
  type VisitorState,
} from '@rr/domain';
import type {
  At,
  Outcome,
  RecordedCommit,
  RecordedEntry,
  RecordedRefusal,
  SlotOutcome,
  WhatIfChange,
  WhatIfHistory,
} from './what-if-types.ts';

/** The state of a what-if replay (what-if.ts) and its steps: the replay of one request or event. */

export const zero = (): Outcome => ({ served: 0, refused: 0, waitlisted: 0 });

/** An id for a request the log has no ticket for (a refused cart's, a join's), in uuid form. */
const replayId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

interface ReplayedSlot {
  state: SlotState;
  actual: Outcome;
  whatIf: Outcome;
}

type SlotEntry = Extract<RecordedEntry, { stream: 'slot' }>;

export class WhatIfReplay {
  private readonly rules: BookingLimits;
  private readonly holdChanged: boolean;
  private readonly perVisitor: boolean;
  private readonly anyDay: RoomState;
  private readonly waitlistOn: boolean;
  private readonly slots: Map<string, ReplayedSlot>;
  /** Tickets of the replayed slots the replay holds or booked. */
  private readonly served = new Set<string>();
  /** Every ticket the replayed slots' streams held, with its cart: the replay decides these. */
  private readonly replayedTickets = new Map<string, string>();
  /** Tickets of taken waitlist offers: their seat was the offer's, not a cart's request. */
  private readonly offered = new Set<string>();
  // The carts and visitors as recorded (their own folds), and whom each booked cart names.
  private readonly carts = new Map<string, TransactionState>();
  private readonly visitors = new Map<string, VisitorState>();
  private readonly bookingDecided = new Set<string>();
  /** Carts staff booked: staff book without the per-visitor limits. */
  private readonly staffCarts = new Set<string>();
  private extra = 0;
  /** The slot entry being replayed, and its slot (what the slot stream's handlers read). */
  private entry!: SlotEntry;
  private slot!: ReplayedSlot;

  constructor(
    private readonly history: Pick<WhatIfHistory, 'slotIds' | 'visitorOf'>,
    room: RoomState,
    limits: BookingLimits,
    private readonly change: WhatIfChange,
  ) {
    this.rules = {
      ...limits,
      holdMinutes: change.cartHoldMinutes ?? limits.holdMinutes,
      maxTicketsPerDay: change.maxTicketsPerDay ?? limits.maxTicketsPerDay,
      // The replay knows the visitors' other bookings from their events, which name no room:
      // it counts them across sites, whatever LIMITS_PER_SITE says (docs/product.md#insights).
      limitsPerSite: false,
    };
    this.holdChanged = change.cartHoldMinutes !== undefined;
    this.perVisitor = change.maxTicketsPerDay !== undefined;
    // Every recorded request is replayed with a window that holds its slot (it met the room's):
    // ten years of days, wider than any room's, and counted in one step (a bound in working days
    // walks them day by day, on every request).
    this.anyDay = {
      ...room,
      status: 'active',
      openStart: { type: 'DAY', value: 0 },
      openEnd: { type: 'DAY', value: 3660 },
    };
    this.waitlistOn = room.services.waitlistOfferMinutes !== null;
    this.slots = new Map(
      history.slotIds.map((id) => [
        id,
        { state: initialSlotState, actual: zero(), whatIf: zero() },
      ]),
    );
  }

  /**
   * What happened, and what the replay must know of a commit before deciding any of its events:
   * the tickets its slots' streams hold (with their carts) and whether staff held them.
   */
  record(commit: RecordedCommit): void {
    for (const e of commit) {
      if (e.stream !== 'slot') continue;
      const slot = this.slots.get(e.timeSlotId);
      if (!slot) continue;
      if (e.event.type === 'TicketHeld') {
        slot.actual.served += 1;
        this.replayedTickets.set(e.event.data.ticketId, e.event.data.transactionId);
        if (e.byStaff) this.staffCarts.add(e.event.data.transactionId);
      }
      if (e.event.type === 'WaitlistJoined') slot.actual.waitlisted += 1;
    }
  }

  /** The recorded cart as the replay left it: without the replayed tickets it does not hold. */
  private cartAsReplayed(cartId: string | undefined, except?: string): TransactionState {
    const cart = cartId === undefined ? undefined : this.carts.get(cartId);
    if (!cart) return initialTransaction;
    const tickets = cart.tickets.filter(
      (t) =>
        t.ticketId !== except &&
        (!this.replayedTickets.has(t.ticketId) || this.served.has(t.ticketId)),
    );
    // The replay decides the holds' ends itself: the cart is open while it holds anything.
    return { ...cart, status: tickets.length > 0 ? 'open' : 'none', expiresAt: null, tickets };
  }

  /** A cart's request for a seat: the cart decider decides it on the slot as the replay left it. */
  private request(
    timeSlotId: string,
    ticketId: string,
    at: At,
    cartId?: string,
    recorded?: SlotTicketEvent,
  ): void {
    const slot = this.slots.get(timeSlotId)!;
    try {
      const decision = decideReservation(
        {
          type: 'AddTicket',
          data: { transactionId: cartId ?? ticketId, ticketId, timeSlotId },
        },
        {
          ...emptyReservation,
          cart: this.perVisitor ? this.cartAsReplayed(cartId, ticketId) : initialTransaction,
          slots: new Map([[timeSlotId, slot.state]]),
          rooms: new Map([[slot.state.roomId, this.anyDay]]),
        },
        { ...at, limits: this.rules },
      );
      // With the recorded hold time, the recorded hold (its exact expiry) is folded; a cart's
      // other holds are renewed by their own recorded events.
      const events =
        recorded && !this.holdChanged ? [recorded] : (decision.slots.get(timeSlotId) ?? []);
      slot.state = evolveSlotWith(slot.state, events);
      this.served.add(ticketId);
      slot.whatIf.served += 1;
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      slot.whatIf.refused += 1;
    }
  }

  /**
   * A cart's booking (once, at the first of its recorded events): the per-visitor limits as a
   * booking meets them, with the visitor's other bookings as the replay left them. Refused, every
   * replayed seat of the cart is free again and its request counts refused, not served.
   */
  private book(cartId: string, at: At): void {
    if (!this.perVisitor || this.staffCarts.has(cartId) || this.bookingDecided.has(cartId)) return;
    this.bookingDecided.add(cartId);
    const cart = this.cartAsReplayed(cartId);
    const mine = cart.tickets.filter((t) => this.replayedTickets.has(t.ticketId));
    if (mine.length === 0) return;
    const key = this.history.visitorOf.get(cartId);
    const visitor = (key === undefined ? undefined : this.visitors.get(key)) ?? initialVisitor;
    const inCart = new Set((this.carts.get(cartId)?.tickets ?? []).map((t) => t.ticketId));
    const others = bookedSeats(
      {
        ...visitor,
        tickets: visitor.tickets.filter(
          (t) =>
            !inCart.has(t.ticketId) &&
            (!this.replayedTickets.has(t.ticketId) || this.served.has(t.ticketId)),
        ),
      },
      at.today,
    );
    const refused = cart.tickets.some(
      (t) =>
        cartRules(
          [...others, ...cart.tickets.filter((o) => o.ticketId !== t.ticketId)],
          t,
          visitorLimits(this.rules),
        ).length > 0,
    );
    if (!refused) return;
    for (const t of mine) {
      const slot = this.slots.get(t.timeSlotId);
      if (!slot) continue;
      slot.state = evolveSlot(
        slot.state,
        TicketReleased.create({ ticketId: t.ticketId, reason: 'expired' }),
      );
      this.served.delete(t.ticketId);
      slot.whatIf.served -= 1;
      slot.whatIf.refused += 1;
    }
  }

  /** A request refused as full, decided again. */
  refusal(r: RecordedRefusal): void {
    const slot = this.slots.get(r.timeSlotId);
    if (!slot) return;
    slot.actual.refused += 1;
    this.request(r.timeSlotId, replayId(this.extra++), r.at, r.cartId);
  }

  /** One recorded event, decided again or folded. */
  replayEntry(entry: RecordedEntry): void {
    if (entry.stream === 'cart') {
      this.carts.set(
        entry.cartId,
        evolveTransaction(this.carts.get(entry.cartId) ?? initialTransaction, entry.event),
      );
      if (entry.event.type === 'TransactionBooked') this.book(entry.cartId, entry.at);
      return;
    }
    if (entry.stream === 'visitor') {
      this.visitors.set(
        entry.visitorKey,
        evolveVisitor(this.visitors.get(entry.visitorKey) ?? initialVisitor, entry.event),
      );
      return;
    }
    const slot = this.slots.get(entry.timeSlotId);
    if (!slot) return;
    this.entry = entry;
    this.slot = slot;
    slotEvents.handle(entry.event, this);
  }

  /** Each slot's recorded and replayed outcome, in the order of the history's slots. */
  outcomes(): SlotOutcome[] {
    return this.history.slotIds.map((id) => {
      const slot = this.slots.get(id)!;
      return {
        timeSlotId: id,
        date: slot.state.date,
        startTime: slot.state.startTime,
        actual: slot.actual,
        whatIf: slot.whatIf,
      };
    });
  }

  // --- the slot stream's events, each decided again or folded (slotEvents) ----------------------

  /** Folds the event into the slot as the replay has it. */
  fold(e: SlotEvent): void {
    this.slot.state = evolveSlot(this.slot.state, e);
  }

  /** A slot created or changed: with a changed capacity, every slot has it. */
  lifecycle(e: SlotEvent): void {
    this.fold(e);
    if (this.change.capacity !== undefined)
      this.slot.state = { ...this.slot.state, capacity: this.change.capacity };
  }

  held(e: Extract<SlotTicketEvent, { type: 'TicketHeld' }>): void {
    const { at, byStaff, timeSlotId } = this.entry;
    if (!byStaff && !this.offered.has(e.data.ticketId))
      return this.request(timeSlotId, e.data.ticketId, at, e.data.transactionId, e);
    // A staff booking, or the seat of a taken waitlist offer: decided without the seat rule.
    this.fold(
      this.holdChanged && !byStaff
        ? { ...e, data: { ...e.data, expiresAt: holdEnd(at.now, this.rules) } }
        : e,
    );
    this.served.add(e.data.ticketId);
    this.slot.whatIf.served += 1;
  }

  holdExtended(e: Extract<SlotTicketEvent, { type: 'TicketHoldExtended' }>): void {
    if (!this.served.has(e.data.ticketId)) return;
    this.fold(
      this.holdChanged
        ? { ...e, data: { ...e.data, expiresAt: holdEnd(this.entry.at.now, this.rules) } }
        : e,
    );
  }

  booked(e: Extract<SlotTicketEvent, { type: 'TicketBooked' }>): void {
    const { at, byStaff } = this.entry;
    const cartId = this.replayedTickets.get(e.data.ticketId);
    if (cartId !== undefined) this.book(cartId, at);
    if (!this.served.has(e.data.ticketId)) return;
    const held = this.slot.state.tickets.get(e.data.ticketId);
    // A hold that ended before the booking in the replay could not be booked.
    if (held?.expiresAt && new Date(held.expiresAt) <= at.now && !byStaff) {
      this.fold(TicketReleased.create({ ticketId: e.data.ticketId, reason: 'expired' }));
      this.served.delete(e.data.ticketId);
    } else this.fold(e);
  }

  /** A change of a ticket: the replay's own tickets only. */
  ticketChanged(e: SlotTicketEvent): void {
    if (this.served.has(e.data.ticketId)) this.fold(e);
  }

  /** A join while carts could still take a seat is a reader who would have had one. */
  joined(e: SlotEvent): void {
    const { at, timeSlotId } = this.entry;
    const free = seatsForCarts(slotSeatsAt(this.slot.state, this.waitlistOn, at));
    if (free > 0) this.request(timeSlotId, replayId(this.extra++), at);
    else this.slot.whatIf.waitlisted += 1;
    this.fold(e);
  }

  offerTaken(e: Extract<SlotEvent, { type: 'SeatOfferTaken' }>): void {
    this.offered.add(e.data.ticketId);
    this.fold(e);
  }
}

const fold = (e: SlotEvent, r: WhatIfReplay) => r.fold(e);
const ticketChanged = (e: SlotTicketEvent, r: WhatIfReplay) => r.ticketChanged(e);

/** Every event type of a slot's stream, decided again or folded. */
const slotEvents = handlersFor(timeSlotStream).with<WhatIfReplay, void, NewEvent>({
  TimeSlotCreated: (e, r) => r.lifecycle(e),
  TimeSlotUpdated: (e, r) => r.lifecycle(e),
  TimeSlotCapacityChanged: (e, r) => r.lifecycle(e),
  TimeSlotSeatsChosen: fold,
  TimeSlotDeleted: fold,
  TimeSlotClosed: fold,
  TicketHeld: (e, r) => r.held(e),
  TicketHoldExtended: (e, r) => r.holdExtended(e),
  TicketReleased: ticketChanged,
  TicketBooked: (e, r) => r.booked(e),
  TicketCancelled: ticketChanged,
  TicketCheckedIn: ticketChanged,
  TicketCheckInUndone: ticketChanged,
  TicketSeatChanged: fold,
  TicketNoShowReleased: ticketChanged,
  TicketConfirmed: ticketChanged,
  TicketConfirmationLapsed: ticketChanged,
  WaitlistJoined: (e, r) => r.joined(e),
  SeatOffered: fold,
  SeatOfferLapsed: fold,
  SeatOfferTaken: (e, r) => r.offerTaken(e),
  WaitlistEntryErased: fold,
  WaitlistLeft: fold,
  WaitlistEntryRemovedByStaff: fold,
  WaitlistEntryPassedOver: fold,
  WaitlistEntryBackInLine: fold,
});
