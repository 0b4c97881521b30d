import { describe, expect, it } from 'vitest';
import { MAX_NEW_CART_BATCH, SlotQueue, type QueueOutcome as Outcome } from './cart-commands.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));
const settle = <T>(p: Promise<T>) =>
  p.then(
    (ok) => ({ ok }),
    (err: unknown) => ({ err }),
  );

/** A decider of new-cart batches that the test releases by hand, recording each batch's size. */
function batches(answer: (slot: string, i: number) => Outcome<string>) {
  const sizes: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const hold = () => {
    gate = new Promise<void>((r) => (release = r));
  };
  const decide = async (slot: string, count: number) => {
    sizes.push(`${slot}:${count}`);
    await gate;
    return Array.from({ length: count }, (_, i) => answer(slot, i));
  };
  return { sizes, decide, hold, release: () => release() };
}

describe('SlotQueue', () => {
  it('runs the commands of one slot one at a time, in arrival order; other slots run alongside', async () => {
    const q = new SlotQueue<string>(() => Promise.resolve([]));
    const log: string[] = [];
    const gates: Record<string, () => void> = {};
    const command = (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        gates[name] = () => resolve(name.toUpperCase());
      });
    const pa = q.run('slot-1', command('a'));
    const pb = q.run('slot-1', command('b'));
    const pc = q.run('slot-2', command('c'));
    await tick();
    expect(log).toEqual(['start a', 'start c']);
    expect(q.waiting).toBe(3);
    gates.c!();
    gates.a!();
    expect(await pa).toBe('A');
    await tick();
    expect(log).toEqual(['start a', 'start c', 'start b']);
    gates.b!();
    expect(await pb).toBe('B');
    expect(await pc).toBe('C');
    expect(q.waiting).toBe(0);
  });

  it('decides the new carts waiting on a slot together, each with its own outcome', async () => {
    const refused = new Error('timeslot_no_tickets_left');
    const b = batches((slot, i) => (i < 2 ? { ok: `${slot} cart ${i}` } : { err: refused }));
    const q = new SlotQueue<string>(b.decide);
    b.hold();
    const first = settle(q.newCart('s')); // starts a batch of one at once
    await tick();
    const waiting = [1, 2, 3].map(() => settle(q.newCart('s')));
    const other = settle(q.newCart('t'));
    b.release();
    expect(await first).toEqual({ ok: 's cart 0' });
    expect(await Promise.all(waiting)).toEqual([
      { ok: 's cart 0' },
      { ok: 's cart 1' },
      { err: refused },
    ]);
    expect(await other).toEqual({ ok: 't cart 0' });
    // The three that waited behind the first batch went to the database as one batch.
    expect(b.sizes).toEqual(['s:1', 't:1', 's:3']);
  });

  it('keeps existing carts in their place: new carts behind one wait for it', async () => {
    const b = batches((_, i) => ({ ok: `new ${i}` }));
    const q = new SlotQueue<string>(b.decide);
    const log: string[] = [];
    let finish: () => void = () => undefined;
    const existing = q.run('s', () => {
      log.push('existing runs');
      return new Promise<string>((r) => (finish = () => r('existing done')));
    });
    const later = settle(q.newCart('s'));
    await tick();
    expect(b.sizes).toEqual([]);
    finish();
    expect(await existing).toBe('existing done');
    expect(await later).toEqual({ ok: 'new 0' });
    expect(log).toEqual(['existing runs']);
  });

  it('a failed batch rejects every cart in it; the queue goes on', async () => {
    let calls = 0;
    const q = new SlotQueue<string>((_, count) => {
      calls += 1;
      if (calls === 1) return Promise.reject(new Error('connection lost'));
      return Promise.resolve(Array.from({ length: count }, () => ({ ok: 'held' })));
    });
    const a = settle(q.newCart('s'));
    const b = settle(q.newCart('s'));
    expect(await a).toEqual({ err: new Error('connection lost') });
    expect(await b).toEqual({ ok: 'held' });
  });

  it(`takes at most ${MAX_NEW_CART_BATCH} new carts into one transaction`, async () => {
    const b = batches(() => ({ ok: 'held' }));
    const q = new SlotQueue<string>(b.decide);
    b.hold();
    const first = q.newCart('s');
    await tick();
    const rest = Array.from({ length: MAX_NEW_CART_BATCH + 5 }, () => q.newCart('s'));
    b.release();
    await first;
    b.hold();
    await tick();
    b.release();
    await Promise.all(rest);
    expect(b.sizes).toEqual(['s:1', `s:${MAX_NEW_CART_BATCH}`, 's:5']);
  });
});
