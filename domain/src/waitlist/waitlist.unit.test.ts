import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BlacklistEntryAdded,
  RoomCreated,
  RoomServicesChanged,
  SeatOfferLapsed,
  SeatOfferTaken,
  SeatOffered,
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  TimeSlotCapacityChanged,
  TimeSlotCreated,
  TimeSlotDeleted,
  TransactionStarted,
  VisitorTicketsBooked,
  WaitlistEntryBackInLine,
  WaitlistEntryErased,
  WaitlistEntryPassedOver,
  WaitlistJoined,
} from '@rr/events/catalogue';
import { addDays, localDateTime } from '../calendar.ts';
import { history, scenario } from '../testing/given-when-then.ts';
import { evolveBlacklist, initialBlacklistState } from '../blacklist/blacklist-entry.ts';
import { evolveRoom, initialRoomState } from '../rooms/room.ts';
import { evolveVisitor, initialVisitor } from '../reservations/cart.ts';
import { decideReservation, emptyReservation } from '../reservations/reservation.ts';
import { evolveSlot, initialSlotState, type SlotEvent } from '../time-slots/time-slot.ts';
import { seatsTaken, slotSeatsAt } from '../seats.ts';
import { seatsForCarts } from '../seat-rule.ts';
import {
  decideWaitlist,
  type WaitlistCommand,
  type WaitlistContext,
  type WaitlistState,
} from './waitlist.ts';
import { instantOf } from '../calendar.ts';

/** Monday 23 November 2026, 10:00 in Vienna: every decision here is made at this instant. */
const NOW = new Date('2026-11-23T09:00:00Z');
const local = localDateTime(NOW, 'Europe/Vienna');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ROOM = id(1);
const SLOT = id(2);
const KEY = 'b'.repeat(40);
const OTHER = 'c'.repeat(40);
const offerIds = ['1'.repeat(32), '2'.repeat(32), '3'.repeat(32)];

const limits = {
  holdMinutes: 15,
  maxCartTickets: 5,
  maxTicketsPerDay: 2,
  maxTicketsPerVisitor: 10,
};
function context(): WaitlistContext {
  let n = 0;
  return {
    now: NOW,
    today: local.date,
    time: local.time,
    limits,
    timeZone: 'Europe/Vienna',
    newOfferId: () => offerIds[n++]!,
  };
}
const waitlist = () => scenario(decideWaitlist, context());

const room = (offerMinutes: number | null) =>
  history(
    evolveRoom,
    initialRoomState,
    RoomCreated.create({
      roomId: ROOM,
      name: 'Reading room',
      description: '',
      capacity: 10,
      openStart: { type: 'DAY', value: 0 },
      openEnd: { type: 'DAY', value: 60 },
    }),
    RoomServicesChanged.create({
      roomId: ROOM,
      checkInMinutesBefore: null,
      noShowReleaseMinutes: null,
      waitlistOfferMinutes: offerMinutes,
      reminderHoursBefore: null,
    }),
  );

/** A slot `days` ahead at `startTime` with `capacity` seats, all booked by others, then `events`. */
function fullSlot(capacity: number, days = 1, startTime = '10:00', ...events: SlotEvent[]) {
  const booked = Array.from({ length: capacity }, (_, i) => [
    TicketHeld.create({
      ticketId: id(100 + i),
      timeSlotId: SLOT,
      transactionId: id(200 + i),
      expiresAt: at(-60),
    }),
    TicketBooked.create({ ticketId: id(100 + i), ownerId: 'a'.repeat(32) }),
  ]).flat();
  return history(
    evolveSlot,
    initialSlotState,
    TimeSlotCreated.create({
      timeSlotId: SLOT,
      roomId: ROOM,
      date: addDays(local.date, days),
      startTime,
      endTime: '12:00',
      capacity,
    }),
    ...booked,
    ...events,
  );
}

const state = (slot = fullSlot(2), offerMinutes: number | null = 30): WaitlistState => ({
  slot,
  room: room(offerMinutes),
  holidays: new Set(),
  visitor: initialVisitor,
  blacklist: initialBlacklistState,
  // What a join loads of the person (the command side always does): no no-show releases.
  noShows: [],
});

