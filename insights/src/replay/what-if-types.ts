import type { TransactionEvent, VisitorEvent } from '@rr/events/catalogue';
import type { Now, SlotEvent } from '@rr/domain';

/** What the what-if replay (what-if.ts) takes and answers. */

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
