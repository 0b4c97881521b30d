import type { TransactionEvent, VisitorEvent } from '@rr/events/catalogue';
import type { BookingLimits, Now, RoomState, SlotEvent } from '@rr/domain';
import { WhatIfReplay, zero } from './what-if-replay.ts';

/**
 * The what-if replay of the insights (docs/product.md#insights): a room's recorded demand over a
 * period (every cart request, served or refused as full, waitlist joins, releases, bookings,
 * cancellations, in their order and at their times) decided again by the cart decider
 * (`decideReservation`) and folded by the slot's own `evolveSlot`, under other rules: another
 * capacity for every slot, another hold time of carts, another most tickets per visitor and day.
 * Pure: the caller reads the log and the refusals and hands them in, commit by commit as it reads
 * them (the replay keeps its own state, never the history: a reader in batches bounds the memory).
 *
 * Without a changed `maxTicketsPerDay` each request is decided as a cart's first ticket: the seat
 * rule (seats, holds, the waitlist's claims, a closure) is what a capacity or a hold time changes.
 * With it, the caller hands in the streams of the slots' carts and of the visitors who booked
 * them as well, and a request is decided with what its cart holds (the cart's add: the cart
 * rules), a booking with the visitor's other bookings (the per-visitor limits a booking meets,
 * `visitorLimits`, as the waitlist's matcher applies them). The booking window is not replayed:
 * every recorded request met it.
 */

/** When a recorded thing happened: the instant and the library's local day and time of it. */
export type At = Now;

/** One recorded event of the history, of a slot's, a cart's or a visitor's stream. */
export type RecordedEntry =
  | {
      stream: 'slot';
      timeSlotId: string;
      event: SlotEvent;
      at: At;
      /** Staff's bookings take a seat without the seat rule (they may overbook). */
      byStaff: boolean;
    }
  | { stream: 'cart'; cartId: string; event: TransactionEvent; at: At }
  | { stream: 'visitor'; visitorKey: string; event: VisitorEvent; at: At };

/** A cart request the seat rule refused as full: once per cart and slot, at its first refusal. */
export interface RecordedRefusal {
  timeSlotId: string;
  at: At;
  /** The cart, when the history holds its stream (it held a seat of the replayed slots). */
  cartId?: string | undefined;
}

/** One commit's events of the history (a transaction's), in their order. */
export type RecordedCommit = readonly RecordedEntry[];

export interface WhatIfHistory {
  /** The replayed slots (a room's over a period), in the order of the answer. */
  slotIds: readonly string[];
  /**
   * Their streams' events, commit by commit in commit order; for a changed `maxTicketsPerDay`
   * among them the streams of the carts that held their seats and of the visitors who booked
   * those carts. A commit's events are known together before any of them is decided (a booking
   * names its visitor and a staff booking its holds in the same commit, in either order).
   */
  log: AsyncIterable<RecordedCommit>;
  /** The refusals in the order of their times. */
  refusals: AsyncIterable<RecordedRefusal>;
  /**
   * The visitor key each booked cart of the log names (its `TransactionBooked`): for a changed
   * `maxTicketsPerDay`, the visitor whose other bookings a booking meets.
   */
  visitorOf: ReadonlyMap<string, string>;
}

export interface WhatIfChange {
  /** Seats of every slot. */
  capacity?: number | undefined;
  /** How long a cart holds its seats. */
  cartHoldMinutes?: number | undefined;
  /** Tickets per visitor and day (a cart may not hold more on one day either). */
  maxTicketsPerDay?: number | undefined;
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

/**
 * Replays the history under the changed rules as it comes, one commit at a time, with the refusals
 * among the log by time (a refusal before the first event after its instant); answers each slot's
 * recorded and replayed outcome.
 */
export async function replay(
  history: WhatIfHistory,
  room: RoomState,
  limits: BookingLimits,
  change: WhatIfChange,
): Promise<SlotOutcome[]> {
  const r = new WhatIfReplay(history, room, limits, change);
  const refusals = history.refusals[Symbol.asyncIterator]();
  let next = await refusals.next();
  for await (const commit of history.log) {
    r.record(commit);
    for (const entry of commit) {
      while (!next.done && next.value.at.now < entry.at.now) {
        r.refusal(next.value);
        next = await refusals.next();
      }
      r.replayEntry(entry);
    }
  }
  for (; !next.done; next = await refusals.next()) r.refusal(next.value);
  return r.outcomes();
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
