import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { describe, expect, it } from 'vitest';
import {
  BlacklistEntryAdded,
  SeatOffered,
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  TimeSlotClosed,
  TimeSlotCreated,
  TransactionBooked,
  TransactionStarted,
  VisitorTicketsBooked,
  WaitlistJoined,
} from '@rr/events/catalogue';
import { NO_ROOM_SERVICES } from '@rr/contracts';
import { addDays, localDateTime, type LocalDate } from '../calendar.ts';
import type { CartRuleSlot } from '../cart-rules.ts';
import type { BookingLimits } from '../limits.ts';
import { Refused } from '../refusal.ts';
import { history } from '../testing/given-when-then.ts';
import { evolveBlacklist, initialBlacklistState } from '../blacklist/blacklist-entry.ts';
import type { RoomState } from '../rooms/room.ts';
import type { Member } from '../rooms/affiliations.ts';
import { NO_SEAT_PLAN } from '../rooms/seat-plan.ts';
import type { SeatWish } from './seat-choice.ts';
import {
  evolveTransaction,
  evolveVisitor,
  initialTransaction,
  initialVisitor,
} from '../reservations/cart.ts';
import { decideReservation, emptyReservation } from '../reservations/reservation.ts';
import { decideWaitlist } from '../waitlist/waitlist.ts';
import { evolveSlot, initialSlotState, type SlotEvent, type SlotState } from './time-slot.ts';
import {
  SEAT_PATHS,
  SEAT_RULES,
  seatRulesOf,
  type SeatPath,
  type SeatRuleName,
} from './seat-paths.ts';

/**
 * Every rule against every path: each path is run through its own decider (the cart's add, the
 * booking, staff's booking, the rebooking, the waitlist's join, offer and take) in a world where
 * the seat may be taken, then in the same world with exactly one rule broken. A rule the path
 * applies (`seatRulesOf`, seat-paths.ts) must refuse the seat; a rule it skips must not. So a
 * decider that gives a seat outside the one decision, or forgets a rule, fails here.
 */

/** Monday 23 November 2026, 10:00 in Vienna. */
const NOW = new Date('2026-11-23T09:00:00Z');
const TIME_ZONE = 'Europe/Vienna';
const local = localDateTime(NOW, TIME_ZONE);
const TODAY = local.date;
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ROOM = id(1);
const SLOT = id(2);
const OLD_SLOT = id(3);
const TX = id(4);
const TICKET = id(5);
const OLD_TICKET = id(6);
const ENTRY = id(7);
const OWNER = 'a'.repeat(32);
const OTHER_OWNER = 'c'.repeat(32);
const KEY = 'b'.repeat(40);
const OFFER = '1'.repeat(32);
const SEAT = id(10);

const baseLimits: BookingLimits = {
  holdMinutes: 15,
  maxCartTickets: 5,
  maxTicketsPerDay: 2,
  maxTicketsPerVisitor: 10,
  noShowRule: { limit: 2, windowDays: 30, blockDays: 14 },
};

/** What a seat is wanted in: the path-independent description each path builds its state from. */
interface World {
  /** The wanted slot's day (days after today) and start; an hour long. */
  dayN: number;
  start: string;
  capacity: number;
  /** Seats of the wanted slot booked by someone else. */
  bookedByOthers: number;
  closed: boolean;
  room: RoomState;
  /** The seats the person holds already (their cart's tickets, or their bookings). */
  holdings: CartRuleSlot[];
  blacklisted: boolean;
  noShowDays: LocalDate[];
  emailDomain: string;
  member: Member;
  limits: BookingLimits;
  /** In a room with a seat plan: the seat the person asks for. */
  wish?: SeatWish;
}

const openRoom: RoomState = {
  status: 'active',
  version: 1,
  siteId: FIRST_SITE_ID,
  hasImage: false,
  name: 'Reading room',
  seatPlan: NO_SEAT_PLAN,
  openStart: { type: 'DAY', value: 0 },
  openEnd: { type: 'DAY', value: 60 },
  services: { ...NO_ROOM_SERVICES, waitlistOfferMinutes: 30 },
};

const holding = (n: number, dayN: number, startTime: string, endTime: string): CartRuleSlot => ({
  timeSlotId: id(500 + n),
  date: addDays(TODAY, dayN),
  startTime,
  endTime,
});

const base: World = {
  dayN: 1,
  start: '10:00',
  capacity: 2,
  bookedByOthers: 0,
  closed: false,
  room: openRoom,
  holdings: [],
  blacklisted: false,
  noShowDays: [],
  emailDomain: 'uni.example',
  member: { memberships: ['student@uni.example', 'student'] },
  limits: baseLimits,
};

