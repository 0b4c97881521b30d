import { describe, expect, it } from 'vitest';
import { comparePositions, maxPosition, positionOf } from './position';

describe('maxPosition', () => {
  it('takes the first valid position', () => {
    expect(maxPosition(null, '755_4')).toBe('755_4');
  });

  it('orders by transaction first, then by global position, numerically', () => {
    expect(maxPosition('9_50', '10_3')).toBe('10_3');
    expect(maxPosition('10_3', '9_50')).toBe('10_3');
    expect(maxPosition('10_3', '10_12')).toBe('10_12');
    expect(maxPosition('10_12', '10_12')).toBe('10_12');
    expect(comparePositions('10_2', '10_10')).toBe(-1);
  });

  it('compares values beyond the safe integer range exactly', () => {
    expect(maxPosition('9007199254740993_1', '9007199254740992_5')).toBe('9007199254740993_1');
    expect(maxPosition('1_9007199254740992', '1_9007199254740993')).toBe('1_9007199254740993');
  });

  it('ignores invalid candidates', () => {
    for (const bad of ['', '12', '-1_2', 'a_b', '1_2_3', 5, undefined, null]) {
      expect(maxPosition('5_5', bad)).toBe('5_5');
    }
    expect(maxPosition(null, undefined)).toBeNull();
  });

  it('normalises leading zeros', () => {
    expect(maxPosition(null, '007_010')).toBe('7_10');
  });
});

describe('positionOf', () => {
  it('reads the position of a command answer', () => {
    expect(positionOf({ id: 'a', version: 2, position: '123_4' })).toBe('123_4');
    expect(positionOf({ id: 'a' })).toBeNull();
    expect(positionOf(null)).toBeNull();
    expect(positionOf({ position: 'x' })).toBeNull();
  });
});
