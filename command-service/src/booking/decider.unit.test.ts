import { describe, expect, it } from 'vitest';
import type { NewEvent, TransactionEvent, VisitorEvent } from '@rr/events';
import { Problem } from '@rr/platform';
import {
  evolveSlot,
  initialSlotState,
  type SlotEvent,
  type SlotState,
} from '../timeslots/decider.ts';
import {
  decideAddTicket,
  decideBook,
  decideCancel,
  decideExpire,
  decideRemoveTicket,
  decideRemoveTransaction,
  decideTouch,
  defaultLimits,
  evolveTransaction,
  evolveVisitor,
  initialTransaction,
  initialVisitor,
  isCancelable,
  type Decision,
  type TransactionState,
} from './decider.ts';

const NOW = new Date('2026-11-23T09:00:00Z');
const ROOM = '0b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const TX = '1b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const OWNER = 'a'.repeat(32);
const KEY = 'b'.repeat(40);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function slotState(
  n: number,
  date: string,
  start: string,
  end: string,
  capacity: number,
  ...events: SlotEvent[]
): SlotState {
  const created: SlotEvent = {
    type: 'TimeSlotCreated',
    data: { timeSlotId: id(n), roomId: ROOM, date, startTime: start, endTime: end, capacity },
  };
  return [created, ...events].reduce(evolveSlot, initialSlotState);
}
const held = (ticket: number, slot: number, expiresAt: string, tx = id(900)): SlotEvent => ({
  type: 'TicketHeld',
  data: { ticketId: id(ticket), timeSlotId: id(slot), transactionId: tx, expiresAt },
});

/** Applies a decision's cart events to the cart state (given/when/then on the cart stream). */
function applyCart(state: TransactionState, d: Decision): TransactionState {
  return (d.transaction as unknown as TransactionEvent[]).reduce(evolveTransaction, state);
}
function add(cart: TransactionState, slot: SlotState, ticket: number, open = true, now = NOW) {
  return decideAddTicket(
    cart,
    {
      transactionId: TX,
      ticketId: id(ticket),
      slot,
      timeSlotId: slot.date ? idOf(slot) : id(0),
      open,
    },
    now,
    defaultLimits,
  );
}
/** Slots in these tests are identified by their start hour and day. */
const idOf = (slot: SlotState) =>
  id(Number(slot.startTime.slice(0, 2)) * 100 + Number(slot.date.slice(8, 10)));
