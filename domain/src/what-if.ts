import { TicketReleased, type SlotTicketEvent } from '@rr/events/catalogue';
import type { Now } from './decider.ts';
import { holdEnd, type BookingLimits } from './limits.ts';
import { Refused } from './refusal.ts';
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

/**
 * The what-if replay of the insights (docs/product.md#insights): a slot's recorded demand (every
 * cart request, served or refused as full, waitlist joins, releases, bookings, cancellations, in
 * their order and at their times) decided again by the cart decider (`decideReservation`) and
 * folded by the slot's own `evolveSlot`, under other rules: another capacity for every slot,
 * another hold time of carts. Pure: the caller reads the log and the refusals and hands them in.
 *
 * Each request is decided as a cart's first ticket: the seat rule (seats, holds, the waitlist's
 * claims, a closure) is what a capacity or a hold time changes; the rules of a cart's other
 * tickets are not replayed. The booking window is not either: every recorded request met it.
 */

/** When a recorded thing happened: the instant and the library's local day and time of it. */
export type At = Now;

export interface RecordedSlotEvent {
  event: SlotEvent;
  at: At;
  /** Staff's bookings take a seat without the seat rule (they may overbook). */
  byStaff: boolean;
}

export interface WhatIfSlot {
  timeSlotId: string;
  /** The slot stream in its order. */
  events: RecordedSlotEvent[];
  /** Carts refused as full, once per cart, at their first refusal. */
  refusals: At[];
}

export interface WhatIfChange {
  /** Seats of every slot. */
  capacity?: number | undefined;
  /** How long a cart holds its seats. */
  cartHoldMinutes?: number | undefined;
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

/** The recorded outcome of a slot: what its log and the refusals say happened. */
function actualOf(slot: WhatIfSlot): Outcome {
  const o = zero();
  for (const { event } of slot.events) {
    if (event.type === 'TicketHeld') o.served += 1;
    if (event.type === 'WaitlistJoined') o.waitlisted += 1;
  }
  o.refused = slot.refusals.length;
  return o;
}

type Item = { kind: 'event'; recorded: RecordedSlotEvent } | { kind: 'refusal'; at: At };

/** The slot's events with the refusals among them by time (a refusal after events of its instant). */
function timeline(slot: WhatIfSlot): Item[] {
  const refusals = [...slot.refusals].sort((a, b) => a.now.getTime() - b.now.getTime());
  const items: Item[] = [];
  let r = 0;
  for (const recorded of slot.events) {
    while (r < refusals.length && refusals[r]!.now < recorded.at.now)
      items.push({ kind: 'refusal', at: refusals[r++]! });
    items.push({ kind: 'event', recorded });
  }
  while (r < refusals.length) items.push({ kind: 'refusal', at: refusals[r++]! });
  return items;
}

/** An id for a request the log has no ticket for (a refused cart's, a join's), in uuid form. */
const replayId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const LIFECYCLE = new Set(['TimeSlotCreated', 'TimeSlotUpdated', 'TimeSlotCapacityChanged']);

/** Replays one slot under the changed rules; answers the recorded and the replayed outcome. */
export function replaySlot(
  slot: WhatIfSlot,
  room: RoomState,
  limits: BookingLimits,
  change: WhatIfChange,
): SlotOutcome {
  const rules: BookingLimits = {
    ...limits,
    holdMinutes: change.cartHoldMinutes ?? limits.holdMinutes,
  };
  const holdChanged = change.cartHoldMinutes !== undefined;
  // Every recorded request is replayed with a window that holds its slot (it met the room's).
  const anyDay: RoomState = {
    ...room,
    status: 'active',
    openStart: { type: 'DAY', value: 0 },
    openEnd: { type: 'WORKING_DAY', value: 365 },
  };
  const waitlistOn = room.services.waitlistOfferMinutes !== null;
  let state: SlotState = initialSlotState;
  const served = new Set<string>();
  const whatIf = zero();
  let offered: string | null = null;
  let extra = 0;

  const apply = (event: SlotEvent) => {
    state = evolveSlot(state, event);
  };

  /** A cart's request for a seat: the cart decider decides it on the slot as the replay left it. */
  const request = (ticketId: string, at: At, recorded?: SlotTicketEvent): void => {
    try {
      const decision = decideReservation(
        {
          type: 'AddTicket',
          data: { transactionId: ticketId, ticketId, timeSlotId: slot.timeSlotId },
        },
        {
          ...emptyReservation,
          slots: new Map([[slot.timeSlotId, state]]),
          rooms: new Map([[state.roomId, anyDay]]),
        },
        { ...at, limits: rules },
      );
      // With the recorded hold time, the recorded hold (its exact expiry) is folded.
      const events =
        recorded && !holdChanged ? [recorded] : (decision.slots.get(slot.timeSlotId) ?? []);
      for (const e of events) apply(e);
      served.add(ticketId);
      whatIf.served += 1;
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      whatIf.refused += 1;
    }
  };

  for (const item of timeline(slot)) {
    if (item.kind === 'refusal') {
      request(replayId(extra++), item.at);
      continue;
    }
    const { event, at, byStaff } = item.recorded;
    switch (event.type) {
      case 'TicketHeld':
        if (byStaff || offered === event.data.ticketId) {
          // A staff booking, or the seat of a taken waitlist offer: decided without the seat rule.
          apply(
            holdChanged && !byStaff
              ? { ...event, data: { ...event.data, expiresAt: holdEnd(at.now, rules) } }
              : event,
          );
          served.add(event.data.ticketId);
          whatIf.served += 1;
        } else request(event.data.ticketId, at, event);
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
        if (!served.has(event.data.ticketId)) break;
        const held = state.tickets[event.data.ticketId];
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
        const free = seatsForCarts(slotSeatsAt(state, waitlistOn, at));
        if (free > 0) request(replayId(extra++), at);
        else whatIf.waitlisted += 1;
        apply(event);
        break;
      }
      case 'SeatOfferTaken':
        offered = event.data.ticketId;
        apply(event);
        break;
      default:
        apply(event);
        if (change.capacity !== undefined && LIFECYCLE.has(event.type))
          state = { ...state, capacity: change.capacity };
    }
  }
  return {
    timeSlotId: slot.timeSlotId,
    date: state.date,
    startTime: state.startTime,
    actual: actualOf(slot),
    whatIf,
  };
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
