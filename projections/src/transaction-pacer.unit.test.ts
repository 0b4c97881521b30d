import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inChunks, TransactionPacer } from './transaction-pacer.ts';

describe('TransactionPacer', () => {
  it('starts at the batch size and fits the next transaction to the time per event', () => {
    const pacer = new TransactionPacer(25, 20);
    expect(pacer.next()).toBe(25);
    // 25 events in 211 ms (a slow machine's outbox): about 8.4 ms each, two fit in 20 ms.
    pacer.took(25, 211);
    expect(pacer.next()).toBe(2);
    // Quick again: it grows, at most twofold per transaction, up to the batch size.
    pacer.took(2, 1);
    expect(pacer.next()).toBe(4);
    pacer.took(4, 1);
    pacer.took(8, 1);
    pacer.took(16, 1);
    expect(pacer.next()).toBe(25);
  });

  it('never goes below one event or above the batch size, whatever the times', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(
          fc.tuple(
            fc.integer({ min: -5, max: 2000 }),
            fc.oneof(fc.double({ noNaN: false }), fc.constant(Number.POSITIVE_INFINITY)),
          ),
          { maxLength: 50 },
        ),
        (max, target, transactions) => {
          const pacer = new TransactionPacer(max, target);
          for (const [events, ms] of transactions) {
            pacer.took(events, ms);
            const size = pacer.next();
            expect(Number.isInteger(size)).toBe(true);
            expect(size).toBeGreaterThanOrEqual(1);
            expect(size).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });

  it('keeps a steady pace near its target: the events it takes cost at most the target', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 5, max: 200 }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        (max, target, msPerEvent) => {
          const pacer = new TransactionPacer(max, target);
          for (let i = 0; i < 20; i++) pacer.took(pacer.next(), pacer.next() * msPerEvent);
          const size = pacer.next();
          // One event is the least it can take, even when one alone costs more than the target.
          if (size > 1) expect(size * msPerEvent).toBeLessThanOrEqual(target * (1 + 1e-9));
          // And it takes all that fit, up to the batch size.
          if (size < max)
            expect((size + 1) * msPerEvent).toBeGreaterThanOrEqual(target * (1 - 1e-9));
        },
      ),
    );
  });

  it('refuses a batch size below one and a target that is not positive', () => {
    expect(() => new TransactionPacer(0, 20)).toThrow(RangeError);
    expect(() => new TransactionPacer(25, 0)).toThrow(RangeError);
  });
});

describe('inChunks', () => {
  it('hands every item once, in order, never splits items together, and keeps to the count asked for otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(
        // The log's transactions, each a run of events the group handles or not.
        fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), { maxLength: 30 }),
        fc.array(fc.integer({ min: -3, max: 10 }), { minLength: 1, maxLength: 20 }),
        async (transactions, sizes) => {
          const items = transactions.flatMap((run, tx) => run.map((handled) => ({ tx, handled })));
          const chunks: { items: typeof items; counted: number; size: number }[] = [];
          let i = 0;
          let size = 0;
          await inChunks(
            items,
            () => (size = sizes[i++ % sizes.length]!),
            (item) => item.handled,
            (a, b) => a.tx === b.tx,
            (chunk, counted) => {
              chunks.push({ items: chunk, counted, size: Math.max(1, size) });
              return Promise.resolve();
            },
          );
          expect(chunks.flatMap((c) => c.items)).toEqual(items);
          chunks.slice(1).forEach((c, k) => {
            expect(c.items[0]!.tx).not.toBe(chunks[k]!.items.at(-1)!.tx);
          });
          for (const c of chunks) {
            expect(c.items.length).toBeGreaterThanOrEqual(1);
            expect(c.counted).toBe(c.items.filter((x) => x.handled).length);
            // Past its count only with the transaction of the item that reached it.
            let reached = 0;
            const at = c.items.findIndex((x) => x.handled && ++reached === c.size);
            if (at >= 0) c.items.slice(at).forEach((x) => expect(x.tx).toBe(c.items[at]!.tx));
            else expect(c.counted).toBeLessThan(c.size);
          }
          // A chunk short of its count is the last: it ran out of items.
          chunks.slice(0, -1).forEach((c) => expect(c.counted).toBeGreaterThanOrEqual(c.size));
        },
      ),
    );
  });

  it('counts only what the group handles: events it ignores ride along for nothing', async () => {
    const events = ['held', 'held', 'created', 'held', 'created', 'created', 'held'];
    const chunks: string[][] = [];
    await inChunks(
      events,
      () => 2,
      (e) => e === 'created',
      () => false,
      (chunk) => {
        chunks.push(chunk);
        return Promise.resolve();
      },
    );
    expect(chunks).toEqual([
      ['held', 'held', 'created', 'held', 'created'],
      ['created', 'held'],
    ]);
  });

  it("keeps a transaction's events in one chunk, however small the count asked for", async () => {
    const events = [
      { tx: 1, type: 'TicketConfirmationLapsed' },
      { tx: 1, type: 'TicketConfirmationLapsed' },
      { tx: 1, type: 'TicketReleased' },
      { tx: 2, type: 'TicketConfirmationLapsed' },
    ];
    const chunks: (typeof events)[] = [];
    await inChunks(
      events,
      () => 1,
      (e) => e.type === 'TicketConfirmationLapsed',
      (a, b) => a.tx === b.tx,
      (chunk) => {
        chunks.push(chunk);
        return Promise.resolve();
      },
    );
    expect(chunks).toEqual([events.slice(0, 3), events.slice(3)]);
  });
});
