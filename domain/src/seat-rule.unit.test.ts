import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RoomCreated,
  RoomServicesChanged,
  SeatOfferLapsed,
  SeatOffered,
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  TicketNoShowReleased,
  TicketReleased,
  TimeSlotCreated,
  TransactionStarted,
  WaitlistJoined,
  type SlotTicketEvent,
  type WaitlistEvent,
} from '@rr/events/catalogue';
import { NO_ROOM_SERVICES } from '@rr/contracts/rooms';
import { roomBookingWindow, type OpenBound } from './booking-window.ts';
import { addDays, localDateTime } from './calendar.ts';
import type { BookingLimits } from './limits.ts';
import { Refused } from './refusal.ts';
import { evolveTransaction, initialTransaction } from './reservations/cart.ts';
import { decideReservation, emptyReservation } from './reservations/reservation.ts';
import { evolveRoom, initialRoomState, type RoomState } from './rooms/room.ts';
import { calendarRules, seatAnswer, seatsForCarts, type SeatRule } from './seat-rule.ts';
import { evolveSlot, initialSlotState, type SlotState } from './time-slots/time-slot.ts';
import { history } from './testing/given-when-then.ts';

/** Monday 23 November 2026, 10:00 in Vienna. */
const NOW = new Date('2026-11-23T09:00:00Z');
const local = localDateTime(NOW, 'Europe/Vienna');
const TODAY = local.date;
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const limits: BookingLimits = {
  holdMinutes: 15,
  maxCartTickets: 3,
  maxTicketsPerDay: 2,
  maxTicketsPerVisitor: 10,
};
const context = { now: NOW, today: TODAY, time: local.time, limits };

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ROOM = id(1);
const SLOT = id(2);
const TX = id(3);
const OWNER = 'c'.repeat(32);
const key = (n: number) => String(n).padStart(40, '0');
const offerId = (n: number) => String(n).padStart(32, '0');

const DEFAULT_OPENING = {
  openStart: { type: 'DAY', value: 0 },
  openEnd: { type: 'DAY', value: 2 },
} as const;

function room(waitlistOfferMinutes: number | null, ...more: (number | null)[]): RoomState {
  return roomOpen(DEFAULT_OPENING, waitlistOfferMinutes, ...more);
}

function roomOpen(
  opening: { openStart: OpenBound; openEnd: OpenBound },
  waitlistOfferMinutes: number | null,
  ...more: (number | null)[]
): RoomState {
  const created = RoomCreated.create({
    roomId: ROOM,
    name: 'Reading room',
    description: '',
    capacity: 10,
    ...opening,
  });
  const services = [waitlistOfferMinutes, ...more].map((minutes) =>
    RoomServicesChanged.create({
      roomId: ROOM,
      ...NO_ROOM_SERVICES,
      waitlistOfferMinutes: minutes,
    }),
  );
  return history(evolveRoom, initialRoomState, created, ...services);
}

function slot(
  date: string,
  startTime: string,
  capacity: number,
  ...events: (SlotTicketEvent | WaitlistEvent)[]
): SlotState {
  const created = TimeSlotCreated.create({
    timeSlotId: SLOT,
    roomId: ROOM,
    date,
    startTime,
    endTime: '18:00',
    capacity,
  });
  return history(evolveSlot, initialSlotState, created, ...events);
}

const booked = (n: number) => [
  TicketHeld.create({
    ticketId: id(100 + n),
    timeSlotId: SLOT,
    transactionId: id(200 + n),
    expiresAt: at(-60),
  }),
  TicketBooked.create({ ticketId: id(100 + n), ownerId: OWNER }),
];
const joined = (n: number) =>
  WaitlistJoined.create({
    entryId: id(300 + n),
    timeSlotId: SLOT,
    visitorKey: key(n),
    language: 'en',
    joinedAt: at(-30),
  });

