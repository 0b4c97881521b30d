import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterFor } from './load-shedding.ts';

const SPREAD = 5;

describe('the wait a shed request is told (Retry-After)', () => {
  it('is the configured wait while the line is empty, and up to the spread times it when full', () => {
    expect(retryAfterFor(2, SPREAD, 0, () => 0.99)).toBe(2);
    expect(retryAfterFor(2, SPREAD, 1, () => 0)).toBe(2);
    expect(retryAfterFor(2, SPREAD, 1, () => 1)).toBe(2 * SPREAD);
    expect(retryAfterFor(2, SPREAD, 0.5, () => 1)).toBe(6);
  });

  it('stays within its bounds for any line and draw, never below one second', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3600 }),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: -1, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (base, spread, fill, draw) => {
          const wait = retryAfterFor(base, spread, fill, () => draw);
          expect(Number.isInteger(wait)).toBe(true);
          expect(wait).toBeGreaterThanOrEqual(Math.max(1, base));
          expect(wait).toBeLessThanOrEqual(base * spread);
        },
      ),
    );
  });

  it("spreads a full line's crowd over the range instead of one second", () => {
    const waits = new Set(Array.from({ length: 400 }, () => retryAfterFor(2, SPREAD, 1)));
    expect(Math.min(...waits)).toBe(2);
    expect(Math.max(...waits)).toBe(10);
    expect(waits.size).toBe(9);
  });

  it('names the configured wait always with a spread of 1', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (fill) => {
        expect(retryAfterFor(3, 1, fill)).toBe(3);
      }),
    );
  });
});
