import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePositions, formatPosition, leastPosition, parsePosition } from './position.ts';

describe('leastPosition', () => {
  it('is the least of the tokens by transaction, then by position in it, passing over malformed ones', () => {
    const token = fc
      .record({ tx: fc.bigInt({ min: 0n, max: 2n ** 40n }), gp: fc.bigInt({ min: 0n, max: 99n }) })
      .map(formatPosition);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(token, fc.constantFrom('', 'x_1', '12')), { maxLength: 8 }),
        (tokens) => {
          const valid = tokens.flatMap((t) => {
            const p = parsePosition(t);
            return p ? [p] : [];
          });
          const least = leastPosition(tokens);
          const expected = [...valid].sort(comparePositions)[0];
          expect(least).toBe(expected ? formatPosition(expected) : null);
        },
      ),
    );
    // By number, not by text: '9_5' is before '10_0'.
    expect(leastPosition(['10_0', '9_5'])).toBe('9_5');
  });
});
