import { describe, expect, it } from 'vitest';
import { occupancyPercent, toCsv, withSeatNumbers } from './reports.ts';

describe('reports', () => {
  it('numbers seats per slot, restarting at 1 for each new slot', () => {
    const rows = [
      { timeSlotId: 'a', lastName: 'Adler' },
      { timeSlotId: 'a', lastName: 'Berger' },
      { timeSlotId: 'a', lastName: 'Czerny' },
      { timeSlotId: 'b', lastName: 'Adler' },
      { timeSlotId: 'c', lastName: 'Huber' },
      { timeSlotId: 'c', lastName: 'Maier' },
    ];
    expect(withSeatNumbers(rows).map((r) => r.seatNumber)).toEqual([1, 2, 3, 1, 1, 2]);
    expect(withSeatNumbers([])).toEqual([]);
  });

  it('computes the occupancy percentage, blank without a capacity of at least 1', () => {
    expect(occupancyPercent(3, 4)).toBe(75);
    expect(occupancyPercent(5, 4)).toBe(125);
    expect(occupancyPercent(1, 3)).toBe(33);
    expect(occupancyPercent(0, 10)).toBe(0);
    expect(occupancyPercent(2, 0)).toBeNull();
    expect(occupancyPercent(2, null)).toBeNull();
    expect(occupancyPercent(2, undefined)).toBeNull();
  });

  it('writes Excel-friendly CSV and neutralises formulas', () => {
    const csv = toCsv(
      ['Name', 'Note', 'Count'],
      [
        ['Müller; Anna', 'said "hi"', 3],
        ['=HYPERLINK("x")', null, 0],
        ['-5', '@cmd', true],
      ],
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFName;Note;Count',
      '"Müller; Anna";"said ""hi""";3',
      `"'=HYPERLINK(""x"")";;0`,
      "'-5;'@cmd;true",
      '',
    ]);
  });
});
