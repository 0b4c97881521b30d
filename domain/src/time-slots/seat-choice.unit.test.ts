import { FIRST_SITE_ID } from '@rr/contracts/sites';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TicketBooked,
  TicketCancelled,
  TimeSlotCreated,
  WaitlistJoined,
} from '@rr/events/catalogue';
import { NO_ROOM_SERVICES } from '@rr/contracts';
import { SEAT_ATTRIBUTES, type SeatAttribute } from '@rr/contracts/seats';
import { addDays, localDateTime } from '../calendar.ts';
import type { BookingLimits } from '../limits.ts';
import { Refused } from '../refusal.ts';
import type { RoomState } from '../rooms/room.ts';
import type { PlanSeat, SeatPlan } from '../rooms/seat-plan.ts';
import { seatsTaken, takesSeat } from '../seats.ts';
import { initialVisitor } from '../reservations/cart.ts';
import { decideReservation, emptyReservation } from '../reservations/reservation.ts';
import { initialBlacklistState } from '../blacklist/blacklist-entry.ts';
import { decideWaitlist } from '../waitlist/waitlist.ts';
import { outstandingOffers } from '../waitlist-line.ts';
import { changeSeat, freeSeats, offeredSeats, vacateSeat, type SeatWish } from './seat-choice.ts';
import { chooseSlotSeats } from './offered-seats.ts';
import { evolveSlot, initialSlotState, type SlotEvent, type SlotState } from './time-slot.ts';

/**
 * No seat twice (docs/product.md#seat-plans): generated plans (seats with attributes, some out of
 * service on the slot's day), and generated runs of cart adds (with a seat, attributes or no
 * wish), staff bookings, bookings, cancellations, the desk's seat moves, seats taken out of
 * service (their tickets vacated), waitlist joins, offers and offers taken, seats chosen for the
 * slot and the passing of time, each decided by its own decider on the slot as the run left it.
 * After every step no seat is held by two tickets or offers, no ticket holds a seat the slot does
 * not offer; an add with attributes gets a free seat having them whenever one is free, and a seat
 * without a wish whenever any is.
 */

const NOW = new Date('2026-11-23T09:00:00Z');
const TIME_ZONE = 'Europe/Vienna';
const TODAY = localDateTime(NOW, TIME_ZONE).date;
const SLOT_DAY = addDays(TODAY, 2);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ROOM = id(1);
const SLOT = id(2);
const OWNER = 'a'.repeat(32);

const limits: BookingLimits = {
  holdMinutes: 15,
  maxCartTickets: 5,
  maxTicketsPerDay: 2,
  maxTicketsPerVisitor: 10,
  noShowRule: { limit: 2, windowDays: 30, blockDays: 14 },
};

const attributes = fc.subarray([...SEAT_ATTRIBUTES], { maxLength: 3 });

const planArb = fc
  .array(fc.record({ attributes, outOfService: fc.boolean() }), { maxLength: 8 })
  .map((seats): SeatPlan => {
    const planSeats: PlanSeat[] = seats.map((s, i) => ({
      seatId: id(100 + i),
      label: `A${i + 1}`,
      attributes: [...s.attributes].sort(),
      x: i * 10,
      y: 10,
      rotation: 0,
    }));
    return {
      seats: planSeats,
      outOfService: seats.flatMap((s, i) =>
        s.outOfService
          ? [
              {
                outOfServiceId: id(300 + i),
                seatId: id(100 + i),
                from: SLOT_DAY,
                until: SLOT_DAY,
                reason: 'Broken lamp',
              },
            ]
          : [],
      ),
    };
  });

const wishArb: fc.Arbitrary<SeatWish | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 9 }).map((i) => ({ seatId: id(100 + i) })),
  attributes.filter((a) => a.length > 0).map((a) => ({ attributes: a })),
);

