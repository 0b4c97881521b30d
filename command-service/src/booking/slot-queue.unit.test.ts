import { describe, expect, it } from 'vitest';
import { Problem } from '@rr/platform';
import { SlotQueue } from './slot-queue.ts';

const full = () =>
  new Problem(409, 'ticket__validation_error', 'refused', ['timeslot_no_tickets_left']);

/** A command that finishes when released, recording when it started. */
function gate(log: string[], name: string, outcome: () => unknown) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  return {
    release,
    run: async () => {
      log.push(`start ${name}`);
      await released;
      const value = outcome();
      if (value instanceof Error) throw value;
      return value;
    },
  };
}

const settle = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ ok: v }),
    (e: unknown) => ({ err: e }),
  );

describe('SlotQueue', () => {
  it('runs the commands of one slot one at a time, in arrival order; other slots run alongside', async () => {
    const q = new SlotQueue();
    const log: string[] = [];
    const a = gate(log, 'a', () => 'A');
    const b = gate(log, 'b', () => 'B');
    const c = gate(log, 'c', () => 'C');
    const pa = q.run('slot-1', false, a.run);
    const pb = q.run('slot-1', false, b.run);
    const pc = q.run('slot-2', false, c.run);
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(['start a', 'start c']);
    expect(q.waiting).toBe(3);
    c.release();
    a.release();
    expect(await pa).toBe('A');
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(['start a', 'start c', 'start b']);
    b.release();
    expect(await pb).toBe('B');
    expect(await pc).toBe('C');
    expect(q.waiting).toBe(0);
  });

  it('a refused new cart refuses the new carts waiting on the same slot, not the existing carts', async () => {
    const q = new SlotQueue();
    const log: string[] = [];
    const refusal = full();
    const first = gate(log, 'new1', () => refusal);
    const p1 = settle(q.run('slot', true, first.run));
    const p2 = settle(q.run('slot', true, () => Promise.resolve('new2 ran')));
    const existing = gate(log, 'existing', () => 'existing ran');
    const p3 = settle(q.run('slot', false, existing.run));
    const p4 = settle(q.run('slot', true, () => Promise.resolve('new4 ran')));
    const other = settle(q.run('other-slot', true, () => Promise.resolve('other ran')));
    first.release();
    expect(await p1).toEqual({ err: refusal });
    expect(await p2).toEqual({ err: refusal });
    expect(await p4).toEqual({ err: refusal });
    existing.release();
    expect(await p3).toEqual({ ok: 'existing ran' });
    expect(await other).toEqual({ ok: 'other ran' });
    expect(log).toEqual(['start new1', 'start existing']);
  });

  it('other errors, and refusals of existing carts, are not shared', async () => {
    const q = new SlotQueue();
    const broken = settle(q.run('slot', true, () => Promise.reject(new Error('connection lost'))));
    const afterBroken = settle(q.run('slot', true, () => Promise.resolve('ran')));
    expect(await broken).toEqual({ err: new Error('connection lost') });
    expect(await afterBroken).toEqual({ ok: 'ran' });

    const conflict = new Problem(409, 'concurrency__retry_exhausted', 'busy');
    const busy = settle(q.run('slot', true, () => Promise.reject(conflict)));
    const afterBusy = settle(q.run('slot', true, () => Promise.resolve('ran too')));
    expect(await busy).toEqual({ err: conflict });
    expect(await afterBusy).toEqual({ ok: 'ran too' });

    const refused = full();
    const existing = settle(q.run('slot', false, () => Promise.reject(refused)));
    const afterExisting = settle(q.run('slot', true, () => Promise.resolve('new ran')));
    expect(await existing).toEqual({ err: refused });
    expect(await afterExisting).toEqual({ ok: 'new ran' });
  });
});