const join = (entry: number, visitorKey = KEY): WaitlistCommand => ({
  type: 'JoinWaitlist',
  data: { entryId: id(entry), timeSlotId: SLOT, visitorKey, language: 'en' },
});
const joined = (entry: number, visitorKey = KEY) =>
  WaitlistJoined.create({
    entryId: id(entry),
    timeSlotId: SLOT,
    visitorKey,
    language: 'en',
    joinedAt: at(0),
  });
const match: WaitlistCommand = { type: 'MatchWaitlist', data: { timeSlotId: SLOT } };
const cancelled = (seat: number) =>
  TicketCancelled.create({ ticketId: id(100 + seat), ownerId: 'a'.repeat(32) });

describe('joining the waitlist', () => {
  it('a full slot of a room with a waitlist takes the visitor in line', () => {
    waitlist()
      .given(state())
      .when(join(10))
      .then({ slot: [joined(10)], transaction: [] });
  });

  it('a room without a waitlist refuses', () => {
    waitlist()
      .given(state(fullSlot(2), null))
      .when(join(10))
      .thenRefused('waitlist__not_available');
  });

  it('a slot with a free seat refuses: the visitor should book', () => {
    waitlist()
      .given(state(fullSlot(2, 1, '10:00', cancelled(0))))
      .when(join(10))
      .thenRefused('waitlist__seats_free');
  });

  it('the same visitor cannot wait twice for one slot', () => {
    waitlist()
      .given(state(fullSlot(2, 1, '10:00', joined(10))))
      .when(join(11))
      .thenRefused('waitlist__already_joined');
  });

  it('a blacklisted address is refused as a booking is', () => {
    const blacklist = history(
      evolveBlacklist,
      initialBlacklistState,
      BlacklistEntryAdded.create({ entryKey: KEY, expiredAt: addDays(local.date, 30) }),
    );
    waitlist()
      .given({ ...state(), blacklist })
      .when(join(10))
      .thenRefused('booking__email_blacklisted');
  });

  it('the per-visitor limits apply as if the slot were booked', () => {
    const day = addDays(local.date, 1);
    const visitor = history(
      evolveVisitor,
      initialVisitor,
      VisitorTicketsBooked.create({
        ownerId: 'd'.repeat(32),
        tickets: [
          { ticketId: id(300), date: day, startTime: '08:00', endTime: '09:00' },
          { ticketId: id(301), date: day, startTime: '13:00', endTime: '14:00' },
        ],
      }),
    );
    waitlist()
      .given({ ...state(), visitor })
      .when(join(10))
      // The day and the limit named, as a cart's refusal names them.
      .thenRefused('ticket__validation_error', {
        rule: 'max_tickets_per_day_reached',
        date: day,
        maxTicketsPerDay: 2,
      });
  });

  it('a slot that has started takes nobody in line', () => {
    waitlist()
      .given(state(fullSlot(2, 0, '09:00')))
      .when(join(10))
      .thenRefused('ticket__validation_error', { rule: 'timeslot_not_open' });
  });
});

