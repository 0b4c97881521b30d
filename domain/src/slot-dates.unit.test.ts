import { describe, expect, it } from 'vitest';
import { datesBetween, weekdayOf, WEEKDAYS, type LocalDate } from './calendar.ts';
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

  it('gives the same dates as filtering every day of the range', () => {
    // The former implementation: every date of the range, filtered.
    const reference = (from: LocalDate, until: LocalDate, days: Set<string>, skip: Set<string>) =>
      datesBetween(from, until).filter((d) => days.has(weekdayOf(d)) && !skip.has(d));
    const skip = new Set(['2024-02-29', '2024-12-25', '2025-01-01', '0001-01-02', '9999-12-31']);
    const ranges: [LocalDate, LocalDate][] = [
      ['2023-12-20', '2025-03-10'], // leap day, year ends
      ['2026-12-31', '2026-12-01'], // until before start: nothing
      ['0001-01-01', '0001-03-01'],
      ['9999-11-15', '9999-12-31'], // stops at the last date there is
      ['1899-12-25', '1900-03-05'], // 1900 is no leap year
    ];
    for (const [from, until] of ranges) {
      for (const daysOfWeek of [
        [...WEEKDAYS],
        ['SUNDAY' as const],
        ['MONDAY', 'FRIDAY'] as const,
      ]) {
        for (const includeHolidays of [false, true]) {
          expect(
            slotDates(
              { startDate: from, repeatUntil: until, daysOfWeek: [...daysOfWeek], includeHolidays },
              (d) => skip.has(d),
            ),
          ).toEqual(
            reference(from, until, new Set(daysOfWeek), includeHolidays ? new Set() : skip),
          );
        }
      }
    }
  });

  it('stops after max + 1 dates without building the whole range', () => {
    const series = {
      startDate: '0001-01-01',
      repeatUntil: '9999-12-31',
      daysOfWeek: [...WEEKDAYS],
      includeHolidays: false,
    };
    let asked = 0;
    const dates = slotDates(
      series,
      () => {
        asked += 1;
        return false;
      },
      999,
    );
    // One more than the maximum: the caller can tell "more than 999" and refuse.
    expect(dates).toHaveLength(1000);
    expect(dates[0]).toBe('0001-01-01');
    expect(dates[999]).toBe('0003-09-27');
    expect(asked).toBe(1000);
    // Holidays skipped do not count towards the maximum.
    const holidays = new Set(['0001-01-02', '0001-01-04']);
    expect(slotDates(series, (d) => holidays.has(d), 2)).toEqual([
      '0001-01-01',
      '0001-01-03',
      '0001-01-05',
    ]);
    // A series within the maximum comes back whole.
    expect(
      slotDates({ ...series, startDate: '2026-12-01', repeatUntil: '2026-12-31' }, none, 31),
    ).toHaveLength(31);
  });

  it('walks the whole range of dates quickly when no weekday matches or all are holidays', () => {
    const series = { startDate: '0001-01-01', repeatUntil: '9999-12-31', includeHolidays: false };
    expect(slotDates({ ...series, daysOfWeek: [] }, none, 999)).toEqual([]);
    // Holidays can only be skipped one by one; still no array of 3.65 million dates.
    let asked = 0;
    expect(
      slotDates(
        { ...series, daysOfWeek: ['SUNDAY'] },
        () => {
          asked += 1;
          return true;
        },
        999,
      ),
    ).toEqual([]);
    expect(asked).toBe(521_722); // the Sundays from 0001-01-07 to 9999-12-26
  });
});