type Step =
  | { kind: 'add'; wish: SeatWish | undefined }
  | { kind: 'staff'; wish: SeatWish | undefined }
  | { kind: 'book'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'join' }
  | { kind: 'match' }
  | { kind: 'wait'; minutes: number }
  | { kind: 'choose'; seats: number[] | null }
  | { kind: 'move'; pick: number; seat: number }
  | { kind: 'out'; seat: number }
  | { kind: 'take'; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: wishArb.map((wish) => ({ kind: 'add' as const, wish })) },
  {
    weight: 1,
    arbitrary: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }).map((i) => ({
      kind: 'staff' as const,
      wish: i === undefined ? undefined : { seatId: id(100 + i) },
    })),
  },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'book' as const, pick })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'cancel' as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'join' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'match' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 40 })
      .map((minutes) => ({ kind: 'wait' as const, minutes })),
  },
  {
    weight: 1,
    arbitrary: fc
      .option(fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 }), {
        nil: null,
        freq: 4,
      })
      .map((seats) => ({ kind: 'choose' as const, seats })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ pick: fc.nat(), seat: fc.integer({ min: 0, max: 9 }) })
      .map((m) => ({ kind: 'move' as const, ...m })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 9 }).map((seat) => ({ kind: 'out' as const, seat })),
  },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'take' as const, pick })) },
);

const ctxAt = (now: Date) => {
  const local = localDateTime(now, TIME_ZONE);
  return { now, today: local.date, time: local.time, limits, timeZone: TIME_ZONE };
};

/** What the waitlist decides on for the slot of the run: a visitor with nothing held or blocked. */
const waitlistState = (slot: SlotState, room: RoomState) => ({
  slot,
  room,
  holidays: new Set<string>(),
  visitor: initialVisitor,
  blacklist: initialBlacklistState,
  noShows: [],
  held: new Map(),
});

/** The room of the slot, open for 60 days, with this plan and these services. */
const planRoom = (seatPlan: SeatPlan, services: RoomState['services']): RoomState => ({
  status: 'active',
  version: 1,
  siteId: FIRST_SITE_ID,
  hasImage: false,
  name: 'Plan room',
  seatPlan,
  openStart: { type: 'DAY', value: 0 },
  openEnd: { type: 'DAY', value: 60 },
  services,
});

/** The seat ids held now by the slot's tickets and offers, with repeats. */
function heldSeatIds(slot: SlotState, now: Date): string[] {
  return [
    ...[...slot.tickets.values()].flatMap((t) =>
      t.seat && takesSeat(t, now) ? [t.seat.seatId] : [],
    ),
    ...outstandingOffers(slot.waitlist, now).flatMap((o) =>
      o.offerSeat ? [o.offerSeat.seatId] : [],
    ),
  ];
}

