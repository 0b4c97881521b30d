import {
  TicketAddedToTransaction,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  TicketHoldExtended,
  TicketReleased,
  TicketRemovedFromTransaction,
  TransactionBooked,
  TransactionExpired,
  TransactionRemoved,
  TransactionStarted,
  TransactionTouched,
  VisitorTicketCancelled,
  VisitorTicketsBooked,
  type CartTicket,
  type NewEvent,
  type TransactionEvent,
  type VisitorEvent,
} from '@rr/events';
import { cartRules, timesOverlap } from '@rr/domain';
import { defaultBookingLimits, Problem, problems, type BookingLimits } from '@rr/platform';
import { seatsTaken, type SlotState } from '../timeslots/decider.ts';

export type { BookingLimits };

/** The limits of an empty configuration (platform/src/config.ts): for tests and scripts. */
export const defaultLimits: BookingLimits = defaultBookingLimits;

// --- state -------------------------------------------------------------------------------------

export interface TransactionState {
  status: 'none' | 'open' | 'booked' | 'removed' | 'expired';
  version: number;
  transactionId: string;
  expiresAt: string | null;
  tickets: CartTicket[];
  ownerId: string | null;
}

export const initialTransaction: TransactionState = {
  status: 'none',
  version: 0,
  transactionId: '',
  expiresAt: null,
  tickets: [],
  ownerId: null,
};

export function evolveTransaction(
  state: TransactionState,
  event: TransactionEvent,
): TransactionState {
  const version = state.version + 1;
  switch (event.type) {
    case 'TransactionStarted':
      return {
        ...state,
        version,
        status: 'open',
        transactionId: event.data.transactionId,
        expiresAt: event.data.expiresAt,
      };
    case 'TicketAddedToTransaction': {
      const { expiresAt, ...ticket } = event.data;
      return { ...state, version, expiresAt, tickets: [...state.tickets, ticket] };
    }
    case 'TicketRemovedFromTransaction':
      return {
        ...state,
        version,
        tickets: state.tickets.filter((t) => t.ticketId !== event.data.ticketId),
      };
    case 'TransactionTouched':
      return { ...state, version, expiresAt: event.data.expiresAt };
    case 'TransactionBooked':
      return { ...state, version, status: 'booked', ownerId: event.data.ownerId };
    case 'TransactionRemoved':
      return { ...state, version, status: 'removed' };
    case 'TransactionExpired':
      return { ...state, version, status: 'expired' };
    case 'PersonalDataErased':
    case 'OwnerDataChanged':
      return { ...state, version };
  }
}

export interface VisitorTicket {
  ticketId: string;
  date: string;
  startTime: string;
  endTime: string;
  cancelled: boolean;
}

export interface VisitorState {
  version: number;
  tickets: VisitorTicket[];
}

export const initialVisitor: VisitorState = { version: 0, tickets: [] };

export function evolveVisitor(state: VisitorState, event: VisitorEvent): VisitorState {
  const version = state.version + 1;
  switch (event.type) {
    case 'VisitorTicketsBooked':
      return {
        version,
        tickets: [...state.tickets, ...event.data.tickets.map((t) => ({ ...t, cancelled: false }))],
      };
    case 'VisitorTicketCancelled':
      return {
        version,
        tickets: state.tickets.map((t) =>
          t.ticketId === event.data.ticketId ? { ...t, cancelled: true } : t,
        ),
      };
  }
}

// --- refusals ----------------------------------------------------------------------------------

/** A refused ticket: `ticket__validation_error` with the rule as payload (spec section 8). */
export const ticketRefused = (rule: string, status = 409) =>
  new Problem(status, 'ticket__validation_error', 'The ticket cannot be added', [rule]);
export const transactionExpired = () =>
  new Problem(409, 'transaction__expired', 'The reservation cart has expired');

export function isExpired(state: TransactionState, now: Date): boolean {
  return state.status === 'open' && state.expiresAt !== null && new Date(state.expiresAt) <= now;
}

function mustBeOpen(state: TransactionState, now: Date): void {
  if (state.status === 'none' || state.status === 'removed') throw problems.notFound('Transaction');
  if (state.status === 'booked')
    throw new Problem(409, 'transaction__already_booked', 'The reservation was booked already');
  if (state.status === 'expired' || isExpired(state, now)) throw transactionExpired();
}

const expiry = (now: Date, limits: BookingLimits) =>
  new Date(now.getTime() + limits.holdMinutes * 60_000).toISOString();