/** An hour after `start`. */
const endOf = (start: string) =>
  `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:${start.slice(3, 5)}`;

/** The wanted slot's stream: created, the others' bookings, then `more`, then its closure. */
function wantedSlot(w: World, ...more: SlotEvent[]): SlotState {
  const others = Array.from({ length: w.bookedByOthers }, (_, i) => [
    TicketHeld.create({
      ticketId: id(100 + i),
      timeSlotId: SLOT,
      transactionId: id(200 + i),
      expiresAt: at(-60),
    }),
    TicketBooked.create({ ticketId: id(100 + i), ownerId: OTHER_OWNER }),
  ]).flat();
  const closure = w.closed
    ? [TimeSlotClosed.create({ timeSlotId: SLOT, roomId: ROOM, closureId: id(9), reason: 'Flood' })]
    : [];
  return history(
    evolveSlot,
    initialSlotState,
    TimeSlotCreated.create({
      timeSlotId: SLOT,
      roomId: ROOM,
      date: addDays(TODAY, w.dayN),
      startTime: w.start,
      endTime: endOf(w.start),
      capacity: w.capacity,
    }),
    ...others,
    ...more,
    ...closure,
  );
}

const visitorOf = (w: World) =>
  history(
    evolveVisitor,
    initialVisitor,
    ...(w.holdings.length
      ? [
          VisitorTicketsBooked.create({
            ownerId: OTHER_OWNER,
            tickets: w.holdings.map((h, i) => ({
              ticketId: id(600 + i),
              date: h.date,
              startTime: h.startTime,
              endTime: h.endTime,
            })),
          }),
        ]
      : []),
  );

const blacklistOf = (w: World) =>
  w.blacklisted
    ? history(
        evolveBlacklist,
        initialBlacklistState,
        BlacklistEntryAdded.create({ entryKey: KEY, expiredAt: addDays(TODAY, 30) }),
      )
    : initialBlacklistState;

const contextOf = (w: World) => ({
  now: NOW,
  today: TODAY,
  time: local.time,
  limits: w.limits,
  timeZone: TIME_ZONE,
});

const place = (w: World) => ({ rooms: new Map([[ROOM, w.room]]), holidays: new Map() });

/** A seat taken (with the confirmation deadline its booking awaits), or the refusal. */
type Outcome = { taken: true; confirmBy: string | undefined } | { refused: string };

function outcome(run: () => { confirmBy: string | undefined } | null): Outcome {
  try {
    const given = run();
    return given ? { taken: true, confirmBy: given.confirmBy } : { refused: 'no offer' };
  } catch (err) {
    if (err instanceof Refused) return { refused: err.code };
    throw err;
  }
}

const bookedTicket = (events: readonly { type: string; data: unknown }[], ticketId: string) => {
  const booked = events.find(
    (e): e is ReturnType<typeof TicketBooked.create> =>
      e.type === 'TicketBooked' && (e.data as { ticketId: string }).ticketId === ticketId,
  );
  return booked ? { confirmBy: booked.data.confirmBy } : null;
};