function run(initialPlan: SeatPlan, capacity: number, steps: readonly Step[]): void {
  // Seats taken out of service during the run change the plan, and so the room.
  let plan = initialPlan;
  const roomOf = (p: SeatPlan) => planRoom(p, { ...NO_ROOM_SERVICES, waitlistOfferMinutes: 30 });
  let room = roomOf(plan);
  let slot = evolveSlot(
    initialSlotState,
    TimeSlotCreated.create({
      timeSlotId: SLOT,
      roomId: ROOM,
      date: SLOT_DAY,
      startTime: '10:00',
      endTime: '12:00',
      capacity,
    }),
  );
  let now = NOW;
  let n = 1000;
  const apply = (events: readonly SlotEvent[]) => {
    slot = events.reduce(evolveSlot, slot);
  };
  const ctx = () => ctxAt(now);
  let place = { rooms: new Map([[ROOM, room]]), holidays: new Map() };
  const attempt = (decide: () => { slots: Map<string, SlotEvent[]> }) => {
    try {
      apply(decide().slots.get(SLOT) ?? []);
      return null;
    } catch (err) {
      if (err instanceof Refused) return err;
      throw err;
    }
  };
  for (const step of steps) {
    n += 1;
    const before = slot;
    switch (step.kind) {
      case 'add': {
        const free = freeSeats(plan, before, now);
        const matching = free.filter((s) =>
          (step.wish?.attributes ?? []).every((a: SeatAttribute) => s.attributes.includes(a)),
        );
        const waiting = (before.waitlist ?? []).some((e) => e.status === 'waiting');
        const refusal = attempt(() =>
          decideReservation(
            {
              type: 'AddTicket',
              data: {
                transactionId: id(n),
                ticketId: id(n + 5000),
                timeSlotId: SLOT,
                seat: step.wish,
              },
            },
            { ...emptyReservation, slots: new Map([[SLOT, before]]), ...place },
            ctx(),
          ),
        );
        const given = slot.tickets.get(id(n + 5000))?.seat;
        if (given) {
          expect(free.map((s) => s.seatId)).toContain(given.seatId);
          if (step.wish?.seatId) expect(given.seatId).toBe(step.wish.seatId);
          for (const a of step.wish?.attributes ?? [])
            expect(plan.seats.find((s) => s.seatId === given.seatId)?.attributes).toContain(a);
        }
        if (plan.seats.length > 0 && !refusal) expect(given).toBeDefined();
        // "Any seat" gets a matching free seat whenever one is free and the capacity allows.
        const room_ = seatsTaken(before, now) < capacity && !waiting;
        if (room_ && !step.wish?.seatId && plan.seats.length > 0)
          expect(refusal === null).toBe(matching.length > 0);
        break;
      }
      case 'staff':
        attempt(() =>
          decideReservation(
            {
              type: 'StaffBook',
              data: {
                transactionId: id(n),
                ticketId: id(n + 5000),
                timeSlotId: SLOT,
                roomId: ROOM,
                ownerId: OWNER,
                bookingNumber: 'R-STAFF',
                visitorKey: 'b'.repeat(40),
                language: 'de',
                seat: step.wish,
              },
            },
            { ...emptyReservation, slots: new Map([[SLOT, before]]), ...place },
            ctx(),
          ),
        );
        break;
      case 'book': {
        const held = [...before.tickets].filter(([, t]) => t.status === 'NEW' && takesSeat(t, now));
        const pick = held[step.pick % Math.max(1, held.length)];
        if (pick) apply([TicketBooked.create({ ticketId: pick[0], ownerId: OWNER })]);
        break;
      }
      case 'cancel': {
        const booked = [...before.tickets].filter(([, t]) => t.status === 'BOOKED');
        const pick = booked[step.pick % Math.max(1, booked.length)];
        if (pick) apply([TicketCancelled.create({ ticketId: pick[0], ownerId: OWNER })]);
        break;
      }
      case 'join':
        apply([
          WaitlistJoined.create({
            entryId: id(n),
            timeSlotId: SLOT,
            visitorKey: n.toString(16).padStart(40, '0'),
            language: 'de',
            joinedAt: now.toISOString(),
          }),
        ]);
        break;
      case 'match': {
        const d = decideWaitlist(
          { type: 'MatchWaitlist', data: { timeSlotId: SLOT } },
          waitlistState(before, room),
          { ...ctx(), newOfferId: () => n.toString(16).padStart(32, '0') },
        );
        apply(d.slot);
        break;
      }
      case 'wait':
        now = new Date(now.getTime() + step.minutes * 60_000);
        break;
      case 'choose': {
        const seatIds = step.seats?.map((i) => id(100 + i)) ?? null;
        let refusal: Refused | null = null;
        try {
          apply(chooseSlotSeats(before, plan, { timeSlotId: SLOT, roomId: ROOM, seatIds }, now));
        } catch (err) {
          if (!(err instanceof Refused)) throw err;
          refusal = err;
        }
        const unknown = (seatIds ?? []).some((i) => !plan.seats.some((s) => s.seatId === i));
        const noPlan = seatIds !== null && plan.seats.length === 0;
        // Only seats not on the plan, or seats in use no offered seat is free for, refuse it.
        if (unknown || noPlan) expect(refusal?.code).toBe('validation__error');
        else if (refusal) expect(refusal.code).toBe('timeslot__seats_in_use');
        // The choice is a set: the same seats in another order change nothing.
        else
          expect(slot.seatIds ? [...slot.seatIds].sort() : null).toEqual(
            seatIds === null ? null : [...new Set(seatIds)].sort(),
          );
        break;
      }
    }
    if (step.kind === 'move' || step.kind === 'out' || step.kind === 'take') {
      const changed = moveStep(step, { slot, plan, room, now, n });
      apply(changed.events);
      plan = changed.plan;
      room = roomOf(plan);
      place = { rooms: new Map([[ROOM, room]]), holidays: new Map() };
    }
    // A ticket holds only a seat the slot offers and that is in service on its day.
    const offeredNow = new Set(offeredSeats(plan, slot).map((s) => s.seatId));
    for (const t of slot.tickets.values())
      if (t.seat && takesSeat(t, now))
        expect(
          offeredNow.has(t.seat.seatId),
          `ticket on seat ${t.seat.seatId} after ${step.kind}`,
        ).toBe(true);
    const held = heldSeatIds(slot, now);
    expect(new Set(held).size, `a seat held twice after ${step.kind}`).toBe(held.length);
    for (const seatId of held) expect(plan.seats.some((s) => s.seatId === seatId)).toBe(true);
    // No seat outside the seats the slot offers is ever held (exam places).
    const offered = slot.seatIds;
    if (offered)
      for (const seatId of held)
        expect(offered, `seat ${seatId} held but not offered after ${step.kind}`).toContain(seatId);
  }
}

