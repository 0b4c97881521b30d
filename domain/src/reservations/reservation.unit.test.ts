import { describe, expect, it } from 'vitest';
import {
  BlacklistEntryAdded,
  BlacklistEntryRemoved,
  OwnerDataChanged,
  PersonalDataErased,
  RoomCreated,
  RoomDeleted,
  RoomServicesChanged,
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketCheckedIn,
  TicketHeld,
  TicketHoldExtended,
  TicketReleased,
  TicketRemovedFromTransaction,
  TimeSlotCreated,
  TimeSlotClosed,
  TimeSlotDeleted,
  TransactionBooked,
  TransactionExpired,
  TransactionRemoved,
  TransactionStarted,
  TransactionTouched,
  VisitorTicketCancelled,
  VisitorTicketsBooked,
  type OpenBound,
  type SlotTicketEvent,
  type TransactionEvent,
  type VisitorEvent,
} from '@rr/events/catalogue';
import { addDays, localDateTime, weekdayOf } from '../calendar.ts';
import type { BookingLimits } from '../limits.ts';
import { history, scenario } from '../testing/given-when-then.ts';
import { evolveBlacklist, initialBlacklistState } from '../blacklist/blacklist-entry.ts';
import { evolveRoom, initialRoomState, type RoomState } from '../rooms/room.ts';
import {
  evolveSlot,
  initialSlotState,
  type SlotEvent,
  type SlotState,
} from '../time-slots/time-slot.ts';
import { seatsTaken } from '../seats.ts';
import { decideOwner } from '../owner/owner.ts';
import {
  evolveTransaction,
  evolveVisitor,
  initialTransaction,
  initialVisitor,
  type TransactionState,
} from './cart.ts';
import {
  decideReservation,
  emptyReservation,
  isCancelable,
  type ReservationCommand,
  type ReservationContext,
  type ReservationDecision,
  type ReservationState,
} from './reservation.ts';

// --- the time: one fixed instant, everything else derived from it ----------------------------

/** Monday 23 November 2026, 10:00 in Vienna: the instant every decision here is made at. */
const NOW = new Date('2026-11-23T09:00:00Z');
const local = localDateTime(NOW, 'Europe/Vienna');
const TODAY = local.date;
/** The instant `minutes` after NOW, as the events write it. */
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
/** A day `n` days after today. */
const day = (n: number) => addDays(TODAY, n);

const limits: BookingLimits = {
  holdMinutes: 15,
  maxCartTickets: 5,
  maxTicketsPerDay: 2,
  maxTicketsPerVisitor: 10,
};
const context: ReservationContext = { now: NOW, today: TODAY, time: local.time, limits };
const reservation = scenario(decideReservation, context);
/**
 * A reservation's state as the command side loads it for a booking or a move: every person rule's
 * state is there (no no-show releases unless a test adds them).
 */
const booking: ReservationState = { ...emptyReservation, noShows: [] };

// --- the streams: rooms, slots, the cart, the visitor -----------------------------------------

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ROOM = '0b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const OTHER_ROOM = '2b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const TX = '1b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const OWNER = 'a'.repeat(32);
const KEY = 'b'.repeat(40);

const roomOpen = (
  openStart: OpenBound = { type: 'DAY', value: 0 },
  openEnd: OpenBound = { type: 'DAY', value: 60 },
  roomId = ROOM,
): RoomState =>
  history(
    evolveRoom,
    initialRoomState,
    RoomCreated.create({
      roomId,
      name: 'Reading room',
      description: 'Quiet desks',
      capacity: 10,
      openStart,
      openEnd,
    }),
  );
const rooms = new Map([[ROOM, roomOpen()]]);

/** A slot is named by its day (days after today) and start hour: its id and the state of its stream. */
interface Slot {
  id: string;
  state: SlotState;
}
function slot(
  dayN: number,
  startTime: string,
  endTime: string,
  capacity: number,
  ...events: SlotEvent[]
): Slot {
  const timeSlotId = id(dayN * 100 + Number(startTime.slice(0, 2)));
  const created = TimeSlotCreated.create({
    timeSlotId,
    roomId: ROOM,
    date: day(dayN),
    startTime,
    endTime,
    capacity,
  });
  return { id: timeSlotId, state: history(evolveSlot, initialSlotState, created, ...events) };
}
const heldFor = (s: Slot, ticket: number, expiresAt: string, tx = id(900)) =>
  TicketHeld.create({ ticketId: id(ticket), timeSlotId: s.id, transactionId: tx, expiresAt });
/** Another visitor's hold and booking of a seat. */
const bookedFor = (s: Slot, ticket: number, ownerId = 'c'.repeat(32)) => [
  heldFor(s, ticket, at(-60)),
  TicketBooked.create({ ticketId: id(ticket), ownerId }),
];
const slotMap = (...slots: Slot[]) => new Map(slots.map((s) => [s.id, s.state]));

const cartTicket = (s: Slot, ticket: number) => ({
  ticketId: id(ticket),
  timeSlotId: s.id,
  roomId: s.state.roomId,
  date: s.state.date,
  startTime: s.state.startTime,
  endTime: s.state.endTime,
});

/**
 * A cart started at NOW holding a ticket (100, 101, ...) of each slot, and the slots holding them
 * until NOW + the hold: the state the first adds leave.
 */
function cartHolding(...slots: Slot[]): { cart: TransactionState; slots: Map<string, SlotState> } {
  const expiresAt = at(limits.holdMinutes);
  const cart = history(
    evolveTransaction,
    initialTransaction,
    TransactionStarted.create({ transactionId: TX, expiresAt }),
    ...slots.map((s, i) =>
      TicketAddedToTransaction.create({ ...cartTicket(s, 100 + i), expiresAt }),
    ),
  );
  const held = slots.map((s, i) => ({
    ...s,
    state: evolveSlot(s.state, heldFor(s, 100 + i, expiresAt, TX)),
  }));
  return { cart, slots: slotMap(...held) };
}

/** The state after a decision: its events folded into the cart, the slots and the visitor. */
function after(state: ReservationState, d: ReservationDecision): ReservationState {
  const slots = new Map(state.slots);
  for (const [slotId, events] of d.slots)
    slots.set(
      slotId,
      history(evolveSlot, slots.get(slotId) ?? initialSlotState, ...(events as SlotEvent[])),
    );
  return {
    ...state,
    cart: history(evolveTransaction, state.cart, ...d.transaction),
    slots,
    visitor: history(evolveVisitor, state.visitor, ...d.visitor),
  };
}