/** Each path, run through its own decider on the world. */
const paths: Record<SeatPath, (w: World) => Outcome> = {
  'cart-add': (w) =>
    outcome(() => {
      const cart = history(
        evolveTransaction,
        initialTransaction,
        TransactionStarted.create({ transactionId: TX, expiresAt: at(15) }),
        ...w.holdings.map((h, i) =>
          TicketAddedToTransaction.create({
            ticketId: id(700 + i),
            roomId: ROOM,
            ...h,
            expiresAt: at(15),
          }),
        ),
      );
      const d = decideReservation(
        {
          type: 'AddTicket',
          data: { transactionId: TX, ticketId: TICKET, timeSlotId: SLOT, seat: w.wish },
        },
        { ...emptyReservation, cart, slots: new Map([[SLOT, wantedSlot(w)]]), ...place(w) },
        contextOf(w),
      );
      return d.slots.get(SLOT)?.some((e) => e.type === 'TicketHeld')
        ? { confirmBy: undefined }
        : null;
    }),
  'cart-booking': (w) =>
    outcome(() => {
      const slot = wantedSlot(
        w,
        TicketHeld.create({
          ticketId: TICKET,
          timeSlotId: SLOT,
          transactionId: TX,
          expiresAt: at(10),
        }),
      );
      const cart = history(
        evolveTransaction,
        initialTransaction,
        TransactionStarted.create({ transactionId: TX, expiresAt: at(10) }),
        TicketAddedToTransaction.create({
          ticketId: TICKET,
          timeSlotId: SLOT,
          roomId: ROOM,
          date: slot.date,
          startTime: slot.startTime,
          endTime: slot.endTime,
          expiresAt: at(10),
        }),
      );
      const d = decideReservation(
        {
          type: 'BookCart',
          data: {
            ownerId: OWNER,
            bookingNumber: 'ABC123',
            visitorKey: KEY,
            language: 'en',
            emailDomain: w.emailDomain,
            member: w.member,
          },
        },
        {
          ...emptyReservation,
          cart,
          slots: new Map([[SLOT, slot]]),
          visitor: visitorOf(w),
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
          ...place(w),
        },
        contextOf(w),
      );
      return bookedTicket(d.slots.get(SLOT) ?? [], TICKET);
    }),
  'staff-booking': (w) =>
    outcome(() => {
      const d = decideReservation(
        {
          type: 'StaffBook',
          data: {
            transactionId: TX,
            ticketId: TICKET,
            timeSlotId: SLOT,
            roomId: ROOM,
            ownerId: OWNER,
            bookingNumber: 'ABC123',
            visitorKey: KEY,
            language: 'en',
            confirmOverbooking: false,
            seat: w.wish,
          },
        },
        {
          ...emptyReservation,
          slots: new Map([[SLOT, wantedSlot(w)]]),
          visitor: visitorOf(w),
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
          ...place(w),
        },
        contextOf(w),
      );
      return bookedTicket(d.slots.get(SLOT) ?? [], TICKET);
    }),
  move: (w) =>
    outcome(() => {
      // The booking's ticket to move: three days ahead at 15:00, in the same room.
      const oldDate = addDays(TODAY, 3);
      const oldSlot = history(
        evolveSlot,
        initialSlotState,
        TimeSlotCreated.create({
          timeSlotId: OLD_SLOT,
          roomId: ROOM,
          date: oldDate,
          startTime: '15:00',
          endTime: '16:00',
          capacity: 5,
        }),
        TicketHeld.create({
          ticketId: OLD_TICKET,
          timeSlotId: OLD_SLOT,
          transactionId: TX,
          expiresAt: at(-60),
        }),
        TicketBooked.create({ ticketId: OLD_TICKET, ownerId: OWNER }),
      );
      const cart = history(
        evolveTransaction,
        initialTransaction,
        TransactionStarted.create({ transactionId: TX, expiresAt: at(-60) }),
        TicketAddedToTransaction.create({
          ticketId: OLD_TICKET,
          timeSlotId: OLD_SLOT,
          roomId: ROOM,
          date: oldDate,
          startTime: '15:00',
          endTime: '16:00',
          expiresAt: at(-60),
        }),
        TransactionBooked.create({
          transactionId: TX,
          ownerId: OWNER,
          bookingNumber: 'ABC123',
          visitorKey: KEY,
          language: 'en',
          ticketIds: [OLD_TICKET],
        }),
      );
      const visitor = evolveVisitor(
        visitorOf(w),
        VisitorTicketsBooked.create({
          ownerId: OWNER,
          tickets: [{ ticketId: OLD_TICKET, date: oldDate, startTime: '15:00', endTime: '16:00' }],
        }),
      );
      const d = decideReservation(
        {
          type: 'MoveTicket',
          data: {
            ownerId: OWNER,
            ticketId: OLD_TICKET,
            newTicketId: TICKET,
            timeSlotId: SLOT,
            bookingNumber: 'ABC123',
            emailDomain: w.emailDomain,
            seat: w.wish,
          },
        },
        {
          ...emptyReservation,
          cart,
          slots: new Map([
            [SLOT, wantedSlot(w)],
            [OLD_SLOT, oldSlot],
          ]),
          visitor,
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
          ...place(w),
        },
        contextOf(w),
      );
      return bookedTicket(d.slots.get(SLOT) ?? [], TICKET);
    }),
  'waitlist-join': (w) =>
    outcome(() => {
      const d = decideWaitlist(
        {
          type: 'JoinWaitlist',
          data: {
            entryId: ENTRY,
            timeSlotId: SLOT,
            visitorKey: KEY,
            language: 'en',
            emailDomain: w.emailDomain,
            member: w.member,
          },
        },
        {
          slot: wantedSlot(w),
          room: w.room,
          holidays: new Set(),
          visitor: visitorOf(w),
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
        },
        { ...contextOf(w), newOfferId: () => OFFER },
      );
      return d.slot.some((e) => e.type === 'WaitlistJoined') ? { confirmBy: undefined } : null;
    }),
  'waitlist-offer': (w) =>
    outcome(() => {
      // The person joined while the slot was full; one of the others' seats was cancelled since.
      const slot = wantedSlot(
        { ...w, bookedByOthers: w.bookedByOthers + 1 },
        WaitlistJoined.create({
          entryId: ENTRY,
          timeSlotId: SLOT,
          visitorKey: KEY,
          language: 'en',
          joinedAt: at(-30),
        }),
        TicketCancelled.create({ ticketId: id(100 + w.bookedByOthers), ownerId: OTHER_OWNER }),
      );
      const d = decideWaitlist(
        { type: 'MatchWaitlist', data: { timeSlotId: SLOT } },
        {
          slot,
          room: w.room,
          holidays: new Set(),
          visitor: initialVisitor,
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
          held: new Map([[KEY, w.holdings]]),
        },
        { ...contextOf(w), newOfferId: () => OFFER },
      );
      return d.slot.some((e) => e.type === 'SeatOffered') ? { confirmBy: undefined } : null;
    }),
  'offer-taken': (w) =>
    outcome(() => {
      // The offer holds the last seat; `capacity` broken: it lapsed.
      const slot = wantedSlot(
        { ...w, closed: false },
        WaitlistJoined.create({
          entryId: ENTRY,
          timeSlotId: SLOT,
          visitorKey: KEY,
          language: 'en',
          joinedAt: at(-30),
        }),
        SeatOffered.create({
          entryId: ENTRY,
          timeSlotId: SLOT,
          offerId: OFFER,
          expiresAt: w.capacity === 0 ? at(-1) : at(20),
        }),
        ...(w.closed
          ? [
              TimeSlotClosed.create({
                timeSlotId: SLOT,
                roomId: ROOM,
                closureId: id(9),
                reason: 'Flood',
              }),
            ]
          : []),
      );
      const d = decideWaitlist(
        {
          type: 'TakeSeatOffer',
          data: { timeSlotId: SLOT, offerId: OFFER, transactionId: TX, ticketId: TICKET },
        },
        {
          slot,
          room: w.room,
          holidays: new Set(),
          visitor: visitorOf(w),
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
        },
        { ...contextOf(w), newOfferId: () => OFFER },
      );
      return d.slot.some((e) => e.type === 'TicketHeld') ? { confirmBy: undefined } : null;
    }),
  'walk-in': (w) =>
    outcome(() => {
      const d = decideReservation(
        {
          type: 'WalkIn',
          data: {
            transactionId: TX,
            ticketId: TICKET,
            timeSlotId: SLOT,
            roomId: ROOM,
            seatId: w.wish?.seatId ?? SEAT,
            ownerId: OWNER,
            bookingNumber: 'ABC123',
            visitorKey: KEY,
            language: 'en',
            emailDomain: w.emailDomain,
            member: w.member,
          },
        },
        {
          ...emptyReservation,
          slots: new Map([[SLOT, wantedSlot(w)]]),
          visitor: visitorOf(w),
          blacklist: blacklistOf(w),
          noShows: w.noShowDays,
          ...place(w),
        },
        contextOf(w),
      );
      return bookedTicket(d.slots.get(SLOT) ?? [], TICKET);
    }),
};

