import { describe, expect, it } from 'vitest';
import {
  copiedRow,
  freeSpot,
  nextLabel,
  nudged,
  placedSeat,
  rotated,
  rowOf,
  type DraftSeat,
} from './seat-plan-editing';

const seat = (label: string, x = 10, y = 10): DraftSeat => ({
  key: label,
  label,
  zone: '',
  attributes: [],
  notes: '',
  x,
  y,
  rotation: 0,
});
const row = (prefix: string, count: number, y = 10) =>
  Array.from({ length: count }, (_, i) => seat(`${prefix}${i + 1}`, 5 + i * 5, y));

describe('seat plan editing', () => {
  it('labels a new seat after the last one and never twice', () => {
    expect(nextLabel([])).toBe('A1');
    expect(nextLabel(row('A', 3))).toBe('A4');
    expect(nextLabel([seat('A4'), seat('A3')])).toBe('A5');
    expect(nextLabel([seat('Fenster')])).toBe('2');
  });

  it('places a new seat where none is', () => {
    const first = freeSpot([]);
    const second = freeSpot([placedSeat([], first.x, first.y)]);
    expect(second).not.toEqual(first);
  });

  it('copies a lettered row to the next letter with the same numbers', () => {
    const a = row('A', 10);
    const copy = copiedRow(a, new Set(a.map((s) => s.key)));
    expect(copy.map((s) => s.label)).toEqual(row('B', 10).map((s) => s.label));
    expect(copy.every((s, i) => s.y > (a[i]?.y ?? 0) && s.x === a[i]?.x)).toBe(true);
  });

  it('continues the numbers when the next row exists already', () => {
    const plan = [...row('A', 3), ...row('B', 3, 20)];
    const copy = copiedRow(plan, new Set(['A1', 'A2', 'A3']));
    expect(copy.map((s) => s.label)).toEqual(['A4', 'A5', 'A6']);
  });

  it('finds the row of a seat by its letters', () => {
    const plan = [...row('A', 3), ...row('B', 2)];
    expect(rowOf(plan, plan[4] as DraftSeat).map((s) => s.label)).toEqual(['B1', 'B2']);
  });

  it('turns in steps of 15° within 0-345 and keeps seats on the plan', () => {
    expect(rotated(seat('A1'), -1).rotation).toBe(345);
    expect(rotated(rotated(seat('A1'), 23), 1).rotation).toBe(0);
    expect(nudged(seat('A1', 99, 1), 5, -5)).toMatchObject({ x: 100, y: 0 });
  });
});
