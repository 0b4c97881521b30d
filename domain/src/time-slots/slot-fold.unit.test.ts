import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evolveSlot,
  evolveSlotWith,
  initialSlotState,
  type SlotEvent,
  type SlotState,
} from './time-slot.ts';

/**
 * A slot's events fold one by one (the decider's evolve) or as one run (a stream read from its
 * start, a command's events): both must give the same state, its tickets in the order first held
 * (the order a hold keeps its seat by), and leave every state they started from as it was.
 */

const TICKETS = ['t-1', 't-2', 't-3', 't-4', 't-5', 't-6'];
const ticketId = fc.constantFrom(...TICKETS);
const instant = fc
  .integer({ min: 0, max: 10_000 })
  .map((m) => new Date(Date.UTC(2027, 0, 1) + m * 60_000).toISOString());
const seat = fc.constantFrom('A1', 'A2', 'B7').map((id) => ({ seatId: id, label: id }));

const event = <T extends SlotEvent['type']>(type: T, data: object) =>
  ({ type, data }) as unknown as SlotEvent; // the fold reads type and data only

const slotEvent: fc.Arbitrary<SlotEvent> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(ticketId, instant, fc.option(seat, { nil: undefined }))
      .map(([id, expiresAt, s]) =>
        event('TicketHeld', {
          ticketId: id,
          timeSlotId: 'slot',
          transactionId: `cart-${id}`,
          expiresAt,
          ...(s ? { seat: s } : {}),
        }),
      ),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(ticketId, instant)
      .map(([id, expiresAt]) => event('TicketHoldExtended', { ticketId: id, expiresAt })),
  },
  ...(
    [
      'TicketReleased',
      'TicketConfirmed',
      'TicketConfirmationLapsed',
      'TicketCancelled',
      'TicketCheckInUndone',
      'TicketNoShowReleased',
    ] as const
  ).map((type) => ({
    weight: 1,
    arbitrary: ticketId.map((id) => event(type, { ticketId: id, ownerId: 'owner' })),
  })),
  {
    weight: 2,
    arbitrary: fc
      .tuple(ticketId, fc.option(instant, { nil: undefined }))
      .map(([id, confirmBy]) =>
        event('TicketBooked', { ticketId: id, ownerId: `owner-${id}`, confirmBy }),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(ticketId, instant)
      .map(([id, at]) => event('TicketCheckedIn', { ticketId: id, checkedInAt: at })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(ticketId, seat)
      .map(([id, s]) => event('TicketSeatChanged', { ticketId: id, seat: s })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 50 }).map((capacity) =>
      event('TimeSlotCreated', {
        timeSlotId: 'slot',
        roomId: 'room',
        date: '2027-01-04',
        startTime: '09:00',
        endTime: '11:00',
        capacity,
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 50 })
      .map((capacity) => event('TimeSlotCapacityChanged', { capacity })),
  },
  {
    weight: 1,
    arbitrary: fc
      .option(fc.array(fc.constantFrom('A1', 'A2', 'B7'), { maxLength: 3 }), { nil: null })
      .map((seatIds) => event('TimeSlotSeatsChosen', { seatIds })),
  },
  { weight: 1, arbitrary: fc.constant(event('TimeSlotDeleted', {})) },
  {
    weight: 1,
    arbitrary: fc.constant(event('TimeSlotClosed', { closureId: 'c', reason: 'Flooded' })),
  },
);

/** The state with its tickets as [id, ticket] pairs in their order, to compare the order too. */
const inOrder = (s: SlotState) => ({
  ...s,
  tickets: [...s.tickets].map(([id, t]) => [id, { ...t }]),
});

/** The tickets' order a slot keeps: each ticket where it was first held. */
const firstHeld = (events: readonly SlotEvent[]) => [
  ...new Set(events.flatMap((e) => (e.type === 'TicketHeld' ? [e.data.ticketId] : []))),
];

describe('the slot fold', () => {
  it('folds a run of events as one by one, its tickets in the order first held', () => {
    fc.assert(
      fc.property(
        fc.array(slotEvent, { maxLength: 40 }),
        fc.array(slotEvent, { maxLength: 120 }),
        (before, run) => {
          const start = before.reduce(evolveSlot, initialSlotState);
          const together = evolveSlotWith(start, run);
          expect(inOrder(together)).toEqual(inOrder(run.reduce(evolveSlot, start)));
          expect([...together.tickets.keys()]).toEqual(firstHeld([...before, ...run]));
          expect(together.version).toBe(before.length + run.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves every state it folded from as it was (the cache and a decision share them)', () => {
    fc.assert(
      fc.property(
        fc.array(slotEvent, { maxLength: 40 }),
        fc.array(slotEvent, { minLength: 1, maxLength: 60 }),
        fc.array(slotEvent, { minLength: 1, maxLength: 60 }),
        (before, one, other) => {
          const start = before.reduce(evolveSlot, initialSlotState);
          const startSeen = inOrder(start);
          const first = evolveSlotWith(start, one);
          const firstSeen = inOrder(first);
          // Another run from the same state, and one on top of the first, one event at a time.
          evolveSlotWith(start, other);
          other.reduce(evolveSlot, first);
          expect(inOrder(start)).toEqual(startSeen);
          expect(inOrder(first)).toEqual(firstSeen);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives back the state itself for no events', () => {
    const state = evolveSlot(initialSlotState, event('TimeSlotDeleted', {}));
    expect(evolveSlotWith(state, [])).toBe(state);
  });
});