const decision = (
  transaction: TransactionEvent[],
  slots: [string, SlotTicketEvent[]][] = [],
  visitor: VisitorEvent[] = [],
): ReservationDecision => ({ transaction, slots: new Map(slots), visitor });

const addTicket = (s: Slot | string, ticket: number): ReservationCommand => ({
  type: 'AddTicket',
  data: { transactionId: TX, ticketId: id(ticket), timeSlotId: typeof s === 'string' ? s : s.id },
});
const book = {
  type: 'BookCart',
  data: { ownerId: OWNER, bookingNumber: 'R-ABCDEF', visitorKey: KEY, language: 'de' },
} as const satisfies ReservationCommand;

// --- AddTicket --------------------------------------------------------------------------------

describe('AddTicket', () => {
  const s = slot(8, '09:00', '10:00', 2);

  it('starts the cart with its first ticket and holds the seat for the hold period', () => {
    const expiresAt = at(15);
    reservation
      .given({ ...booking, rooms, slots: slotMap(s) })
      .when(addTicket(s, 1))
      .then(
        decision(
          [
            TransactionStarted.create({ transactionId: TX, expiresAt }),
            TicketAddedToTransaction.create({ ...cartTicket(s, 1), expiresAt }),
          ],
          [
            [
              s.id,
              [
                TicketHeld.create({
                  ticketId: id(1),
                  timeSlotId: s.id,
                  transactionId: TX,
                  expiresAt,
                }),
              ],
            ],
          ],
        ),
      );
  });

  it('adds to an open cart and extends every earlier hold to the new expiry', () => {
    const next = slot(9, '09:00', '10:00', 2);
    const { cart, slots } = cartHolding(s);
    const expiresAt = at(5 + 15);
    reservation
      .given({ ...booking, rooms, cart, slots: new Map([...slots, ...slotMap(next)]) })
      .when(addTicket(next, 1), { now: later(5) })
      .then(
        decision(
          [TicketAddedToTransaction.create({ ...cartTicket(next, 1), expiresAt })],
          [
            [
              next.id,
              [
                TicketHeld.create({
                  ticketId: id(1),
                  timeSlotId: next.id,
                  transactionId: TX,
                  expiresAt,
                }),
              ],
            ],
            [s.id, [TicketHoldExtended.create({ ticketId: id(100), expiresAt })]],
          ],
        ),
      );
  });

  it('refuses a full slot, counting bookings and unexpired holds (timeslot_no_tickets_left)', () => {
    const full = slot(8, '09:00', '10:00', 2, ...bookedFor(s, 1), heldFor(s, 2, at(1)));
    reservation
      .given({ ...booking, rooms, slots: slotMap(full) })
      .when(addTicket(full, 3))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_no_tickets_left' });
  });

  it('does not count expired holds (one expiring right now included), released or cancelled tickets', () => {
    const free = slot(
      8,
      '09:00',
      '10:00',
      2,
      ...bookedFor(s, 1),
      heldFor(s, 2, at(0)),
      heldFor(s, 3, at(10)),
      TicketReleased.create({ ticketId: id(3), reason: 'removed' }),
      ...bookedFor(s, 4),
      TicketCancelled.create({ ticketId: id(4), ownerId: 'c'.repeat(32) }),
    );
    reservation
      .given({ ...booking, rooms, slots: slotMap(free) })
      .when(addTicket(free, 5))
      .then((d) => expect(d.slots.get(free.id)?.map((e) => e.type)).toEqual(['TicketHeld']));
  });

  it('refuses a slot without capacity (timeslot_not_open)', () => {
    const none = slot(8, '09:00', '10:00', 0);
    reservation
      .given({ ...booking, rooms, slots: slotMap(none) })
      .when(addTicket(none, 1))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
  });

  it('refuses a slot staff closed (timeslot_not_open)', () => {
    const closed = {
      ...s,
      state: evolveSlot(
        s.state,
        TimeSlotClosed.create({
          timeSlotId: s.id,
          roomId: ROOM,
          closureId: id(4343),
          reason: 'Wasserschaden',
        }),
      ),
    };
    reservation
      .given({ ...booking, rooms, slots: slotMap(closed) })
      .when(addTicket(closed, 1))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
  });

  it('refuses an unknown or deleted slot (not_found)', () => {
    reservation
      .given({ ...booking, rooms, slots: slotMap(s) })
      .when(addTicket(id(4242), 1))
      .thenRefused('not_found');
    const deleted = {
      ...s,
      state: evolveSlot(s.state, TimeSlotDeleted.create({ timeSlotId: s.id, roomId: ROOM })),
    };
    reservation
      .given({ ...booking, rooms, slots: slotMap(deleted) })
      .when(addTicket(deleted, 1))
      .thenRefused('not_found');
  });
});

describe('AddTicket: the booking window of the slot room', () => {
  /** Open from the day after tomorrow until 30 days from today. */
  const window = new Map([[ROOM, roomOpen({ type: 'DAY', value: 2 }, { type: 'DAY', value: 30 })]]);
  const addOn = (dayN: number, over: Partial<ReservationState> = {}) => {
    const s = slot(dayN, '09:00', '10:00', 5);
    return reservation
      .given({ ...booking, rooms: window, slots: slotMap(s), ...over })
      .when(addTicket(s, 1));
  };

  it('refuses a slot before or after the window (timeslot_not_open)', () => {
    for (const dayN of [0, 1, 31])
      addOn(dayN).thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
  });

  it('takes a slot on the first and the last day of the window', () => {
    for (const dayN of [2, 30])
      addOn(dayN).then((d) =>
        expect(d.transaction.map((e) => e.type)).toContain('TicketAddedToTransaction'),
      );
  });

  it('counts WORKING_DAY bounds in working days, skipping the week-end and holidays', () => {
    expect(weekdayOf(TODAY)).toBe('MONDAY');
    // From the next working day (Tuesday) to the fifth: Tuesday to Friday, then next Monday.
    const workingDays = new Map([
      [ROOM, roomOpen({ type: 'WORKING_DAY', value: 1 }, { type: 'WORKING_DAY', value: 5 })],
    ]);
    const opens = (d: ReservationDecision) =>
      expect(d.transaction.map((e) => e.type)).toContain('TicketAddedToTransaction');
    addOn(0, { rooms: workingDays }).thenRefused('ticket__validation_error', {
      rule: 'timeslot_not_open',
    });
    addOn(1, { rooms: workingDays }).then(opens);
    addOn(7, { rooms: workingDays }).then(opens);
    addOn(8, { rooms: workingDays }).thenRefused('ticket__validation_error', {
      rule: 'timeslot_not_open',
    });
    // Wednesday a holiday: the fifth working day is next Tuesday
    addOn(8, { rooms: workingDays, holidays: new Map([[ROOM, new Set([day(2)])]]) }).then(opens);
    // a holiday after the window's end changes nothing
    addOn(8, { rooms: workingDays, holidays: new Map([[ROOM, new Set([day(9)])]]) }).thenRefused(
      'ticket__validation_error',
      { rule: 'timeslot_not_open' },
    );
  });

  it('refuses a slot whose room is unknown or deleted (timeslot_not_open)', () => {
    const deleted = history(evolveRoom, roomOpen(), RoomDeleted.create({ roomId: ROOM }));
    const otherRoomOnly = new Map([[OTHER_ROOM, roomOpen(undefined, undefined, OTHER_ROOM)]]);
    for (const known of [new Map<string, RoomState>(), otherRoomOnly, new Map([[ROOM, deleted]])])
      addOn(5, { rooms: known }).thenRefused('ticket__validation_error', {
        rule: 'timeslot_not_open',
      });
  });
});

