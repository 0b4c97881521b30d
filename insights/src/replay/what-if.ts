import type { BookingLimits, RoomState } from '@rr/domain';
import { WhatIfReplay, zero } from './what-if-replay.ts';
import type { Outcome, SlotOutcome, WhatIfChange, WhatIfHistory } from './what-if-types.ts';

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

export type {
  At,
  Outcome,
  RecordedCommit,
  RecordedEntry,
  RecordedRefusal,
  SlotOutcome,
  WhatIfChange,
  WhatIfHistory,
} from './what-if-types.ts';

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