/** Events for several streams, keyed by stream: the cart, and each slot it touches. */
export interface Decision {
  transaction: NewEvent[];
  slots: Map<string, NewEvent[]>;
}

function pushSlot(d: Decision, timeSlotId: string, e: NewEvent): void {
  const list = d.slots.get(timeSlotId) ?? [];
  list.push(e);
  d.slots.set(timeSlotId, list);
}

/** Every hold of the cart lives until the cart's new expiry. */
function extendHolds(d: Decision, tickets: CartTicket[], expiresAt: string): void {
  for (const t of tickets)
    pushSlot(d, t.timeSlotId, TicketHoldExtended.create({ ticketId: t.ticketId, expiresAt }));
}

// --- commands ----------------------------------------------------------------------------------

export interface AddTicket {
  transactionId: string;
  ticketId: string;
  slot: SlotState;
  timeSlotId: string;
  /** The slot lies in the room's booking window (checked by the caller with the clock and holidays). */
  open: boolean;
}

/** Pure: hold a seat of a slot in a cart (creating the cart on its first ticket). */
export function decideAddTicket(
  cart: TransactionState,
  cmd: AddTicket,
  now: Date,
  limits: BookingLimits,
): Decision {
  if (cart.status !== 'none') mustBeOpen(cart, now);
  const slot = cmd.slot;
  if (slot.status !== 'active') throw problems.notFound('Time slot');
  if (!cmd.open || slot.capacity <= 0) throw ticketRefused('timeslot_not_open');
  // The rules of the cart itself, shared with the calendar's marks (@rr/domain cart-rules.ts).
  const adding = {
    timeSlotId: cmd.timeSlotId,
    date: slot.date,
    startTime: slot.startTime,
    endTime: slot.endTime,
  };
  const [rule] = cartRules(cart.tickets, adding, limits);
  if (rule) throw ticketRefused(rule);
  if (seatsTaken(slot, now) >= slot.capacity) throw ticketRefused('timeslot_no_tickets_left');
  const expiresAt = expiry(now, limits);
  const d: Decision = { transaction: [], slots: new Map() };
  if (cart.status === 'none')
    d.transaction.push(TransactionStarted.create({ transactionId: cmd.transactionId, expiresAt }));
  const ticket: CartTicket = {
    ticketId: cmd.ticketId,
    timeSlotId: cmd.timeSlotId,
    roomId: slot.roomId,
    date: slot.date,
    startTime: slot.startTime,
    endTime: slot.endTime,
  };
  d.transaction.push(TicketAddedToTransaction.create({ ...ticket, expiresAt }));
  pushSlot(
    d,
    cmd.timeSlotId,
    TicketHeld.create({
      ticketId: cmd.ticketId,
      timeSlotId: cmd.timeSlotId,
      transactionId: cmd.transactionId,
      expiresAt,
    }),
  );
  extendHolds(d, cart.tickets, expiresAt);
  return d;
}

export function decideRemoveTicket(cart: TransactionState, ticketId: string, now: Date): Decision {
  mustBeOpen(cart, now);
  const ticket = cart.tickets.find((t) => t.ticketId === ticketId);
  if (!ticket) throw problems.notFound('Ticket');
  const d: Decision = {
    transaction: [TicketRemovedFromTransaction.create({ ticketId })],
    slots: new Map(),
  };
  pushSlot(d, ticket.timeSlotId, TicketReleased.create({ ticketId, reason: 'removed' }));
  return d;
}

export function decideTouch(cart: TransactionState, now: Date, limits: BookingLimits): Decision {
  mustBeOpen(cart, now);
  const expiresAt = expiry(now, limits);
  const d: Decision = { transaction: [TransactionTouched.create({ expiresAt })], slots: new Map() };
  extendHolds(d, cart.tickets, expiresAt);
  return d;
}

/** The visitor (or the panic button) removes the cart: every hold is released at once. */
export function decideRemoveTransaction(cart: TransactionState): Decision {
  if (cart.status === 'none' || cart.status === 'removed') throw problems.notFound('Transaction');
  if (cart.status === 'booked')
    throw new Problem(409, 'transaction__already_booked', 'The reservation was booked already');
  const d: Decision = {
    transaction: [TransactionRemoved.create({ transactionId: cart.transactionId })],
    slots: new Map(),
  };
  if (cart.status === 'open')
    for (const t of cart.tickets)
      pushSlot(
        d,
        t.timeSlotId,
        TicketReleased.create({ ticketId: t.ticketId, reason: 'transaction_removed' }),
      );
  return d;
}