describe('AddTicket: the cart rules', () => {
  /** Adds the slots one after the other, each decision folded into the state. */
  function adding(state: ReservationState, ...slots: Slot[]): ReservationState {
    let s: ReservationState = { ...state, slots: new Map([...state.slots, ...slotMap(...slots)]) };
    for (const [i, next] of slots.entries())
      s = after(s, decideReservation(addTicket(next, 10 + i), s, context));
    return s;
  }
  const start = { ...booking, rooms };

  it('refuses the same slot twice and a slot overlapping a ticket of the cart', () => {
    const a = slot(8, '09:00', '11:00', 5);
    const given = adding(start, a);
    reservation
      .given(given)
      .when(addTicket(a, 2))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_already_in_transaction' });
    const overlapping = slot(8, '10:00', '12:00', 5);
    reservation
      .given({ ...given, slots: new Map([...given.slots, ...slotMap(overlapping)]) })
      .when(addTicket(overlapping, 2))
      .thenRefused('ticket__validation_error', { rule: 'max_tickets_per_time_reached' });
  });

  it(`refuses a ticket beyond the cart's ${limits.maxCartTickets} (touching ends and other days are fine)`, () => {
    const given = adding(
      start,
      slot(8, '09:00', '11:00', 5),
      slot(8, '11:00', '12:00', 5),
      slot(9, '09:00', '11:00', 5),
      slot(10, '09:00', '11:00', 5),
      slot(11, '09:00', '11:00', 5),
    );
    expect(given.cart.tickets).toHaveLength(5);
    const sixth = slot(14, '09:00', '11:00', 5);
    reservation
      .given({ ...given, slots: new Map([...given.slots, ...slotMap(sixth)]) })
      .when(addTicket(sixth, 9))
      .thenRefused('ticket__validation_error', { rule: 'max_tickets_per_transaction_reached' });
  });

  it('refuses a ticket beyond the per-day maximum, naming the day and the maximum, and any ticket of a cart at the per-visitor maximum', () => {
    const few = { ...limits, maxCartTickets: 3, maxTicketsPerDay: 1 };
    const first = slot(8, '09:00', '10:00', 5);
    const one = after(
      { ...start, slots: slotMap(first) },
      decideReservation(
        addTicket(first, 1),
        { ...start, slots: slotMap(first) },
        { ...context, limits: few },
      ),
    );
    const sameDay = slot(8, '14:00', '15:00', 5);
    reservation
      .given({ ...one, slots: new Map([...one.slots, ...slotMap(sameDay)]) })
      .when(addTicket(sameDay, 2), { limits: few })
      .thenRefused('ticket__validation_error', {
        rule: 'max_tickets_per_day_reached',
        date: day(8),
        maxTicketsPerDay: 1,
      });
    const otherDay = slot(9, '09:00', '10:00', 5);
    reservation
      .given({ ...one, slots: new Map([...one.slots, ...slotMap(otherDay)]) })
      .when(addTicket(otherDay, 2), { limits: { ...few, maxTicketsPerVisitor: 1 } })
      .thenRefused('ticket__validation_error', { rule: 'max_tickets_by_user_reached' });
  });

  it('refuses any add to an expired, booked or removed cart', () => {
    const next = slot(9, '09:00', '10:00', 5);
    const { cart, slots } = cartHolding(slot(8, '09:00', '10:00', 5));
    const given = { ...start, cart, slots: new Map([...slots, ...slotMap(next)]) };
    reservation
      .given(given)
      .when(addTicket(next, 2), { now: later(15) })
      .thenRefused('transaction__expired');
    const expired = evolveTransaction(cart, TransactionExpired.create({ transactionId: TX }));
    reservation
      .given({ ...given, cart: expired })
      .when(addTicket(next, 2))
      .thenRefused('transaction__expired');
    const booked = evolveTransaction(
      cart,
      TransactionBooked.create({ transactionId: TX, ...book.data, ticketIds: [id(100)] }),
    );
    reservation
      .given({ ...given, cart: booked })
      .when(addTicket(next, 2))
      .thenRefused('transaction__already_booked');
    const removed = evolveTransaction(cart, TransactionRemoved.create({ transactionId: TX }));
    reservation
      .given({ ...given, cart: removed })
      .when(addTicket(next, 2))
      .thenRefused('not_found');
  });
});

// --- the cart's upkeep ------------------------------------------------------------------------