describe('offers', () => {
  it('a freed seat goes to the first in line, held for the offer time', () => {
    const slot = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0));
    waitlist()
      .given(state(slot))
      .when(match)
      .then({
        slot: [
          SeatOffered.create({
            entryId: id(10),
            timeSlotId: SLOT,
            offerId: offerIds[0]!,
            expiresAt: at(30),
          }),
        ],
        transaction: [],
      });
  });

  it('an offer holds its seat like a cart: no cart and no second offer takes it', () => {
    const offered = SeatOffered.create({
      entryId: id(10),
      timeSlotId: SLOT,
      offerId: offerIds[0]!,
      expiresAt: at(30),
    });
    const slot = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0), offered);
    expect(seatsTaken(slot, NOW)).toBe(2);
    waitlist().given(state(slot)).when(match).then({ slot: [], transaction: [] });
    // A cart is refused the seat even when nobody else waited.
    const alone = fullSlot(2, 1, '10:00', joined(10), cancelled(0), offered);
    scenario(decideReservation, { ...context(), limits })
      .given({
        ...emptyReservation,
        slots: new Map([[SLOT, alone]]),
        rooms: new Map([[ROOM, room(30)]]),
      })
      .when({
        type: 'AddTicket',
        data: { transactionId: id(500), ticketId: id(501), timeSlotId: SLOT },
      })
      .thenRefused('ticket__validation_error', { rule: 'timeslot_no_tickets_left' });
  });

  it("while visitors wait, a freed seat is theirs, not a cart's", () => {
    const slot = fullSlot(2, 1, '10:00', joined(10), cancelled(0));
    scenario(decideReservation, { ...context(), limits })
      .given({
        ...emptyReservation,
        slots: new Map([[SLOT, slot]]),
        rooms: new Map([[ROOM, room(30)]]),
      })
      .when({
        type: 'AddTicket',
        data: { transactionId: id(500), ticketId: id(501), timeSlotId: SLOT },
      })
      .thenRefused('ticket__validation_error', { rule: 'timeslot_no_tickets_left' });
  });

  it('an offer never lasts past the slot start', () => {
    const slot = fullSlot(2, 0, '10:10', joined(10), cancelled(0));
    waitlist()
      .given(state(slot))
      .when(match)
      .then((d) => {
        expect(d.slot[0]!.data).toMatchObject({
          expiresAt: instantOf(addDays(local.date, 0), '10:10', 'Europe/Vienna').toISOString(),
        });
      });
  });

  it('capacity raised by two offers two seats, in line order', () => {
    const slot = fullSlot(
      2,
      1,
      '10:00',
      joined(10),
      joined(11, OTHER),
      joined(12, 'e'.repeat(40)),
      TimeSlotCapacityChanged.create({ timeSlotId: SLOT, roomId: ROOM, capacity: 4 }),
    );
    waitlist()
      .given(state(slot))
      .when(match)
      .then((d) =>
        expect(d.slot.map((e) => (e.data as { entryId: string }).entryId)).toEqual([
          id(10),
          id(11),
        ]),
      );
  });

  it('an offer not taken in time lapses and its seat goes to the next in line', () => {
    const offered = SeatOffered.create({
      entryId: id(10),
      timeSlotId: SLOT,
      offerId: offerIds[2]!,
      expiresAt: at(30),
    });
    const slot = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0), offered);
    waitlist()
      .given(state(slot))
      .when(match, { now: later(31) })
      .then({
        slot: [
          SeatOfferLapsed.create({ entryId: id(10), timeSlotId: SLOT, offerId: offerIds[2]! }),
          SeatOffered.create({
            entryId: id(11),
            timeSlotId: SLOT,
            offerId: offerIds[0]!,
            expiresAt: at(61),
          }),
        ],
        transaction: [],
      });
  });
});

describe('taking an offer', () => {
  const offered = SeatOffered.create({
    entryId: id(10),
    timeSlotId: SLOT,
    offerId: offerIds[0]!,
    expiresAt: at(30),
  });
  const slot = fullSlot(2, 1, '10:00', joined(10), cancelled(0), offered);
  const take: WaitlistCommand = {
    type: 'TakeSeatOffer',
    data: { timeSlotId: SLOT, offerId: offerIds[0]!, transactionId: id(600), ticketId: id(601) },
  };

  it("the offer's seat becomes the first hold of a new cart", () => {
    const ticket = {
      ticketId: id(601),
      timeSlotId: SLOT,
      roomId: ROOM,
      date: addDays(local.date, 1),
      startTime: '10:00',
      endTime: '12:00',
    };
    const d = waitlist()
      .given(state(slot))
      .when(take)
      .then({
        slot: [
          SeatOfferTaken.create({
            entryId: id(10),
            timeSlotId: SLOT,
            offerId: offerIds[0]!,
            ticketId: id(601),
            transactionId: id(600),
          }),
          TicketHeld.create({
            ticketId: id(601),
            timeSlotId: SLOT,
            transactionId: id(600),
            expiresAt: at(15),
          }),
        ],
        transaction: [
          TransactionStarted.create({ transactionId: id(600), expiresAt: at(15) }),
          TicketAddedToTransaction.create({ ...ticket, expiresAt: at(15) }),
        ],
      });
    // Counted once: the offer's hold is gone, the cart's holds the seat.
    const after = d.slot.reduce((s, e) => evolveSlot(s, e as unknown as SlotEvent), slot);
    expect(seatsTaken(after, NOW)).toBe(2);
  });

  it('a lapsed offer is refused', () => {
    waitlist()
      .given(state(slot))
      .when(take, { now: later(30) })
      .thenRefused('waitlist__offer_not_valid');
  });

  it('a used offer is refused', () => {
    const used = SeatOfferTaken.create({
      entryId: id(10),
      timeSlotId: SLOT,
      offerId: offerIds[0]!,
      ticketId: id(601),
      transactionId: id(600),
    });
    waitlist()
      .given(state(fullSlot(2, 1, '10:00', joined(10), cancelled(0), offered, used)))
      .when(take)
      .thenRefused('waitlist__offer_not_valid');
  });

  it('an unknown offer is not found', () => {
    waitlist()
      .given(state(slot))
      .when({ ...take, data: { ...take.data, offerId: 'f'.repeat(32) } })
      .thenRefused('not_found');
  });
});