/** The rule a new cart's add of the slot is refused with, null when it holds the seat. */
function addRefusal(
  state: SlotState,
  roomState: RoomState,
  cart = initialTransaction,
  holidays: ReadonlySet<string> = new Set(),
) {
  try {
    decideReservation(
      { type: 'AddTicket', data: { transactionId: TX, ticketId: id(9), timeSlotId: SLOT } },
      {
        ...emptyReservation,
        cart,
        slots: new Map([[SLOT, state]]),
        rooms: new Map([[ROOM, roomState]]),
        holidays: new Map([[ROOM, holidays]]),
      },
      context,
    );
    return null;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return 'rule' in err.refusal ? err.refusal.rule : err.code;
  }
}

describe('the seat rule', () => {
  it('keeps a freed seat for the people waiting while the waitlist can offer it', () => {
    const full = slot(TODAY, '14:00', 1, ...booked(1), joined(1));
    const freed = history(
      evolveSlot,
      full,
      TicketCancelled.create({ ticketId: id(101), ownerId: OWNER }),
    );
    expect(addRefusal(freed, room(30))).toBe('timeslot_no_tickets_left');
  });

  it("lets a cart take a freed seat once the room's waitlist is off: nobody would be offered it", () => {
    const full = slot(TODAY, '14:00', 1, ...booked(1), joined(1));
    const freed = history(
      evolveSlot,
      full,
      TicketCancelled.create({ ticketId: id(101), ownerId: OWNER }),
    );
    expect(addRefusal(freed, room(30, null))).toBeNull();
  });

  it('lets a cart take a seat released as a no-show after the slot started, though people wait', () => {
    const started = slot(TODAY, '09:30', 1, ...booked(1), joined(1));
    const released = history(
      evolveSlot,
      started,
      TicketNoShowReleased.create({ ticketId: id(101), ownerId: OWNER }),
    );
    expect(addRefusal(released, room(30))).toBeNull();
  });

  it('counts an outstanding offer as a taken seat whatever the waitlist setting', () => {
    const offered = slot(
      TODAY,
      '14:00',
      1,
      joined(1),
      SeatOffered.create({
        entryId: id(301),
        timeSlotId: SLOT,
        offerId: offerId(1),
        expiresAt: at(20),
      }),
    );
    expect(addRefusal(offered, room(30, null))).toBe('timeslot_no_tickets_left');
    expect(
      seatsForCarts({ capacity: 1, taken: 1, waiting: 0, waitlistOn: false, started: false }),
    ).toBe(0);
  });
});

// --- the calendar's answer equals the decider's ------------------------------------------------

type TicketFate = 'booked' | 'held' | 'heldPast' | 'released' | 'cancelled' | 'noShow';
type EntryFate = 'waiting' | 'offered' | 'offerPast' | 'lapsed';

function ticketEvents(fates: TicketFate[]): SlotTicketEvent[] {
  return fates.flatMap((fate, n): SlotTicketEvent[] => {
    const ticketId = id(100 + n);
    const held = (expiresAt: string) =>
      TicketHeld.create({ ticketId, timeSlotId: SLOT, transactionId: id(200 + n), expiresAt });
    switch (fate) {
      case 'booked':
        return booked(n);
      case 'held':
        return [held(at(10))];
      case 'heldPast':
        return [held(at(-1))];
      case 'released':
        return [held(at(10)), TicketReleased.create({ ticketId, reason: 'removed' })];
      case 'cancelled':
        return [...booked(n), TicketCancelled.create({ ticketId, ownerId: OWNER })];
      case 'noShow':
        return [...booked(n), TicketNoShowReleased.create({ ticketId, ownerId: OWNER })];
    }
  });
}

function entryEvents(fates: EntryFate[]): WaitlistEvent[] {
  return fates.flatMap((fate, n): WaitlistEvent[] => {
    const entryId = id(300 + n);
    const offer = (expiresAt: string) =>
      SeatOffered.create({ entryId, timeSlotId: SLOT, offerId: offerId(n), expiresAt });
    switch (fate) {
      case 'waiting':
        return [joined(n)];
      case 'offered':
        return [joined(n), offer(at(20))];
      case 'offerPast':
        return [joined(n), offer(at(-1))];
      case 'lapsed':
        return [
          joined(n),
          offer(at(-1)),
          SeatOfferLapsed.create({ entryId, timeSlotId: SLOT, offerId: offerId(n) }),
        ];
    }
  });
}