describe('RemoveTicket, TouchCart, RemoveCart, ExpireCart', () => {
  const a = slot(8, '09:00', '10:00', 5);
  const b = slot(9, '09:00', '10:00', 5);
  const { cart, slots } = cartHolding(a, b);
  const open: ReservationState = { ...booking, rooms, cart, slots };
  const withCart = (c: TransactionState): ReservationState => ({ ...open, cart: c });
  const expired = evolveTransaction(cart, TransactionExpired.create({ transactionId: TX }));
  const booked = evolveTransaction(
    cart,
    TransactionBooked.create({ transactionId: TX, ...book.data, ticketIds: [id(100), id(101)] }),
  );
  const removed = evolveTransaction(cart, TransactionRemoved.create({ transactionId: TX }));

  it('RemoveTicket takes the ticket out of the cart and releases its seat', () => {
    reservation
      .given(open)
      .when({ type: 'RemoveTicket', data: { ticketId: id(100) } })
      .then(
        decision(
          [TicketRemovedFromTransaction.create({ ticketId: id(100) })],
          [[a.id, [TicketReleased.create({ ticketId: id(100), reason: 'removed' })]]],
        ),
      );
  });

  it('RemoveTicket refuses a ticket not in the cart, a missing cart, an expired one', () => {
    reservation
      .given(open)
      .when({ type: 'RemoveTicket', data: { ticketId: id(7) } })
      .thenRefused('not_found');
    reservation
      .given(emptyReservation)
      .when({ type: 'RemoveTicket', data: { ticketId: id(100) } })
      .thenRefused('not_found');
    reservation
      .given(open)
      .when({ type: 'RemoveTicket', data: { ticketId: id(100) } }, { now: later(15) })
      .thenRefused('transaction__expired');
    reservation
      .given(withCart(booked))
      .when({ type: 'RemoveTicket', data: { ticketId: id(100) } })
      .thenRefused('transaction__already_booked');
  });

  it('TouchCart moves the expiry of the cart and of every hold', () => {
    const expiresAt = at(1 + 15);
    reservation
      .given(open)
      .when({ type: 'TouchCart' }, { now: later(1) })
      .then(
        decision(
          [TransactionTouched.create({ expiresAt })],
          [
            [a.id, [TicketHoldExtended.create({ ticketId: id(100), expiresAt })]],
            [b.id, [TicketHoldExtended.create({ ticketId: id(101), expiresAt })]],
          ],
        ),
      );
  });

  it('TouchCart keeps an expired cart expired', () => {
    reservation
      .given(open)
      .when({ type: 'TouchCart' }, { now: later(15) })
      .thenRefused('transaction__expired');
    reservation
      .given(withCart(expired))
      .when({ type: 'TouchCart' })
      .thenRefused('transaction__expired');
    reservation
      .given(withCart(booked))
      .when({ type: 'TouchCart' })
      .thenRefused('transaction__already_booked');
    reservation.given(emptyReservation).when({ type: 'TouchCart' }).thenRefused('not_found');
  });

  it('RemoveCart removes an open cart and releases every hold at once', () => {
    reservation
      .given(open)
      .when({ type: 'RemoveCart' })
      .then(
        decision(
          [TransactionRemoved.create({ transactionId: TX })],
          [
            [a.id, [TicketReleased.create({ ticketId: id(100), reason: 'transaction_removed' })]],
            [b.id, [TicketReleased.create({ ticketId: id(101), reason: 'transaction_removed' })]],
          ],
        ),
      );
  });

  it('RemoveCart removes an expired cart without releasing again', () => {
    reservation
      .given(withCart(expired))
      .when({ type: 'RemoveCart' })
      .then(decision([TransactionRemoved.create({ transactionId: TX })]));
  });

  it('RemoveCart refuses a booked, a removed or a missing cart', () => {
    reservation
      .given(withCart(booked))
      .when({ type: 'RemoveCart' })
      .thenRefused('transaction__already_booked');
    reservation.given(withCart(removed)).when({ type: 'RemoveCart' }).thenRefused('not_found');
    reservation.given(emptyReservation).when({ type: 'RemoveCart' }).thenRefused('not_found');
  });

  it('ExpireCart expires an open cart once its time has passed, releasing its holds', () => {
    reservation
      .given(open)
      .when({ type: 'ExpireCart' }, { now: later(14) })
      .then(decision([]));
    reservation
      .given(open)
      .when({ type: 'ExpireCart' }, { now: later(15) })
      .then(
        decision(
          [TransactionExpired.create({ transactionId: TX })],
          [
            [a.id, [TicketReleased.create({ ticketId: id(100), reason: 'expired' })]],
            [b.id, [TicketReleased.create({ ticketId: id(101), reason: 'expired' })]],
          ],
        ),
      );
  });

  it('ExpireCart leaves an expired, booked, removed or missing cart alone', () => {
    for (const c of [expired, booked, removed, initialTransaction])
      reservation
        .given(withCart(c))
        .when({ type: 'ExpireCart' }, { now: later(60) })
        .then(decision([]));
  });
});

// --- BookCart ---------------------------------------------------------------------------------