type MoveStep = Extract<Step, { kind: 'move' | 'out' | 'take' }>;

/**
 * A desk's move of a booked ticket to a seat, a seat taken out of service on the slot's day (its
 * tickets vacated: moved, or cancelled as the command does after), or a waitlist offer taken.
 * Refusals change nothing; what succeeds is checked against the seats free before it.
 */
function moveStep(
  step: MoveStep,
  at: { slot: SlotState; plan: SeatPlan; room: RoomState; now: Date; n: number },
): { events: SlotEvent[]; plan: SeatPlan } {
  const { slot, plan, now, n } = at;
  const free = new Set(freeSeats(plan, slot, now).map((s) => s.seatId));
  switch (step.kind) {
    case 'move': {
      const booked = [...slot.tickets].filter(([, t]) => t.status === 'BOOKED');
      const pick = booked[step.pick % Math.max(1, booked.length)];
      if (!pick) return { events: [], plan };
      const seatId = id(100 + step.seat);
      try {
        const events = changeSeat(
          slot,
          plan,
          { timeSlotId: SLOT, ticketId: pick[0], wish: { seatId } },
          now,
        );
        if (events.length) expect(free.has(seatId)).toBe(true);
        return { events, plan };
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        expect(free.has(seatId) && pick[1].seat?.seatId !== seatId).toBe(false);
        return { events: [], plan };
      }
    }
    case 'out': {
      const seatId = id(100 + step.seat);
      if (!plan.seats.some((s) => s.seatId === seatId)) return { events: [], plan };
      const range = {
        outOfServiceId: id(n),
        seatId,
        from: SLOT_DAY,
        until: SLOT_DAY,
        reason: 'lamp',
      };
      const next: SeatPlan = { ...plan, outOfService: [...plan.outOfService, range] };
      const vacated = vacateSeat(slot, next, seatId, { now, timeSlotId: SLOT, reason: 'lamp' });
      const cancelled = vacated.cancel.map((t) => TicketCancelled.create(t));
      return { events: [...vacated.events, ...cancelled], plan: next };
    }
    case 'take': {
      const offers = outstandingOffers(slot.waitlist, now);
      const offer = offers[step.pick % Math.max(1, offers.length)];
      if (!offer?.offerId) return { events: [], plan };
      try {
        const d = decideWaitlist(
          {
            type: 'TakeSeatOffer',
            data: {
              timeSlotId: SLOT,
              offerId: offer.offerId,
              transactionId: id(n),
              ticketId: id(n + 5000),
            },
          },
          waitlistState(slot, at.room),
          { ...ctxAt(now), newOfferId: () => n.toString(16).padStart(32, '0') },
        );
        return { events: d.slot, plan };
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        return { events: [], plan };
      }
    }
  }
}

describe('a staff booking in a room with a seat plan', () => {
  it('asked not to overbook, is refused when no seat of the plan is free, though the capacity is not reached', () => {
    const plan: SeatPlan = {
      seats: [{ seatId: id(100), label: 'A1', attributes: [], x: 0, y: 0, rotation: 0 }],
      outOfService: [],
    };
    const room = planRoom(plan, NO_ROOM_SERVICES);
    const slot = evolveSlot(
      initialSlotState,
      TimeSlotCreated.create({
        timeSlotId: SLOT,
        roomId: ROOM,
        date: SLOT_DAY,
        startTime: '10:00',
        endTime: '12:00',
        capacity: 5,
      }),
    );
    const local = localDateTime(NOW, TIME_ZONE);
    const book = (confirmOverbooking: boolean, state: SlotState, n: number) =>
      decideReservation(
        {
          type: 'StaffBook',
          data: {
            transactionId: id(n),
            ticketId: id(n + 1),
            timeSlotId: SLOT,
            roomId: ROOM,
            ownerId: OWNER,
            bookingNumber: 'R-STAFF',
            visitorKey: 'b'.repeat(40),
            language: 'de',
            confirmOverbooking,
          },
        },
        { ...emptyReservation, slots: new Map([[SLOT, state]]), rooms: new Map([[ROOM, room]]) },
        { now: NOW, today: local.date, time: local.time, limits, timeZone: TIME_ZONE },
      );
    const first = book(false, slot, 10).slots.get(SLOT) ?? [];
    const after = first.reduce(evolveSlot, slot);
    expect(after.tickets.get(id(11))?.seat?.label).toBe('A1');
    expect(() => book(false, after, 20)).toThrow('full');
    const beyond = (book(true, after, 30).slots.get(SLOT) ?? []).reduce(evolveSlot, after);
    expect(beyond.tickets.get(id(31))?.status).toBe('BOOKED');
    expect(beyond.tickets.get(id(31))?.seat).toBeUndefined();
  });
});