/**
 * The counts the visitor calendar reads from the read model (query-service visitorSlots): booked
 * tickets, holds whose cart has not expired, offers not yet past and the people waiting, each
 * counted from the events as the projections record them.
 */
function readModelCounts(tickets: TicketFate[], entries: EntryFate[]) {
  const count = <T>(list: T[], ...of: T[]) => list.filter((x) => of.includes(x)).length;
  return {
    taken: count(tickets, 'booked', 'held') + count(entries, 'offered'),
    waiting: count(entries, 'waiting'),
  };
}

const openBound = (min: number, max: number) =>
  fc.record({
    type: fc.constantFrom<OpenBound['type']>('DAY', 'WORKING_DAY'),
    value: fc.integer({ min, max }),
  });

describe('the visitor calendar and the cart decider', () => {
  it('give the same answer for every slot, room and cart', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.array(
          fc.constantFrom<TicketFate>(
            'booked',
            'held',
            'heldPast',
            'released',
            'cancelled',
            'noShow',
          ),
          { maxLength: 4 },
        ),
        fc.array(fc.constantFrom<EntryFate>('waiting', 'offered', 'offerPast', 'lapsed'), {
          maxLength: 3,
        }),
        fc.constantFrom<(number | null)[]>([], [30], [30, null], [null, 30]),
        fc.integer({ min: -1, max: 8 }),
        fc.constantFrom('08:00', '09:30', '10:00', '10:30', '14:00'),
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 2 }),
            fc.constantFrom('08:00', '13:00', '14:00', '16:00'),
          ),
          { maxLength: 3 },
        ),
        // The room's booking window in days or working days, and holidays among the next days.
        fc.record({ openStart: openBound(0, 2), openEnd: openBound(0, 5) }),
        fc.uniqueArray(fc.integer({ min: 0, max: 8 }), { maxLength: 3 }),
        (
          capacity,
          tickets,
          entries,
          offerSettings,
          dayN,
          startTime,
          cartSlots,
          opening,
          holidayDays,
        ) => {
          const date = addDays(TODAY, dayN);
          const state = slot(
            date,
            startTime,
            capacity,
            ...ticketEvents(tickets),
            ...entryEvents(entries),
          );
          const [first, ...more] = offerSettings;
          const roomState = roomOpen(opening, first ?? null, ...more);
          const holidays = holidayDays.map((d) => addDays(TODAY, d));
          const cart = history(
            evolveTransaction,
            initialTransaction,
            TransactionStarted.create({ transactionId: TX, expiresAt: at(10) }),
            ...cartSlots.map(([d, start], n) =>
              TicketAddedToTransaction.create({
                ticketId: id(500 + n),
                timeSlotId: id(600 + n),
                roomId: ROOM,
                date: addDays(TODAY, d),
                startTime: start,
                endTime: `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`,
                expiresAt: at(10),
              }),
            ),
          );
          const decided = addRefusal(state, roomState, cart, new Set(holidays));

          const counts = readModelCounts(tickets, entries);
          const answer = seatAnswer({
            slot: { timeSlotId: SLOT, date, startTime, endTime: '18:00' },
            closed: false,
            seats: {
              capacity,
              ...counts,
              waitlistOn: roomState.services.waitlistOfferMinutes !== null,
              started: date < TODAY || (date === TODAY && startTime <= local.time),
            },
            // As the query side reads a room's window: its rm_rooms columns and the holidays.
            window: roomBookingWindow(TODAY, {
              open_start_type: roomState.openStart!.type,
              open_start_value: roomState.openStart!.value,
              open_end_type: roomState.openEnd!.type,
              open_end_value: roomState.openEnd!.value,
              holidays,
            }),
            held: cart.tickets,
            limits,
          });
          // The calendar hides a slot that is not open and marks the others with calendarRules.
          const shown: SeatRule[] | null = answer.open ? calendarRules(answer) : null;
          if (shown === null) expect(decided).toBe('timeslot_not_open');
          else if (shown.length === 0) expect(decided).toBeNull();
          else {
            expect(decided).not.toBeNull();
            const rule = shown.find((r) => r !== 'timeslot_no_tickets_left') ?? shown[0];
            expect(decided).toBe(rule);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