/** A walk-in's room: a seat plan of two seats. */
const planRoom: RoomState = {
  ...openRoom,
  seatPlan: {
    seats: [
      { seatId: SEAT, label: 'A1', attributes: [], x: 10, y: 10, rotation: 0 },
      { seatId: id(12), label: 'A2', attributes: [], x: 20, y: 10, rotation: 0 },
    ],
    outOfService: [],
  },
};

/**
 * The world each path takes its seat in: a join needs the slot full, a walk-in a seat of a plan
 * in a slot under way (today, started at 10:00 on the hour), every other path a seat.
 */
const baseOf = (path: SeatPath): World =>
  path === 'waitlist-join'
    ? { ...base, capacity: 1, bookedByOthers: 1 }
    : path === 'walk-in'
      ? { ...base, dayN: 0, start: '10:00', room: planRoom }
      : base;

/** The world with exactly one rule broken. */
const broken: Record<SeatRuleName, (w: World, path: SeatPath) => World> = {
  'slot-open': (w) => ({ ...w, closed: true }),
  'booking-window': (w) => ({ ...w, room: { ...w.room, openStart: { type: 'DAY', value: 3 } } }),
  // Today at 09:30: under way at 10:00.
  'not-started': (w) => ({ ...w, dayN: 0, start: '09:30' }),
  // A day later: not started (the other paths' slot is not under way already).
  'under-way': (w) => ({ ...w, dayN: w.dayN + 1 }),
  'per-time': (w) => ({ ...w, holdings: [holding(1, w.dayN, '10:30', '11:30')] }),
  'cart-size': (w) => ({
    ...w,
    holdings: [2, 3, 4, 5, 6].map((n) => holding(n, n, '08:00', '09:00')),
  }),
  'per-visitor': (w) => ({
    ...w,
    limits: { ...w.limits, maxTicketsPerVisitor: 3 },
    holdings: [2, 3, 4].map((n) => holding(n, n, '08:00', '09:00')),
  }),
  'per-day': (w) => ({
    ...w,
    holdings: [holding(1, w.dayN, '07:00', '08:00'), holding(2, w.dayN, '13:00', '14:00')],
  }),
  blacklist: (w) => ({ ...w, blacklisted: true }),
  'no-show-block': (w) => ({ ...w, noShowDays: [addDays(TODAY, -3), addDays(TODAY, -2)] }),
  'members-only': (w) => ({
    ...w,
    emailDomain: 'gmx.at',
    room: { ...w.room, services: { ...w.room.services, allowedEmailDomains: ['uni.example'] } },
  }),
  // A guest at a room for members of the university (the affiliation rule: its own tests).
  'members-sign-in': (w) => ({
    ...w,
    member: null,
    room: { ...w.room, services: { ...w.room.services, signInRequired: true } },
  }),
  capacity: (w, path) => {
    switch (path) {
      case 'waitlist-join':
        return { ...w, capacity: 2 };
      case 'offer-taken':
        // The offer lapsed (see the path).
        return { ...w, capacity: 0 };
      case 'cart-booking':
        // A capacity lowered below the hold: the seat ahead of it is someone else's.
        return { ...w, capacity: 1, bookedByOthers: 1 };
      default:
        return { ...w, capacity: 1, bookedByOthers: 1 };
    }
  },
  // The room's one seat is out of service on the slot's day, and the person asks for it (the
  // matcher asks for none: it finds no seat to offer).
  seat: (w) => ({
    ...w,
    room: {
      ...w.room,
      seatPlan: {
        seats: [{ seatId: SEAT, label: 'A1', attributes: [], x: 10, y: 10, rotation: 0 }],
        outOfService: [
          {
            outOfServiceId: id(11),
            seatId: SEAT,
            from: addDays(TODAY, w.dayN),
            until: addDays(TODAY, w.dayN),
            reason: 'Broken lamp',
          },
        ],
      },
    },
    wish: { seatId: SEAT },
  }),
  'confirmed-address': (w) => ({
    ...w,
    room: { ...w.room, services: { ...w.room.services, confirmBookingMinutes: 60 } },
  }),
};