describe('BookCart', () => {
  const visitorWith = (...tickets: [number, string, string][]) =>
    history(
      evolveVisitor,
      initialVisitor,
      ...tickets.map(([dayN, startTime, endTime], i) =>
        VisitorTicketsBooked.create({
          ownerId: 'd'.repeat(32),
          tickets: [{ ticketId: id(500 + i), date: day(dayN), startTime, endTime }],
        }),
      ),
    );
  const holding = (...slots: Slot[]): ReservationState => ({
    ...booking,
    rooms,
    ...cartHolding(...slots),
  });

  it('books every ticket of the cart for the owner: on the cart, each slot and the visitor stream', () => {
    const a = slot(8, '09:00', '10:00', 5);
    const b = slot(9, '14:00', '15:00', 5);
    reservation
      .given(holding(a, b))
      .when(book)
      .then(
        decision(
          [
            TransactionBooked.create({
              transactionId: TX,
              ...book.data,
              ticketIds: [id(100), id(101)],
            }),
          ],
          [
            [a.id, [TicketBooked.create({ ticketId: id(100), ownerId: OWNER })]],
            [b.id, [TicketBooked.create({ ticketId: id(101), ownerId: OWNER })]],
          ],
          [
            VisitorTicketsBooked.create({
              ownerId: OWNER,
              tickets: [
                { ticketId: id(100), date: day(8), startTime: '09:00', endTime: '10:00' },
                { ticketId: id(101), date: day(9), startTime: '14:00', endTime: '15:00' },
              ],
            }),
          ],
        ),
      );
  });

  it('decides on the slot as it is now: a closed slot or one whose capacity was lowered below the hold is not booked', () => {
    const a = slot(8, '09:00', '10:00', 5);
    const given = holding(a);
    const closed = evolveSlot(
      given.slots.get(a.id)!,
      TimeSlotClosed.create({
        timeSlotId: a.id,
        roomId: ROOM,
        closureId: id(700),
        reason: 'Stromausfall',
      }),
    );
    reservation
      .given({ ...given, slots: new Map([[a.id, closed]]) })
      .when(book)
      .thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
    // One seat, taken by a booking made before the hold (the capacity was lowered since).
    const lowered = slot(9, '09:00', '10:00', 1, ...bookedFor(slot(9, '09:00', '10:00', 1), 1));
    reservation
      .given(holding(lowered))
      .when(book)
      .thenRefused('ticket__validation_error', { rule: 'timeslot_no_tickets_left' });
    // A staff booking beyond the capacity after the hold leaves the hold its seat.
    const full = slot(10, '09:00', '10:00', 1);
    const held = holding(full);
    const overbooked = history(
      evolveSlot,
      held.slots.get(full.id)!,
      ...(bookedFor(full, 2) as SlotEvent[]),
    );
    reservation
      .given({ ...held, slots: new Map([[full.id, overbooked]]) })
      .when(book)
      .then((d) => expect(d.transaction).toHaveLength(1));
  });

  it('refuses more than the maximum per day, naming the day and the maximum, counting earlier bookings of the visitor but not cancelled ones', () => {
    const given = holding(slot(8, '09:00', '10:00', 5), slot(8, '11:00', '12:00', 5));
    reservation
      .given(given)
      .when(book)
      .then((d) => expect(d.transaction).toHaveLength(1));
    const earlier = visitorWith([8, '14:00', '15:00']);
    reservation
      .given({ ...given, visitor: earlier })
      .when(book)
      .thenRefused('ticket__validation_error', {
        rule: 'max_tickets_per_day_reached',
        date: day(8),
        maxTicketsPerDay: 2,
      });
    const cancelled = evolveVisitor(earlier, VisitorTicketCancelled.create({ ticketId: id(500) }));
    reservation
      .given({ ...given, visitor: cancelled })
      .when(book)
      .then((d) => expect(d.transaction).toHaveLength(1));
  });

  it('refuses more than the maximum in total, counting bookings from today on only', () => {
    const given = holding(slot(8, '09:00', '10:00', 5));
    const ten = (from: number) =>
      visitorWith(
        ...Array.from(
          { length: 10 },
          (_, i) => [from + i, '12:00', '13:00'] as [number, string, string],
        ),
      );
    reservation
      .given({ ...given, visitor: ten(9) })
      .when(book)
      .thenRefused('ticket__validation_error', { rule: 'max_tickets_by_user_reached' });
    // today counts, yesterday does not
    reservation
      .given({ ...given, visitor: ten(0) })
      .when(book)
      .thenRefused('ticket__validation_error', { rule: 'max_tickets_by_user_reached' });
    reservation
      .given({ ...given, visitor: ten(-1) })
      .when(book)
      .then((d) => expect(d.transaction).toHaveLength(1));
  });

  it('refuses a ticket overlapping an earlier booking of the visitor', () => {
    const given = holding(slot(8, '09:00', '10:00', 5));
    reservation
      .given({ ...given, visitor: visitorWith([8, '09:30', '11:00']) })
      .when(book)
      .thenRefused('ticket__validation_error', { rule: 'max_tickets_per_time_reached' });
    // touching ends do not overlap
    reservation
      .given({ ...given, visitor: visitorWith([8, '10:00', '11:00']) })
      .when(book)
      .then((d) => expect(d.transaction).toHaveLength(1));
  });

  it('refuses a visitor whose blacklist entry blocks today (its expiry day included)', () => {
    const given = holding(slot(8, '09:00', '10:00', 5));
    for (const expiredAt of [TODAY, day(30)]) {
      const blacklist = history(
        evolveBlacklist,
        initialBlacklistState,
        BlacklistEntryAdded.create({ entryKey: KEY, expiredAt }),
      );
      reservation
        .given({ ...given, blacklist })
        .when(book)
        .thenRefused('booking__email_blacklisted');
    }
  });

  it('books a visitor whose blacklist entry has expired or was removed', () => {
    const given = holding(slot(8, '09:00', '10:00', 5));
    const expired = history(
      evolveBlacklist,
      initialBlacklistState,
      BlacklistEntryAdded.create({ entryKey: KEY, expiredAt: day(-1) }),
    );
    const removed = history(
      evolveBlacklist,
      initialBlacklistState,
      BlacklistEntryAdded.create({ entryKey: KEY, expiredAt: day(30) }),
      BlacklistEntryRemoved.create({ entryKey: KEY }),
    );
    for (const blacklist of [expired, removed])
      reservation
        .given({ ...given, blacklist })
        .when(book)
        .then((d) => expect(d.transaction.map((e) => e.type)).toEqual(['TransactionBooked']));
  });

  it('refuses an expired cart, an empty one, and a cart whose hold was released meanwhile', () => {
    const s = slot(8, '09:00', '10:00', 5);
    const given = holding(s);
    reservation
      .given(given)
      .when(book, { now: later(15) })
      .thenRefused('transaction__expired');
    const emptied = after(
      given,
      decideReservation({ type: 'RemoveTicket', data: { ticketId: id(100) } }, given, context),
    );
    reservation.given(emptied).when(book).thenRefused('transaction__empty');
    const released = new Map([
      [
        s.id,
        evolveSlot(
          given.slots.get(s.id)!,
          TicketReleased.create({ ticketId: id(100), reason: 'expired' }),
        ),
      ],
    ]);
    reservation
      .given({ ...given, slots: released })
      .when(book)
      .thenRefused('transaction__expired');
    reservation
      .given({ ...given, slots: new Map() })
      .when(book)
      .thenRefused('transaction__expired');
  });

  it('refuses to book a cart twice, or a missing one', () => {
    const given = holding(slot(8, '09:00', '10:00', 5));
    const booked = after(given, decideReservation(book, given, context));
    reservation.given(booked).when(book).thenRefused('transaction__already_booked');
    reservation.given(emptyReservation).when(book).thenRefused('not_found');
  });
});

// --- StaffBook ----------------------------------------------------------------------------------

