/**
 * Sizes the transactions of a group nobody waits for (an outbox reactor) by the time they take.
 *
 * A reader of the log reads no event committed after a transaction holding an id began, until it
 * ends, unless it is told that the transaction appends no events: the runner's own groups are
 * (NonAppenders), but a rebuild catching up or another process's subscription waits for an open
 * outbox transaction. A count of events alone bounds that only at the pace the count was chosen
 * for: on a machine two or three times slower, or busy with a rush, the same 25 events took two to
 * four times as long.
 * The pacer keeps each transaction near a target duration: after each one it fits the next size
 * to the time per handled event just measured (shrinking at once, growing at most twofold per
 * transaction, so one quick transaction does not undo what slow ones learned), between one event
 * and the group's batch size, and never ending inside a transaction of the log (see inChunks).
 */
export class TransactionPacer {
  private size: number;

  constructor(
    private readonly maxEvents: number,
    private readonly targetMs: number,
  ) {
    if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new RangeError('maxEvents < 1');
    if (!(targetMs > 0)) throw new RangeError('targetMs must be positive');
    this.size = maxEvents;
  }

  /** How many events the group handles the next transaction takes. */
  next(): number {
    return this.size;
  }

  /** A transaction with `events` events the group handles took `ms` ms, start to commit. */
  took(events: number, ms: number): void {
    if (!(events > 0) || !Number.isFinite(ms) || ms < 0) return;
    const perEvent = ms / events;
    const fits = perEvent > 0 ? Math.floor(this.targetMs / perEvent) : this.maxEvents;
    this.size = Math.max(1, Math.min(this.maxEvents, fits, this.size * 2));
  }
}

/**
 * Splits `items` into consecutive chunks, asking `sizeOf` for each chunk's size as it goes: the
 * number of items in it that `counts` (the events a group handles; the others cost it nothing),
 * at least one. A chunk ends right after its last counted item, or after the items `together`
 * with it (the events of one transaction of the log), which are never split: what an outbox
 * reactor writes for one request (one mail naming all the tickets a job round released) commits
 * at once, never half of it for a sender to take. Items no one counts after the last counted one
 * make a chunk of their own.
 */
export async function inChunks<T>(
  items: readonly T[],
  sizeOf: () => number,
  counts: (item: T) => boolean,
  together: (a: T, b: T) => boolean,
  each: (chunk: T[], counted: number) => Promise<void>,
): Promise<void> {
  for (let at = 0; at < items.length;) {
    const size = Math.max(1, sizeOf());
    let end = at;
    let counted = 0;
    while (
      end < items.length &&
      (counted < size || (end > at && together(items[end - 1]!, items[end]!)))
    ) {
      if (counts(items[end]!)) counted += 1;
      end += 1;
    }
    await each(items.slice(at, end), counted);
    at = end;
  }
}