describe('erasing the entries of a past slot', () => {
  const erase = (...entries: number[]): WaitlistCommand => ({
    type: 'EraseWaitlistEntries',
    data: { timeSlotId: SLOT, entryIds: entries.map(id) },
  });
  const erased = (entry: number) =>
    WaitlistEntryErased.create({ entryId: id(entry), timeSlotId: SLOT });

  it('records each entry in line once (WaitlistEntryErased on the slot), whatever its status', () => {
    const line = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER));
    waitlist()
      .given(state(line))
      .when(erase(10, 11))
      .then({ slot: [erased(10), erased(11)], transaction: [] });
    const after = history(evolveSlot, line, erased(10));
    expect(after.waitlist?.find((e) => e.entryId === id(10))?.erased).toBe(true);
    expect(after.version).toBe(line.version + 1);
    waitlist()
      .given(state(after))
      .when(erase(10, 11))
      .then({ slot: [erased(11)], transaction: [] });
  });

  it('records nothing for entries not in the line, and erases on a deleted slot too', () => {
    const line = fullSlot(2, 1, '10:00', joined(10));
    waitlist().given(state(line)).when(erase(12)).then({ slot: [], transaction: [] });
    const deleted = history(
      evolveSlot,
      line,
      TimeSlotDeleted.create({ timeSlotId: SLOT, roomId: ROOM }),
    );
    waitlist()
      .given(state(deleted))
      .when(erase(10))
      .then({ slot: [erased(10)], transaction: [] });
  });
});