describe('StaffBook', () => {
  const staffBook = (s: Slot, roomId = ROOM) =>
    ({
      type: 'StaffBook',
      data: {
        transactionId: TX,
        ticketId: id(1),
        timeSlotId: s.id,
        roomId,
        ownerId: OWNER,
        bookingNumber: 'R-STAFF1',
        visitorKey: KEY,
        language: 'en',
      },
    }) as const satisfies ReservationCommand;

  it('holds and books a seat at once, on the cart, the slot and the visitor stream', () => {
    const s = slot(8, '09:00', '10:00', 5);
    const expiresAt = NOW.toISOString();
    reservation
      .given({ ...booking, slots: slotMap(s) })
      .when(staffBook(s))
      .then(
        decision(
          [
            TransactionStarted.create({ transactionId: TX, expiresAt }),
            TicketAddedToTransaction.create({ ...cartTicket(s, 1), expiresAt }),
            TransactionBooked.create({
              transactionId: TX,
              ownerId: OWNER,
              bookingNumber: 'R-STAFF1',
              visitorKey: KEY,
              language: 'en',
              ticketIds: [id(1)],
            }),
          ],
          [
            [
              s.id,
              [
                TicketHeld.create({
                  ticketId: id(1),
                  timeSlotId: s.id,
                  transactionId: TX,
                  expiresAt,
                }),
                TicketBooked.create({ ticketId: id(1), ownerId: OWNER }),
              ],
            ],
          ],
          [
            VisitorTicketsBooked.create({
              ownerId: OWNER,
              tickets: [{ ticketId: id(1), date: day(8), startTime: '09:00', endTime: '10:00' }],
            }),
          ],
        ),
      );
  });

  it('checks the reader in with the booking when the slot has started in a room with check-in', () => {
    const withCheckIn = new Map([
      [
        ROOM,
        evolveRoom(
          roomOpen(),
          RoomServicesChanged.create({
            roomId: ROOM,
            checkInMinutesBefore: 15,
            noShowReleaseMinutes: 20,
            waitlistOfferMinutes: null,
            reminderHoursBefore: null,
          }),
        ),
      ],
    ]);
    // Today 09:00–11:00 has started at NOW (10:00); today 11:00–12:00 has not.
    const running = slot(0, '09:00', '11:00', 5);
    const ahead = slot(0, '11:00', '12:00', 5);
    const checkIns = (d: ReservationDecision) =>
      [...d.slots.values()].flat().filter((e) => e.type === 'TicketCheckedIn');
    const given = { ...booking, rooms: withCheckIn, slots: slotMap(running, ahead) };
    reservation
      .given(given)
      .when(staffBook(running))
      .then((d) =>
        expect(checkIns(d)).toEqual([
          TicketCheckedIn.create({ ticketId: id(1), checkedInAt: NOW.toISOString() }),
        ]),
      );
    reservation
      .given(given)
      .when(staffBook(ahead))
      .then((d) => expect(checkIns(d)).toEqual([]));
    // Without check-in in the room, a started slot's booking is booked as always.
    reservation
      .given({ ...given, rooms })
      .when(staffBook(running))
      .then((d) => expect(checkIns(d)).toEqual([]));
  });

  it('books beyond the capacity (the slot then shows as overbooked), taking one seat', () => {
    const full = slot(8, '09:00', '10:00', 1, ...bookedFor(slot(8, '09:00', '10:00', 1), 2));
    const given = { ...booking, slots: slotMap(full) };
    expect(seatsTaken(full.state, NOW)).toBe(1);
    const d = reservation
      .given(given)
      .when(staffBook(full))
      .then((dec) => expect(dec.slots.size).toBe(1));
    const state = after(given, d);
    expect(seatsTaken(state.slots.get(full.id)!, NOW)).toBe(2);
    expect(state.cart).toMatchObject({ status: 'booked', ownerId: OWNER });
  });

  it('with confirmOverbooking false books only while a seat is free, true overbooks', () => {
    const withConfirm = (s: Slot, confirmOverbooking: boolean) => {
      const command = staffBook(s);
      return { ...command, data: { ...command.data, confirmOverbooking } };
    };
    const free = slot(8, '09:00', '10:00', 2, ...bookedFor(slot(8, '09:00', '10:00', 2), 2));
    reservation
      .given({ ...booking, slots: slotMap(free) })
      .when(withConfirm(free, false))
      .then((dec) => expect(dec.slots.size).toBe(1));
    const full = slot(8, '09:00', '10:00', 1, ...bookedFor(slot(8, '09:00', '10:00', 1), 2));
    reservation
      .given({ ...booking, slots: slotMap(full) })
      .when(withConfirm(full, false))
      .thenRefused('timeslot__overbooking_not_confirmed', { taken: 1, capacity: 1 });
    reservation
      .given({ ...booking, slots: slotMap(full) })
      .when(withConfirm(full, true))
      .then((dec) => expect(dec.slots.size).toBe(1));
  });

  it('refuses a slot of another room, an unknown or a deleted slot (not_found)', () => {
    const s = slot(8, '09:00', '10:00', 5);
    reservation
      .given({ ...booking, slots: slotMap(s) })
      .when(staffBook(s, OTHER_ROOM))
      .thenRefused('not_found');
    reservation.given(emptyReservation).when(staffBook(s)).thenRefused('not_found');
    const deleted = {
      ...s,
      state: evolveSlot(s.state, TimeSlotDeleted.create({ timeSlotId: s.id, roomId: ROOM })),
    };
    reservation
      .given({ ...booking, slots: slotMap(deleted) })
      .when(staffBook(deleted))
      .thenRefused('not_found');
  });
});

// --- CancelTickets ------------------------------------------------------------------------------

/** A booking of the owner, a ticket (100, 101, ...) in each slot. */
function bookingOf(...slots: Slot[]): ReservationState {
  const held = { ...booking, rooms, ...cartHolding(...slots) };
  return after(held, decideReservation(book, held, context));
}

describe('CancelTickets', () => {
  const cancel = (...ticketIds: string[]) =>
    ({ type: 'CancelTickets', data: { ownerId: OWNER, ticketIds } }) as const;

  it("cancels the owner's booked tickets before their slots start: the slot and the visitor stream", () => {
    const a = slot(8, '09:00', '10:00', 5);
    const b = slot(9, '09:00', '10:00', 5);
    reservation
      .given(bookingOf(a, b))
      .when(cancel(id(100), id(101), id(100)))
      .then(
        decision(
          [],
          [
            [a.id, [TicketCancelled.create({ ticketId: id(100), ownerId: OWNER })]],
            [b.id, [TicketCancelled.create({ ticketId: id(101), ownerId: OWNER })]],
          ],
          [
            VisitorTicketCancelled.create({ ticketId: id(100) }),
            VisitorTicketCancelled.create({ ticketId: id(101) }),
          ],
        ),
      );
  });

  it('refuses a ticket of another owner, or not in the booking (not_found)', () => {
    const given = bookingOf(slot(8, '09:00', '10:00', 5));
    reservation
      .given(given)
      .when({ type: 'CancelTickets', data: { ownerId: 'e'.repeat(32), ticketIds: [id(100)] } })
      .thenRefused('not_found');
    reservation
      .given(given)
      .when(cancel(id(7)))
      .thenRefused('not_found');
  });

  it('refuses a ticket whose slot has started, by the local time of the context (ticket__not_cancelable)', () => {
    expect(local.time).toBe('10:00');
    // a slot today: started at 09:00, starting now at 10:00, or starting at 10:30
    const today = (start: string, end: string) => {
      const s = slot(0, start, end, 5);
      const held = { ...booking, rooms, ...cartHolding(s) };
      return after(held, decideReservation(book, held, context));
    };
    reservation
      .given(today('09:00', '09:30'))
      .when(cancel(id(100)))
      .thenRefused('ticket__not_cancelable');
    reservation
      .given(today('10:00', '11:00'))
      .when(cancel(id(100)))
      .thenRefused('ticket__not_cancelable');
    reservation
      .given(today('10:30', '11:00'))
      .when(cancel(id(100)))
      .then((d) =>
        expect(d.visitor).toEqual([VisitorTicketCancelled.create({ ticketId: id(100) })]),
      );
    // the same booking a day later
    reservation
      .given(bookingOf(slot(1, '09:00', '10:00', 5)))
      .when(cancel(id(100)), { today: day(1), time: '09:00' })
      .thenRefused('ticket__not_cancelable');
  });

  it('refuses a ticket cancelled already, and cancels nothing when one ticket is refused', () => {
    const a = slot(8, '09:00', '10:00', 5);
    const given = bookingOf(a, slot(9, '09:00', '10:00', 5));
    const once = after(given, decideReservation(cancel(id(100)), given, context));
    reservation
      .given(once)
      .when(cancel(id(100)))
      .thenRefused('ticket__not_cancelable');
    reservation
      .given(once)
      .when(cancel(id(101), id(100)))
      .thenRefused('ticket__not_cancelable');
  });

  it('refuses a ticket that is only held: it has no owner yet (not_found)', () => {
    const { cart, slots } = cartHolding(slot(8, '09:00', '10:00', 5));
    reservation
      .given({ ...booking, rooms, cart, slots })
      .when(cancel(id(100)))
      .thenRefused('not_found');
  });
});