/** The expiry job: an open cart past its expiry becomes expired and its holds are released (history complete). */
export function decideExpire(cart: TransactionState, now: Date): Decision {
  const d: Decision = { transaction: [], slots: new Map() };
  if (!isExpired(cart, now)) return d;
  d.transaction.push(TransactionExpired.create({ transactionId: cart.transactionId }));
  for (const t of cart.tickets)
    pushSlot(d, t.timeSlotId, TicketReleased.create({ ticketId: t.ticketId, reason: 'expired' }));
  return d;
}

export interface BookCommand {
  ownerId: string;
  bookingNumber: string;
  visitorKey: string;
  language: 'de' | 'en';
  today: string;
  blacklisted: boolean;
  slots: Map<string, SlotState>;
}

export interface BookDecision extends Decision {
  visitor: NewEvent[];
}

/** Pure: book the cart for a visitor, checking the per-visitor limits on the visitor's own stream. */
export function decideBook(
  cart: TransactionState,
  visitor: VisitorState,
  cmd: BookCommand,
  now: Date,
  limits: BookingLimits,
): BookDecision {
  mustBeOpen(cart, now);
  if (cart.tickets.length === 0)
    throw new Problem(409, 'transaction__empty', 'The reservation cart is empty');
  if (cmd.blacklisted)
    throw new Problem(403, 'booking__email_blacklisted', 'This e-mail address may not book');
  for (const t of cart.tickets) {
    const held = cmd.slots.get(t.timeSlotId)?.tickets[t.ticketId];
    if (!held || held.status !== 'NEW') throw transactionExpired();
  }
  const active = visitor.tickets.filter((t) => !t.cancelled);
  for (const t of cart.tickets) {
    if (active.some((b) => b.date === t.date && timesOverlap(b, t)))
      throw ticketRefused('max_tickets_per_time_reached');
  }
  const dates = new Set(cart.tickets.map((t) => t.date));
  for (const date of dates) {
    const count =
      active.filter((b) => b.date === date).length +
      cart.tickets.filter((t) => t.date === date).length;
    if (count > limits.maxTicketsPerDay) throw ticketRefused('max_tickets_per_day_reached');
  }
  const future = active.filter((b) => b.date >= cmd.today).length;
  if (future + cart.tickets.length > limits.maxTicketsPerVisitor)
    throw ticketRefused('max_tickets_by_user_reached');

  const d: BookDecision = {
    transaction: [
      TransactionBooked.create({
        transactionId: cart.transactionId,
        ownerId: cmd.ownerId,
        bookingNumber: cmd.bookingNumber,
        visitorKey: cmd.visitorKey,
        language: cmd.language,
        ticketIds: cart.tickets.map((t) => t.ticketId),
      }),
    ],
    slots: new Map(),
    visitor: [
      VisitorTicketsBooked.create({
        ownerId: cmd.ownerId,
        tickets: cart.tickets.map(({ ticketId, date, startTime, endTime }) => ({
          ticketId,
          date,
          startTime,
          endTime,
        })),
      }),
    ],
  };
  for (const t of cart.tickets)
    pushSlot(d, t.timeSlotId, TicketBooked.create({ ticketId: t.ticketId, ownerId: cmd.ownerId }));
  return d;
}

/** Whether a booked ticket can still be cancelled: its slot has not started yet (local time). */
export function isCancelable(
  status: string,
  slot: { date: string; startTime: string },
  localNow: { date: string; time: string },
): boolean {
  if (status !== 'BOOKED') return false;
  return (
    slot.date > localNow.date || (slot.date === localNow.date && slot.startTime > localNow.time)
  );
}

/** Pure: cancel booked tickets of an owner (visitor link or staff). */
export function decideCancel(
  slot: SlotState,
  ticketId: string,
  ownerId: string,
  localNow: { date: string; time: string },
): { slot: NewEvent[]; visitor: NewEvent[] } {
  const t = slot.tickets[ticketId];
  if (!t || t.ownerId !== ownerId) throw problems.notFound('Ticket');
  if (!isCancelable(t.status, slot, localNow))
    throw new Problem(409, 'ticket__not_cancelable', 'The ticket cannot be cancelled any more');
  return {
    slot: [TicketCancelled.create({ ticketId, ownerId })],
    visitor: [VisitorTicketCancelled.create({ ticketId })],
  };
}
