import { describe, expect, it } from 'vitest';
import {
  barWidth,
  occupancyByDay,
  occupancyTotals,
  commonReports,
  dailyCsvPath,
  defaultOccupancyQuery,
  formatSlotTime,
  monthBefore,
  occupancyCsvPath,
  occupancyErrors,
  percentText,
} from './reports';

describe('occupancy report', () => {
  it('defaults to one month back to today, the first room and booked seats', () => {
    expect(defaultOccupancyQuery('2026-03-05', [{ id: 'r1' }, { id: 'r2' }])).toEqual({
      roomId: 'r1',
      fromDate: '2026-02-05',
      untilDate: '2026-03-05',
      status: 'BOOKED',
    });
    expect(defaultOccupancyQuery('2026-03-05', []).roomId).toBe('');
  });

  it('goes back one calendar month, clamping to the month end', () => {
    expect(monthBefore('2026-03-31')).toBe('2026-02-28');
    expect(monthBefore('2026-01-15')).toBe('2025-12-15');
  });

  it('requires both dates, in order, a room and a type', () => {
    const valid = {
      roomId: '0b7a0e3e-9d55-4a4f-9a55-7d1f2c5b8e01',
      fromDate: '2026-02-05',
      untilDate: '2026-03-05',
      status: 'BOOKED' as const,
    };
    expect(occupancyErrors(valid)).toEqual({});
    expect(occupancyErrors({ ...valid, fromDate: '', roomId: '' })).toEqual({
      fromDate: { key: 'required' },
      roomId: { key: 'required' },
    });
    expect(occupancyErrors({ ...valid, untilDate: '2026-02-01' })).toEqual({
      untilDate: { key: 'date-not-before' },
    });
    expect(occupancyErrors({ ...valid, untilDate: '2026-02-30' })).toEqual({
      untilDate: { key: 'date' },
    });
  });

  it('shows the percentage, blank without one', () => {
    expect(percentText(80, 'en')).toBe('80%');
    expect(percentText(150, 'de')).toMatch(/^150\s%$/);
    expect(percentText(null, 'de')).toBe('');
  });

  it('draws bars of 0-100 percent', () => {
    expect(barWidth(null)).toBe(0);
    expect(barWidth(40)).toBe(40);
    expect(barWidth(150)).toBe(100);
    expect(barWidth(-3)).toBe(0);
  });

  it('builds the CSV addresses with the filters', () => {
    expect(
      occupancyCsvPath({
        roomId: 'r1',
        fromDate: '2026-02-05',
        untilDate: '2026-03-05',
        status: 'CANCELLED',
      }),
    ).toBe(
      'admin/tickets/report.csv?roomId=r1&fromDate=2026-02-05&untilDate=2026-03-05&status=CANCELLED',
    );
    expect(dailyCsvPath('r 1', '2026-03-05')).toBe(
      'admin/rooms/r%201/daily-report.csv?date=2026-03-05',
    );
  });

  it('keeps slot times as HH:mm-HH:mm', () => {
    expect(formatSlotTime('08:00-12:00')).toBe('08:00-12:00');
    expect(formatSlotTime('08:00:00-12:00:00')).toBe('08:00-12:00');
  });

  it('has no common reports (the operation returns an empty list)', () => {
    expect(commonReports()).toEqual([]);
  });
});

describe('occupancy per day and totals', () => {
  const items = [
    { date: '2026-06-01', count: 1, capacity: 2, percentage: 50 },
    { date: '2026-06-01', count: 2, capacity: 1, percentage: 200 },
    { date: '2026-06-02', count: 0, capacity: 2, percentage: 0 },
    { date: '2026-06-03', count: 1, capacity: 0, percentage: null },
  ];

  it('sums each day: tickets over capacity', () => {
    expect(occupancyByDay(items)).toEqual([
      { date: '2026-06-01', count: 3, capacity: 3, percentage: 100, slots: 2 },
      { date: '2026-06-02', count: 0, capacity: 2, percentage: 0, slots: 1 },
      { date: '2026-06-03', count: 1, capacity: 0, percentage: null, slots: 1 },
    ]);
  });

  it('totals all of it, with the mean occupancy of the slots that have a capacity', () => {
    expect(occupancyTotals(items)).toEqual({
      date: '',
      count: 4,
      capacity: 5,
      percentage: 80,
      slots: 4,
      meanPercentage: 250 / 3,
    });
    expect(occupancyTotals([])).toMatchObject({ count: 0, percentage: null, meanPercentage: null });
  });
});