// --- MoveTicket -------------------------------------------------------------------------------

describe('MoveTicket', () => {
  const from = slot(8, '09:00', '10:00', 5);
  const to = slot(9, '14:00', '15:00', 2);
  /** The booking of a ticket (100) in `from`, with `others` among the slots of the state. */
  const booked = (...others: Slot[]): ReservationState => {
    const state = bookingOf(from);
    return { ...state, slots: new Map([...state.slots, ...slotMap(...others)]) };
  };
  const move = (target: Slot | string, ownerId = OWNER) =>
    ({
      type: 'MoveTicket',
      data: {
        ownerId,
        ticketId: id(100),
        newTicketId: id(200),
        timeSlotId: typeof target === 'string' ? target : target.id,
        bookingNumber: book.data.bookingNumber,
      },
    }) as const;

  it('holds and books the new seat and cancels the old one in one decision, keeping the booking number', () => {
    reservation
      .given(booked(to))
      .when(move(to))
      .then(
        decision(
          [TicketAddedToTransaction.create({ ...cartTicket(to, 200), expiresAt: at(0) })],
          [
            [
              from.id,
              [TicketCancelled.create({ ticketId: id(100), ownerId: OWNER, movedTo: id(200) })],
            ],
            [
              to.id,
              [
                TicketHeld.create({
                  ticketId: id(200),
                  timeSlotId: to.id,
                  transactionId: TX,
                  expiresAt: at(0),
                }),
                TicketBooked.create({
                  ticketId: id(200),
                  ownerId: OWNER,
                  bookingNumber: book.data.bookingNumber,
                }),
              ],
            ],
          ],
          [
            VisitorTicketCancelled.create({ ticketId: id(100) }),
            VisitorTicketsBooked.create({
              ownerId: OWNER,
              tickets: [{ ticketId: id(200), date: day(9), startTime: '14:00', endTime: '15:00' }],
            }),
          ],
        ),
      );
  });

  it('refuses a full slot, a closed one, the same slot and another room: the booking stays as it was', () => {
    const full = {
      ...to,
      state: history(evolveSlot, to.state, ...bookedFor(to, 1), ...bookedFor(to, 2)),
    };
    reservation
      .given(booked(full))
      .when(move(full))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_no_tickets_left' });
    const closed = {
      ...to,
      state: evolveSlot(
        to.state,
        TimeSlotClosed.create({
          timeSlotId: to.id,
          roomId: ROOM,
          closureId: id(4343),
          reason: 'Umbau',
        }),
      ),
    };
    reservation
      .given(booked(closed))
      .when(move(closed))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
    reservation
      .given(booked())
      .when(move(from))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_already_in_transaction' });
    const elsewhere = {
      id: id(7777),
      state: history(
        evolveSlot,
        initialSlotState,
        TimeSlotCreated.create({
          timeSlotId: id(7777),
          roomId: OTHER_ROOM,
          date: day(9),
          startTime: '14:00',
          endTime: '15:00',
          capacity: 5,
        }),
      ),
    };
    reservation
      .given(booked(elsewhere))
      .when(move(elsewhere))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
  });

  it('refuses another owner, an unknown slot, and a ticket whose slot has started', () => {
    reservation
      .given(booked(to))
      .when(move(to, 'e'.repeat(32)))
      .thenRefused('not_found');
    reservation
      .given(booked(to))
      .when(move(id(4242)))
      .thenRefused('not_found');
    reservation
      .given(booked(to))
      .when(move(to), { today: day(8), time: '09:30' })
      .thenRefused('ticket__not_cancelable');
  });

  it("counts the visitor's other bookings of the new day without the ticket it moves", () => {
    /** The state with the visitor's other bookings of `[day, start, end]` added. */
    const alsoBooked = (state: ReservationState, ...tickets: [number, string, string][]) => ({
      ...state,
      visitor: history(
        evolveVisitor,
        state.visitor,
        VisitorTicketsBooked.create({
          ownerId: OWNER,
          tickets: tickets.map(([dayN, startTime, endTime], i) => ({
            ticketId: id(501 + i),
            date: day(dayN),
            startTime,
            endTime,
          })),
        }),
      ),
    });
    // Two bookings on day 9 already: a third that day breaks the day's maximum of 2 ...
    reservation
      .given(alsoBooked(booked(to), [9, '08:00', '09:00'], [9, '10:00', '11:00']))
      .when(move(to))
      .thenRefused('ticket__validation_error', {
        rule: 'max_tickets_per_day_reached',
        date: day(9),
        maxTicketsPerDay: 2,
      });
    // ... while moving a ticket within its own day keeps the count where it was.
    const sameDay = slot(8, '11:00', '12:00', 5);
    reservation
      .given(alsoBooked(booked(sameDay), [8, '14:00', '15:00']))
      .when(move(sameDay))
      .then((d) =>
        expect(d.slots.get(sameDay.id)?.map((e) => e.type)).toEqual(['TicketHeld', 'TicketBooked']),
      );
  });
});

