/** What one new cart in a batch came to: its answer, or the error it is refused with. */
export type Outcome<T> = { ok: T } | { err: unknown };

type Job =
  | { kind: 'one'; run: () => Promise<unknown>; resolve: (v: unknown) => void; reject: Reject }
  | { kind: 'new-cart'; resolve: (v: unknown) => void; reject: Reject };
type Reject = (err: unknown) => void;

/** Most new carts decided in one transaction. */
export const MAX_NEW_CART_BATCH = 200;

/**
 * Cart commands that take a seat in a time slot, queued per slot inside this process. Only one
 * database transaction per slot runs at a time; the other commands wait here rather than each
 * holding a pooled connection while it waits for the slot's stream lock, so a rush on one slot does
 * not starve the commands on every other slot of connections.
 *
 * New carts (a visitor's first ticket) waiting for the same slot are decided together: one
 * transaction locks and reads the slot once, decides each cart in arrival order against the slot
 * as the earlier ones left it, and appends every accepted hold at once (`decideNewCarts`). Each
 * command is under way during that transaction, so each answer is what it would have got on its
 * own at that instant; a rush of 500 visitors on one slot thus costs a few transactions instead
 * of 500. Commands on existing carts run one by one, in arrival order.
 */
export class SlotQueue<T> {
  private readonly queues = new Map<string, Job[]>();

  constructor(
    private readonly decideNewCarts: (timeSlotId: string, count: number) => Promise<Outcome<T>[]>,
  ) {}

  /** A command on an existing cart. */
  run<R>(timeSlotId: string, run: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) =>
      this.enqueue(timeSlotId, {
        kind: 'one',
        run,
        resolve: resolve as (v: unknown) => void,
        reject,
      }),
    );
  }

  /** A new cart holding its first ticket in the slot. */
  newCart(timeSlotId: string): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.enqueue(timeSlotId, {
        kind: 'new-cart',
        resolve: resolve as (v: unknown) => void,
        reject,
      }),
    );
  }

  /** Commands waiting (or running) on all slots: for tests and metrics. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private enqueue(timeSlotId: string, job: Job): void {
    const queue = this.queues.get(timeSlotId);
    if (queue) {
      queue.push(job);
      return;
    }
    this.queues.set(timeSlotId, [job]);
    void this.drain(timeSlotId);
  }

  private async drain(timeSlotId: string): Promise<void> {
    const queue = this.queues.get(timeSlotId)!;
    while (queue.length > 0) {
      const job = queue[0]!;
      if (job.kind === 'one') {
        try {
          job.resolve(await job.run());
        } catch (err) {
          job.reject(err);
        }
        queue.shift();
        continue;
      }
      // Every new cart waiting now, in arrival order (commands on existing carts keep their place).
      const batch: Job[] = [];
      for (let i = 0; i < queue.length && batch.length < MAX_NEW_CART_BATCH; i++) {
        if (queue[i]!.kind === 'new-cart') batch.push(queue[i]!);
      }
      try {
        const outcomes = await this.decideNewCarts(timeSlotId, batch.length);
        batch.forEach((j, i) => {
          const outcome = outcomes[i];
          if (outcome && 'ok' in outcome) j.resolve(outcome.ok);
          else j.reject(outcome ? outcome.err : new Error('no outcome for a new cart'));
        });
      } catch (err) {
        for (const j of batch) j.reject(err);
      }
      for (const j of batch) queue.splice(queue.indexOf(j), 1);
    }
    this.queues.delete(timeSlotId);
  }
}
