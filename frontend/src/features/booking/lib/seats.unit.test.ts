import { describe, expect, it } from 'vitest';
import { directionOf, matchesFilters, nearestSeat, startSeat } from './seats';

// Two rows of three seats, 20 per cent apart, and one seat off to the lower right.
const seats = [
  { id: 'A1', x: 20, y: 20 },
  { id: 'A2', x: 40, y: 20 },
  { id: 'A3', x: 60, y: 20 },
  { id: 'B1', x: 20, y: 40 },
  { id: 'B2', x: 40, y: 42 },
  { id: 'B3', x: 60, y: 40 },
  { id: 'C9', x: 90, y: 90 },
];
const at = (id: string) => seats.find((seat) => seat.id === id)!;

describe('nearestSeat', () => {
  it('moves along the row to the next seat, not to a nearer one of the next row', () => {
    expect(nearestSeat(seats, at('A1'), 'right')?.id).toBe('A2');
    expect(nearestSeat(seats, at('A3'), 'left')?.id).toBe('A2');
  });

  it('moves up and down between the rows', () => {
    expect(nearestSeat(seats, at('A2'), 'down')?.id).toBe('B2');
    expect(nearestSeat(seats, at('B3'), 'up')?.id).toBe('A3');
  });

  it('finds a seat that lies that way within 45 degrees only', () => {
    expect(nearestSeat(seats, at('B3'), 'down')?.id).toBe('C9');
    expect(nearestSeat(seats, at('A1'), 'left')).toBeUndefined();
    expect(nearestSeat(seats, at('A1'), 'up')).toBeUndefined();
  });

  it("weighs per cent of the width by the plan's shape", () => {
    // 10 % right and 15 % down: below on a square plan, to the right on one three times as wide.
    const pair = [
      { id: 'from', x: 20, y: 20 },
      { id: 'other', x: 30, y: 35 },
    ];
    expect(nearestSeat(pair, pair[0]!, 'down')?.id).toBe('other');
    expect(nearestSeat(pair, pair[0]!, 'right')).toBeUndefined();
    expect(nearestSeat(pair, pair[0]!, 'right', 3)?.id).toBe('other');
    expect(nearestSeat(pair, pair[0]!, 'down', 3)).toBeUndefined();
  });
});

describe('the other seat rules', () => {
  it('names the arrow keys only', () => {
    expect(directionOf('ArrowLeft')).toBe('left');
    expect(directionOf('ArrowDown')).toBe('down');
    expect(directionOf('Enter')).toBeUndefined();
  });

  it('keeps the seats with every attribute asked for', () => {
    expect(matchesFilters(['window', 'power'], ['power'])).toBe(true);
    expect(matchesFilters(['window'], ['window', 'power'])).toBe(false);
    expect(matchesFilters([], [])).toBe(true);
  });

  it('starts on the chosen seat, else the first free one', () => {
    const states = [
      { id: 'a', state: 'taken' as const },
      { id: 'b', state: 'free' as const },
      { id: 'c', state: 'free' as const },
    ];
    expect(startSeat(states, 'c')?.id).toBe('c');
    expect(startSeat(states, null)?.id).toBe('b');
    expect(startSeat([], null)).toBeUndefined();
  });
});