function slot(date: string, start: string, end: string, capacity: number, ...events: SlotEvent[]) {
  return slotState(
    Number(start.slice(0, 2)) * 100 + Number(date.slice(8, 10)),
    date,
    start,
    end,
    capacity,
    ...events,
  );
}
function refusal(fn: () => unknown): Problem {
  try {
    fn();
  } catch (err) {
    if (err instanceof Problem) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}
const types = (events: NewEvent[]) => events.map((e) => e.type);

describe('adding tickets to the cart', () => {
  it('starts the cart with its first ticket and holds the seat for 15 minutes', () => {
    const s = slot('2026-12-01', '09:00', '10:00', 2);
    const d = add(initialTransaction, s, 1);
    expect(types(d.transaction)).toEqual(['TransactionStarted', 'TicketAddedToTransaction']);
    const expiresAt = new Date(NOW.getTime() + 15 * 60_000).toISOString();
    expect(d.slots.get(idOf(s))).toEqual([
      {
        type: 'TicketHeld',
        data: { ticketId: id(1), timeSlotId: idOf(s), transactionId: TX, expiresAt },
      },
    ]);
  });

  it('refuses a full slot, counting holds and bookings but not expired holds', () => {
    const later = new Date(NOW.getTime() + 60_000).toISOString();
    const earlier = new Date(NOW.getTime() - 1).toISOString();
    const full = slot('2026-12-01', '09:00', '10:00', 2, held(1, 901, later), held(2, 901, later), {
      type: 'TicketBooked',
      data: { ticketId: id(2), ownerId: OWNER },
    });
    expect(refusal(() => add(initialTransaction, full, 3)).payload).toEqual([
      'timeslot_no_tickets_left',
    ]);
    const withExpired = slot(
      '2026-12-01',
      '09:00',
      '10:00',
      2,
      held(1, 901, later),
      held(2, 901, earlier),
    );
    expect(types(add(initialTransaction, withExpired, 3).transaction)).toContain(
      'TicketAddedToTransaction',
    );
    const released = slot('2026-12-01', '09:00', '10:00', 1, held(1, 901, later), {
      type: 'TicketReleased',
      data: { ticketId: id(1), reason: 'removed' },
    });
    expect(add(initialTransaction, released, 3).slots.size).toBe(1);
    const cancelled = slot(
      '2026-12-01',
      '09:00',
      '10:00',
      1,
      held(1, 901, later),
      { type: 'TicketBooked', data: { ticketId: id(1), ownerId: OWNER } },
      { type: 'TicketCancelled', data: { ticketId: id(1), ownerId: OWNER } },
    );
    expect(add(initialTransaction, cancelled, 3).slots.size).toBe(1);
  });

  it('refuses slots outside the booking window or without capacity (timeslot_not_open)', () => {
    expect(
      refusal(() => add(initialTransaction, slot('2026-12-01', '09:00', '10:00', 5), 1, false))
        .payload,
    ).toEqual(['timeslot_not_open']);
    expect(
      refusal(() => add(initialTransaction, slot('2026-12-01', '09:00', '10:00', 0), 1, true))
        .payload,
    ).toEqual(['timeslot_not_open']);
    expect(refusal(() => add(initialTransaction, initialSlotState, 1)).status).toBe(404);
  });

  it('refuses the same slot twice, an overlapping slot, and a sixth ticket', () => {
    const a = slot('2026-12-01', '09:00', '11:00', 5);
    let cart = applyCart(initialTransaction, add(initialTransaction, a, 1));
    expect(refusal(() => add(cart, a, 2)).payload).toEqual(['timeslot_already_in_transaction']);
    expect(refusal(() => add(cart, slot('2026-12-01', '10:00', '12:00', 5), 2)).payload).toEqual([
      'max_tickets_per_time_reached',
    ]);
    // Touching ends and other days are fine.
    cart = applyCart(cart, add(cart, slot('2026-12-01', '11:00', '12:00', 5), 2));
    for (const [i, d] of ['2026-12-02', '2026-12-03', '2026-12-04'].entries())
      cart = applyCart(cart, add(cart, slot(d, '09:00', '11:00', 5), 3 + i));
    expect(cart.tickets).toHaveLength(5);
    expect(refusal(() => add(cart, slot('2026-12-07', '09:00', '11:00', 5), 9)).payload).toEqual([
      'max_tickets_per_transaction_reached',
    ]);
  });

  it('refuses a ticket beyond the per-day maximum and any ticket of a cart at the per-visitor maximum', () => {
    const limits = { ...defaultLimits, maxCartTickets: 3, maxTicketsPerDay: 1 };
    const addWith = (cart: TransactionState, s: SlotState, ticket: number, l = limits) =>
      decideAddTicket(
        cart,
        { transactionId: TX, ticketId: id(ticket), slot: s, timeSlotId: idOf(s), open: true },
        NOW,
        l,
      );
    let cart = applyCart(
      initialTransaction,
      addWith(initialTransaction, slot('2026-12-01', '09:00', '10:00', 5), 1),
    );
    expect(
      refusal(() => addWith(cart, slot('2026-12-01', '14:00', '15:00', 5), 2)).payload,
    ).toEqual(['max_tickets_per_day_reached']);
    cart = applyCart(cart, addWith(cart, slot('2026-12-02', '09:00', '10:00', 5), 3));
    const few = { ...limits, maxTicketsPerVisitor: 2 };
    expect(
      refusal(() => addWith(cart, slot('2026-12-03', '09:00', '10:00', 5), 4, few)).payload,
    ).toEqual(['max_tickets_by_user_reached']);
    cart = applyCart(cart, addWith(cart, slot('2026-12-03', '09:00', '10:00', 5), 4));
    expect(
      refusal(() => addWith(cart, slot('2026-12-04', '09:00', '10:00', 5), 5)).payload,
    ).toEqual(['max_tickets_per_transaction_reached']);
  });

  it('extends every earlier hold of the cart to the new expiry', () => {
    const a = slot('2026-12-01', '09:00', '10:00', 5);
    const cart = applyCart(initialTransaction, add(initialTransaction, a, 1));
    const later = new Date(NOW.getTime() + 5 * 60_000);
    const d = add(cart, slot('2026-12-02', '09:00', '10:00', 5), 2, true, later);
    expect(d.slots.get(idOf(a))).toEqual([
      {
        type: 'TicketHoldExtended',
        data: { ticketId: id(1), expiresAt: new Date(later.getTime() + 15 * 60_000).toISOString() },
      },
    ]);
  });

  it('refuses any change to an expired cart', () => {
    const cart = applyCart(
      initialTransaction,
      add(initialTransaction, slot('2026-12-01', '09:00', '10:00', 5), 1),
    );
    const late = new Date(NOW.getTime() + 15 * 60_000);
    expect(
      refusal(() => add(cart, slot('2026-12-02', '09:00', '10:00', 5), 2, true, late)).error,
    ).toBe('transaction__expired');
    expect(refusal(() => decideTouch(cart, late, defaultLimits)).error).toBe(
      'transaction__expired',
    );
    expect(refusal(() => decideRemoveTicket(cart, id(1), late)).error).toBe('transaction__expired');
  });
});

describe('cart upkeep', () => {
  const a = slot('2026-12-01', '09:00', '10:00', 5);
  const cart = applyCart(initialTransaction, add(initialTransaction, a, 1));

  it('touch moves the expiry of the cart and its holds', () => {
    const d = decideTouch(cart, new Date(NOW.getTime() + 60_000), defaultLimits);
    expect(types(d.transaction)).toEqual(['TransactionTouched']);
    expect(types(d.slots.get(idOf(a))!)).toEqual(['TicketHoldExtended']);
  });

  it('removing a ticket releases its seat; removing the cart releases all', () => {
    const d = decideRemoveTicket(cart, id(1), NOW);
    expect(d.slots.get(idOf(a))).toEqual([
      { type: 'TicketReleased', data: { ticketId: id(1), reason: 'removed' } },
    ]);
    expect(refusal(() => decideRemoveTicket(cart, id(7), NOW)).status).toBe(404);
    const all = decideRemoveTransaction(cart);
    expect(types(all.transaction)).toEqual(['TransactionRemoved']);
    expect(all.slots.get(idOf(a))![0]!.data).toEqual({
      ticketId: id(1),
      reason: 'transaction_removed',
    });
  });

  it('expiry happens only once the time has passed', () => {
    expect(decideExpire(cart, NOW).transaction).toEqual([]);
    const d = decideExpire(cart, new Date(NOW.getTime() + 15 * 60_000));
    expect(types(d.transaction)).toEqual(['TransactionExpired']);
    expect(d.slots.get(idOf(a))![0]!.data).toEqual({ ticketId: id(1), reason: 'expired' });
    expect(
      decideExpire(applyCart(cart, d), new Date(NOW.getTime() + 60 * 60_000)).transaction,
    ).toEqual([]);
  });
});

describe('booking', () => {
  function cartWith(...slots: SlotState[]) {
    let cart = initialTransaction;
    const states = new Map<string, SlotState>();
    for (const [i, s] of slots.entries()) {
      const d = add(cart, s, 100 + i);
      cart = applyCart(cart, d);
      for (const [slotId, events] of d.slots)
        states.set(
          slotId,
          (events as unknown as SlotEvent[]).reduce(evolveSlot, states.get(slotId) ?? s),
        );
    }
    return { cart, states };
  }
  const cmd = (
    states: Map<string, SlotState>,
    over: Partial<Parameters<typeof decideBook>[2]> = {},
  ) => ({
    ownerId: OWNER,
    bookingNumber: 'R-ABCDEF',
    visitorKey: KEY,
    language: 'de' as const,
    today: '2026-11-23',
    blacklisted: false,
    slots: states,
    ...over,
  });
  const visitorWith = (...tickets: [string, string, string][]) =>
    (
      tickets.map(([date, startTime, endTime], i) => ({
        type: 'VisitorTicketsBooked',
        data: { ownerId: OWNER, tickets: [{ ticketId: id(500 + i), date, startTime, endTime }] },
      })) as VisitorEvent[]
    ).reduce(evolveVisitor, initialVisitor);

  it('books every ticket of the cart for the owner, on the cart, the slots and the visitor stream', () => {
    const { cart, states } = cartWith(
      slot('2026-12-01', '09:00', '10:00', 5),
      slot('2026-12-02', '09:00', '10:00', 5),
    );
    const d = decideBook(cart, initialVisitor, cmd(states), NOW, defaultLimits);
    expect(types(d.transaction)).toEqual(['TransactionBooked']);
    expect([...d.slots.values()].flat().map((e) => e.type)).toEqual([
      'TicketBooked',
      'TicketBooked',
    ]);
    expect(types(d.visitor)).toEqual(['VisitorTicketsBooked']);
  });

  it('refuses more than the maximum per day, counting earlier bookings of the visitor', () => {
    const { cart, states } = cartWith(
      slot('2026-12-01', '09:00', '10:00', 5),
      slot('2026-12-01', '11:00', '12:00', 5),
    );
    expect(() => decideBook(cart, initialVisitor, cmd(states), NOW, defaultLimits)).not.toThrow();
    const earlier = visitorWith(['2026-12-01', '14:00', '15:00']);
    expect(
      refusal(() => decideBook(cart, earlier, cmd(states), NOW, defaultLimits)).payload,
    ).toEqual(['max_tickets_per_day_reached']);
    // A cancelled earlier booking does not count.
    const cancelled = evolveVisitor(earlier, {
      type: 'VisitorTicketCancelled',
      data: { ticketId: id(500) },
    });
    expect(() => decideBook(cart, cancelled, cmd(states), NOW, defaultLimits)).not.toThrow();
  });

  it('refuses more than the maximum in total (future bookings only) and overlaps with an earlier booking', () => {
    const { cart, states } = cartWith(slot('2026-12-10', '09:00', '10:00', 5));
    const nine = visitorWith(
      ...Array.from(
        { length: 10 },
        (_, i) =>
          [`2026-12-${String(11 + i).padStart(2, '0')}`, '09:00', '10:00'] as [
            string,
            string,
            string,
          ],
      ),
    );
    expect(refusal(() => decideBook(cart, nine, cmd(states), NOW, defaultLimits)).payload).toEqual([
      'max_tickets_by_user_reached',
    ]);
    const past = visitorWith(
      ...Array.from(
        { length: 10 },
        (_, i) =>
          [`2026-10-${String(11 + i).padStart(2, '0')}`, '09:00', '10:00'] as [
            string,
            string,
            string,
          ],
      ),
    );
    expect(() => decideBook(cart, past, cmd(states), NOW, defaultLimits)).not.toThrow();
    const overlapping = visitorWith(['2026-12-10', '09:30', '11:00']);
    expect(
      refusal(() => decideBook(cart, overlapping, cmd(states), NOW, defaultLimits)).payload,
    ).toEqual(['max_tickets_per_time_reached']);
  });

  it('refuses blacklisted visitors, expired and empty carts, and holds released meanwhile', () => {
    const { cart, states } = cartWith(slot('2026-12-01', '09:00', '10:00', 5));
    expect(
      refusal(() =>
        decideBook(cart, initialVisitor, cmd(states, { blacklisted: true }), NOW, defaultLimits),
      ).error,
    ).toBe('booking__email_blacklisted');
    expect(
      refusal(() =>
        decideBook(
          cart,
          initialVisitor,
          cmd(states),
          new Date(NOW.getTime() + 16 * 60_000),
          defaultLimits,
        ),
      ).error,
    ).toBe('transaction__expired');
    const emptied = applyCart(cart, decideRemoveTicket(cart, id(100), NOW));
    expect(
      refusal(() => decideBook(emptied, initialVisitor, cmd(states), NOW, defaultLimits)).error,
    ).toBe('transaction__empty');
    const [slotId, s] = [...states][0]!;
    const released = new Map([
      [
        slotId,
        evolveSlot(s, { type: 'TicketReleased', data: { ticketId: id(100), reason: 'expired' } }),
      ],
    ]);
    expect(
      refusal(() => decideBook(cart, initialVisitor, cmd(released), NOW, defaultLimits)).error,
    ).toBe('transaction__expired');
  });
});

describe('cancelling', () => {
  const booked = slot('2026-12-01', '09:00', '10:00', 5, held(1, 901, '2026-11-23T09:15:00.000Z'), {
    type: 'TicketBooked',
    data: { ticketId: id(1), ownerId: OWNER },
  });

  it('cancels a booked ticket of the owner before its slot starts', () => {
    const d = decideCancel(booked, id(1), OWNER, { date: '2026-11-23', time: '10:00' });
    expect(types(d.slot)).toEqual(['TicketCancelled']);
    expect(types(d.visitor)).toEqual(['VisitorTicketCancelled']);
  });

  it('refuses once the slot has started, for another owner, or twice', () => {
    expect(
      refusal(() => decideCancel(booked, id(1), OWNER, { date: '2026-12-01', time: '09:00' }))
        .error,
    ).toBe('ticket__not_cancelable');
    expect(
      refusal(() =>
        decideCancel(booked, id(1), 'c'.repeat(32), { date: '2026-11-23', time: '10:00' }),
      ).status,
    ).toBe(404);
    const cancelled = evolveSlot(booked, {
      type: 'TicketCancelled',
      data: { ticketId: id(1), ownerId: OWNER },
    });
    expect(
      refusal(() => decideCancel(cancelled, id(1), OWNER, { date: '2026-11-23', time: '10:00' }))
        .error,
    ).toBe('ticket__not_cancelable');
  });

  it('cancelable means booked and not started (local time)', () => {
    expect(
      isCancelable(
        'BOOKED',
        { date: '2026-12-01', startTime: '09:00' },
        { date: '2026-12-01', time: '08:59' },
      ),
    ).toBe(true);
    expect(
      isCancelable(
        'BOOKED',
        { date: '2026-12-01', startTime: '09:00' },
        { date: '2026-12-01', time: '09:00' },
      ),
    ).toBe(false);
    expect(
      isCancelable(
        'NEW',
        { date: '2026-12-01', startTime: '09:00' },
        { date: '2026-11-01', time: '09:00' },
      ),
    ).toBe(false);
  });
});