describe('seats of a plan under generated runs', () => {
  it('never gives a seat twice, never one the slot does not offer, and "any seat" finds a matching free seat whenever one is free', () => {
    fc.assert(
      fc.property(
        planArb,
        fc.integer({ min: 1, max: 10 }),
        fc.array(stepArb, { maxLength: 40 }),
        run,
      ),
      { numRuns: 400 },
    );
  });
});

describe('a waitlist offer whose seat is taken out of service before it is taken', () => {
  const seat = (n: number, attributes: SeatAttribute[]) => ({
    seatId: id(100 + n),
    label: `A${n + 1}`,
    attributes,
    x: n,
    y: 0,
    rotation: 0,
  });
  const plan: SeatPlan = {
    seats: [seat(0, ['power']), seat(1, []), seat(2, ['power', 'window'])],
    outOfService: [],
  };
  const room = planRoom(plan, { ...NO_ROOM_SERVICES, waitlistOfferMinutes: 30 });
  const offered = () => {
    let slot = evolveSlot(
      initialSlotState,
      TimeSlotCreated.create({
        timeSlotId: SLOT,
        roomId: ROOM,
        date: SLOT_DAY,
        startTime: '10:00',
        endTime: '12:00',
        capacity: 1,
      }),
    );
    slot = evolveSlot(
      slot,
      WaitlistJoined.create({
        entryId: id(50),
        timeSlotId: SLOT,
        visitorKey: 'c'.repeat(40),
        language: 'de',
        joinedAt: NOW.toISOString(),
      }),
    );
    const d = decideWaitlist(
      { type: 'MatchWaitlist', data: { timeSlotId: SLOT } },
      waitlistState(slot, room),
      { ...ctxAt(NOW), newOfferId: () => 'f'.repeat(32) },
    );
    return d.slot.reduce(evolveSlot, slot);
  };
  const take = (slot: SlotState, outOf: number[]) => {
    const out: SeatPlan = {
      ...plan,
      outOfService: outOf.map((n) => ({
        outOfServiceId: id(60 + n),
        seatId: id(100 + n),
        from: SLOT_DAY,
        until: SLOT_DAY,
        reason: 'lamp',
      })),
    };
    const d = decideWaitlist(
      {
        type: 'TakeSeatOffer',
        data: {
          timeSlotId: SLOT,
          offerId: 'f'.repeat(32),
          transactionId: id(70),
          ticketId: id(71),
        },
      },
      waitlistState(slot, planRoom(out, room.services)),
      { ...ctxAt(NOW), newOfferId: () => 'e'.repeat(32) },
    );
    return d.slot.reduce(evolveSlot, slot).tickets.get(id(71))?.seat?.label;
  };

  it('gives its taker a free seat of the same kind, else any free seat, else lapses', () => {
    const slot = offered();
    // The offer holds the seat with the fewest attributes: A2.
    expect(outstandingOffers(slot.waitlist, NOW)[0]?.offerSeat?.label).toBe('A2');
    expect(take(slot, [])).toBe('A2');
    // A2 out of service: A1 has every attribute of A2 (none) and the fewest beyond.
    expect(take(slot, [1])).toBe('A1');
    expect(take(slot, [1, 0])).toBe('A3');
    expect(() => take(slot, [0, 1, 2])).toThrow(Refused);
  });
});