describe('one decision takes every seat', () => {
  it('names every rule for every path, applied or skipped with its reason', () => {
    for (const path of SEAT_PATHS)
      for (const rule of SEAT_RULES) {
        const use = seatRulesOf[path][rule];
        if (use !== 'applies') expect(use.skipped.length, `${path} ${rule}`).toBeGreaterThan(10);
      }
  });

  for (const path of SEAT_PATHS) {
    describe(path, () => {
      it('takes the seat when no rule is broken', () => {
        expect(paths[path](baseOf(path))).toEqual({ taken: true, confirmBy: undefined });
      });

      for (const rule of SEAT_RULES) {
        const use = seatRulesOf[path][rule];
        it(`${use === 'applies' ? 'applies' : 'skips'} ${rule}`, () => {
          const result = paths[path](broken[rule](baseOf(path), path));
          if (rule === 'confirmed-address') {
            // Not a refusal: a booked seat awaits the confirmation where the path asks for it.
            expect('taken' in result, JSON.stringify(result)).toBe(true);
            const asked = 'taken' in result && result.confirmBy !== undefined;
            expect(asked).toBe(use === 'applies');
          } else if (use === 'applies') {
            expect(result, `${path} must refuse when ${rule} is broken`).toHaveProperty('refused');
          } else {
            expect(result, `${path} skips ${rule}: ${use.skipped}`).toHaveProperty('taken', true);
          }
        });
      }
    });
  }
});
