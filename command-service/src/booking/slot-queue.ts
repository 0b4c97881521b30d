import { Problem } from '@rr/platform';

interface Job {
  newCart: boolean;
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Cart commands that take a seat in a time slot, queued per slot inside this process. Only one
 * of them at a time goes to the database; the others wait here rather than each holding a pooled
 * connection while it waits for the slot's row lock, so a rush on one slot does not starve the
 * commands on every other slot of connections.
 *
 * When a new cart (its first ticket) is refused by the decider, every new cart then waiting for
 * the same slot is refused with the same answer at once: with an empty cart the decision depends
 * only on the slot and its room as they were under the lock at that instant, and each waiting
 * command was under way at that instant. A full slot thus answers a crowd with one transaction
 * instead of one per visitor. Refusals of existing carts depend on the cart and are never shared,
 * nor is any other error.
 */
export class SlotQueue {
  private readonly queues = new Map<string, Job[]>();

  run<T>(timeSlotId: string, newCart: boolean, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = { newCart, run, resolve: resolve as (v: unknown) => void, reject };
      const queue = this.queues.get(timeSlotId);
      if (queue) {
        queue.push(job);
        return;
      }
      this.queues.set(timeSlotId, [job]);
      void this.drain(timeSlotId);
    });
  }

  /** Commands waiting (or running) per slot: for tests and metrics. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private async drain(timeSlotId: string): Promise<void> {
    const queue = this.queues.get(timeSlotId)!;
    while (queue.length > 0) {
      const job = queue[0]!;
      try {
        job.resolve(await job.run());
      } catch (err) {
        job.reject(err);
        if (job.newCart && isSlotRefusal(err)) {
          for (let i = queue.length - 1; i >= 1; i--) {
            if (queue[i]!.newCart) queue.splice(i, 1)[0]!.reject(err);
          }
        }
      }
      queue.shift();
    }
    this.queues.delete(timeSlotId);
  }
}

/** A refusal of the decider about the slot itself (full, not open, gone), not a failure. */
function isSlotRefusal(err: unknown): boolean {
  return (
    err instanceof Problem &&
    (err.error === 'ticket__validation_error' || (err.status === 404 && err.error === 'not_found'))
  );
}