describe('isCancelable', () => {
  it('means booked and not started yet (local date and time)', () => {
    const s = { date: '2026-12-01', startTime: '09:00' };
    expect(isCancelable('BOOKED', s, { date: '2026-12-01', time: '08:59' })).toBe(true);
    expect(isCancelable('BOOKED', s, { date: '2026-11-30', time: '23:59' })).toBe(true);
    expect(isCancelable('BOOKED', s, { date: '2026-12-01', time: '09:00' })).toBe(false);
    expect(isCancelable('BOOKED', s, { date: '2026-12-02', time: '08:00' })).toBe(false);
    for (const status of ['NEW', 'CANCELLED', 'INVALID'])
      expect(isCancelable(status, s, { date: '2026-11-01', time: '09:00' })).toBe(false);
  });
});

// --- the owner (its events on the cart stream, decided by decideOwner) -------------------------

const owner = scenario(decideOwner, null);
const ownerOf = (state: ReservationState) => ({ cart: state.cart, slots: state.slots });

describe('ChangeOwnerData', () => {
  const s = slot(8, '09:00', '10:00', 5);
  const held: ReservationState = { ...booking, rooms, ...cartHolding(s) };
  const booked = after(held, decideReservation(book, held, context));
  const change = (ticket: number) =>
    ({ type: 'ChangeOwnerData', data: { ticketId: id(ticket) } }) as const;

  it('records the change of a booked ticket (OwnerDataChanged on the cart)', () => {
    owner
      .given(ownerOf(booked))
      .when(change(100))
      .then([OwnerDataChanged.create({ ownerId: OWNER, ticketId: id(100) })]);
  });

  it('refuses a ticket not in the booking (not_found)', () => {
    owner.given(ownerOf(booked)).when(change(7)).thenRefused('not_found');
  });

  it('refuses a ticket that is not booked: only held, or cancelled (ticket__not_booked)', () => {
    owner.given(ownerOf(held)).when(change(100)).thenRefused('ticket__not_booked');
    const cancelled = after(
      booked,
      decideReservation(
        { type: 'CancelTickets', data: { ownerId: OWNER, ticketIds: [id(100)] } },
        booked,
        context,
      ),
    );
    owner.given(ownerOf(cancelled)).when(change(100)).thenRefused('ticket__not_booked');
  });

  it('refuses a booking whose personal data was erased (personal_data__erased)', () => {
    const erased = {
      ...booked,
      cart: evolveTransaction(booked.cart, PersonalDataErased.create({ ownerId: OWNER })),
    };
    expect(erased.cart.erased).toBe(true);
    owner.given(ownerOf(erased)).when(change(100)).thenRefused('personal_data__erased');
  });
});

// --- ErasePersonalData --------------------------------------------------------------------------

describe('ErasePersonalData', () => {
  const s = slot(8, '09:00', '10:00', 5);
  const held: ReservationState = { ...booking, rooms, ...cartHolding(s) };
  const booked = after(held, decideReservation(book, held, context));
  const erase = { type: 'ErasePersonalData' } as const;

  it('records the erasure of a booking once (PersonalDataErased on the cart)', () => {
    owner
      .given(ownerOf(booked))
      .when(erase)
      .then([PersonalDataErased.create({ ownerId: OWNER })]);
    const erased = {
      ...booked,
      cart: evolveTransaction(booked.cart, PersonalDataErased.create({ ownerId: OWNER })),
    };
    owner.given(ownerOf(erased)).when(erase).then([]);
  });

  it('records nothing for a cart that was never booked', () => {
    owner.given(ownerOf(held)).when(erase).then([]);
  });
});

// --- Confirmed addresses (docs/product.md#confirmed-addresses) ----------------------------------

describe('BookCart in a room with confirmed addresses', () => {
  const confirming = new Map([
    [
      ROOM,
      evolveRoom(
        roomOpen(),
        RoomServicesChanged.create({
          roomId: ROOM,
          checkInMinutesBefore: null,
          noShowReleaseMinutes: null,
          waitlistOfferMinutes: null,
          reminderHoursBefore: null,
          confirmBookingMinutes: 60,
        }),
      ),
    ],
  ]);
  const withZone = { timeZone: 'Europe/Vienna' };

  it("books with a deadline: the booking time plus the minutes, never past the slot's start", () => {
    // Tomorrow's slot: NOW + 60 minutes; today's at 10:30 (in 30 minutes): its start.
    const tomorrow = slot(1, '09:00', '10:00', 5);
    const soon = slot(0, '10:30', '11:00', 5);
    reservation
      .given({ ...booking, rooms: confirming, ...cartHolding(tomorrow, soon) })
      .when(book, withZone)
      .then((d) => {
        expect(d.slots.get(tomorrow.id)).toEqual([
          TicketBooked.create({ ticketId: id(100), ownerId: OWNER, confirmBy: at(60) }),
        ]);
        expect(d.slots.get(soon.id)).toEqual([
          TicketBooked.create({ ticketId: id(101), ownerId: OWNER, confirmBy: at(30) }),
        ]);
      });
  });

  it('books as always in a room without the setting', () => {
    const s = slot(1, '09:00', '10:00', 5);
    reservation
      .given({ ...booking, rooms, ...cartHolding(s) })
      .when(book, withZone)
      .then((d) =>
        expect(d.slots.get(s.id)).toEqual([
          TicketBooked.create({ ticketId: id(100), ownerId: OWNER }),
        ]),
      );
  });

  it('moves a ticket awaiting confirmation with its deadline', () => {
    const from = slot(1, '09:00', '10:00', 5);
    const to = slot(2, '09:00', '10:00', 5);
    const held = { ...booking, rooms: confirming, ...cartHolding(from) };
    const booked = after(held, decideReservation(book, held, { ...context, ...withZone }));
    reservation
      .given({ ...booked, slots: new Map([...booked.slots, [to.id, to.state]]) })
      .when(
        {
          type: 'MoveTicket',
          data: {
            ownerId: OWNER,
            ticketId: id(100),
            newTicketId: id(200),
            timeSlotId: to.id,
            bookingNumber: 'R-ABCDEF',
          },
        },
        withZone,
      )
      .then((d) =>
        expect(d.slots.get(to.id)?.at(-1)).toEqual(
          TicketBooked.create({
            ticketId: id(200),
            ownerId: OWNER,
            bookingNumber: 'R-ABCDEF',
            confirmBy: at(60),
          }),
        ),
      );
  });
});