describe('offers and the per-visitor limits', () => {
  const day = addDays(local.date, 1);
  const seat = (startTime: string, endTime: string, timeSlotId = '') => ({
    timeSlotId,
    date: day,
    startTime,
    endTime,
  });
  const THIRD = 'e'.repeat(40);
  const passedOver = (entry: number) =>
    WaitlistEntryPassedOver.create({ entryId: id(entry), timeSlotId: SLOT });
  const backInLine = (entry: number) =>
    WaitlistEntryBackInLine.create({ entryId: id(entry), timeSlotId: SLOT });
  const offeredTo = (entry: number, n = 0) =>
    SeatOffered.create({
      entryId: id(entry),
      timeSlotId: SLOT,
      offerId: offerIds[n]!,
      expiresAt: at(30),
    });

  it('someone holding the day limit by bookings and offers elsewhere is passed over and keeps waiting', () => {
    const slot = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0));
    // KEY holds one booking and one offer of another slot that day: two, the day's limit.
    const held = new Map([[KEY, [seat('08:00', '09:00'), seat('13:00', '14:00', id(3))]]]);
    waitlist()
      .given({ ...state(slot), held })
      .when(match)
      .then({ slot: [passedOver(10), offeredTo(11)], transaction: [] });
  });

  it('an overlapping seat held elsewhere passes the person over as well', () => {
    const slot = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0));
    const held = new Map([[KEY, [seat('11:00', '13:00', id(3))]]]);
    waitlist()
      .given({ ...state(slot), held })
      .when(match)
      .then({ slot: [passedOver(10), offeredTo(11)], transaction: [] });
  });

  it('nobody who may take it: no offer, and the one waiting is passed over', () => {
    const slot = fullSlot(2, 1, '10:00', joined(10), cancelled(0));
    const held = new Map([[KEY, [seat('08:00', '09:00'), seat('13:00', '14:00')]]]);
    waitlist()
      .given({ ...state(slot), held })
      .when(match)
      .then({ slot: [passedOver(10)], transaction: [] });
  });

  it('all waiting barred by the day limit: both passed over, the freed seat goes to a cart; a cancellation elsewhere lets one be offered a seat again', () => {
    const bothAtLimit = new Map([
      [KEY, [seat('07:00', '08:00'), seat('13:00', '14:00')]],
      [OTHER, [seat('07:00', '08:00'), seat('14:00', '15:00')]],
    ]);
    const freed = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0));
    waitlist()
      .given({ ...state(freed), held: bothAtLimit })
      .when(match)
      .then({ slot: [passedOver(10), passedOver(11)], transaction: [] });

    // Passed over, they keep their places but claim the seat no more: a cart may take it.
    const passed = [passedOver(10), passedOver(11)].reduce(evolveSlot, freed);
    expect(passed.waitlist?.map((e) => e.status)).toEqual(['waiting', 'waiting']);
    expect(seatsForCarts(slotSeatsAt(passed, true, context()))).toBe(1);
    scenario(decideReservation, { ...context(), limits })
      .given({
        ...emptyReservation,
        slots: new Map([[SLOT, passed]]),
        rooms: new Map([[ROOM, room(30)]]),
      })
      .when({
        type: 'AddTicket',
        data: { transactionId: id(500), ticketId: id(501), timeSlotId: SLOT },
      })
      .then((d) => expect(d.slots.get(SLOT)?.map((e) => e.type)).toEqual(['TicketHeld']));

    // The second in line cancelled a booking of that day: below its limit, it is offered the
    // seat at the next match; the first stays passed over and gets no second event.
    const oneFree = new Map([...bothAtLimit, [OTHER, [seat('07:00', '08:00')]]]);
    waitlist()
      .given({ ...state(passed), held: oneFree })
      .when(match)
      .then({ slot: [offeredTo(11)], transaction: [] });
  });

  it('with passing over off (a rolling upgrade from a release that cannot fold it): nobody is recorded passed over, as before', () => {
    const slot = fullSlot(2, 1, '10:00', joined(10), joined(11, OTHER), cancelled(0));
    const held = new Map([[KEY, [seat('08:00', '09:00'), seat('13:00', '14:00')]]]);
    scenario(decideWaitlist, { ...context(), passOver: false })
      .given({ ...state(slot), held })
      .when(match)
      .then({ slot: [offeredTo(11)], transaction: [] });
  });

  it('passed over and allowed again while no seat is free: back in line, claiming the next freed seat', () => {
    const full = fullSlot(2, 1, '10:00', joined(10), passedOver(10));
    expect(seatsForCarts(slotSeatsAt(full, true, context()))).toBe(0);
    waitlist()
      .given({ ...state(full), held: new Map() })
      .when(match)
      .then({ slot: [backInLine(10)], transaction: [] });
    const back = [backInLine(10), cancelled(0)].reduce(evolveSlot, full);
    expect(seatsForCarts(slotSeatsAt(back, true, context()))).toBe(0);
  });

  it('the offers go in line order to exactly those the limits let take one, never more than are free', () => {
    const keys = [KEY, OTHER, THIRD];
    const times = ['07:00', '08:00', '13:00', '14:00'] as const;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 1, max: 2 }),
        (heldCounts, freed) => {
          const held = new Map(
            keys.map((k, i) => [
              k,
              times.slice(0, heldCounts[i]).map((t) => seat(t, `${t.slice(0, 2)}:30`)),
            ]),
          );
          const slot = fullSlot(
            2,
            1,
            '10:00',
            ...keys.map((k, i) => joined(10 + i, k)),
            ...Array.from({ length: freed }, (_, i) => cancelled(i)),
          );
          const d = decideWaitlist(match, { ...state(slot), held }, context());
          const offered = d.slot.filter((e) => e.type === 'SeatOffered').map((e) => e.data.entryId);
          const eligible = keys
            .map((_, i) => i)
            .filter((i) => heldCounts[i]! < limits.maxTicketsPerDay)
            .map((i) => id(10 + i));
          expect(offered).toEqual(eligible.slice(0, freed));
        },
      ),
    );
  });
});
