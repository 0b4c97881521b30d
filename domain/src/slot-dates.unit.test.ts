import { describe, expect, it } from 'vitest';
import { weekdayOf } from '@rr/platform';
import { slotDates } from './slot-dates.ts';

const weekdays = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const;
const none = () => false;

describe('slot generation', () => {
  it('creates one slot per matching weekday in the range', () => {
    const dates = slotDates(
      {
        startDate: '2026-12-01',
        repeatUntil: '2026-12-14',
        daysOfWeek: [...weekdays],
        includeHolidays: false,
      },
      none,
    );
    expect(dates).toEqual([
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-07',
      '2026-12-08',
      '2026-12-09',
      '2026-12-10',
      '2026-12-11',
      '2026-12-14',
    ]);
    expect(new Set(dates.map(weekdayOf)).has('SATURDAY')).toBe(false);
    expect(
      slotDates(
        {
          startDate: '2026-12-01',
          repeatUntil: '2026-12-31',
          daysOfWeek: ['SATURDAY'],
          includeHolidays: false,
        },
        none,
      ),
    ).toEqual(['2026-12-05', '2026-12-12', '2026-12-19', '2026-12-26']);
  });

  it('skips holidays unless they are included', () => {
    const isHoliday = (d: string) => d === '2026-12-08';
    const series = {
      startDate: '2026-12-07',
      repeatUntil: '2026-12-09',
      daysOfWeek: [...weekdays],
    };
    expect(slotDates({ ...series, includeHolidays: false }, isHoliday)).toEqual([
      '2026-12-07',
      '2026-12-09',
    ]);
    expect(slotDates({ ...series, includeHolidays: true }, isHoliday)).toEqual([
      '2026-12-07',
      '2026-12-08',
      '2026-12-09',
    ]);
  });

  it('creates the one-off slot whatever the weekday or holiday when repeat-until equals the start date', () => {
    const isHoliday = () => true;
    expect(
      slotDates(
        {
          startDate: '2026-12-06',
          repeatUntil: '2026-12-06',
          daysOfWeek: [],
          includeHolidays: false,
        },
        isHoliday,
      ),
    ).toEqual(['2026-12-06']);
    expect(
      slotDates({ startDate: '2026-12-06', daysOfWeek: [], includeHolidays: false }, isHoliday),
    ).toEqual(['2026-12-06']);
  });

  it('keeps the dates across the DST change days', () => {
    // Last Sundays of March and October 2026: 29 March and 25 October.
    expect(
      slotDates(
        {
          startDate: '2026-03-28',
          repeatUntil: '2026-03-30',
          daysOfWeek: ['SATURDAY', 'SUNDAY', 'MONDAY'],
          includeHolidays: true,
        },
        none,
      ),
    ).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(
      slotDates(
        {
          startDate: '2026-10-24',
          repeatUntil: '2026-10-26',
          daysOfWeek: ['SUNDAY'],
          includeHolidays: true,
        },
        none,
      ),
    ).toEqual(['2026-10-25']);
  });
});
