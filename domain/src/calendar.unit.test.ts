import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  datesBetween,
  isValidLocalDate,
  isValidLocalTime,
  instantOf,
  localDateTime,
  minutesOf,
  weekdayOf,
} from './calendar.ts';

describe('local dates', () => {
  it('validates dates and times strictly', () => {
    expect(isValidLocalDate('2026-02-28')).toBe(true);
    expect(isValidLocalDate('2026-02-29')).toBe(false);
    expect(isValidLocalDate('2028-02-29')).toBe(true);
    expect(isValidLocalDate('26-02-01')).toBe(false);
    // PostgreSQL's dates: no year 0; four-digit years only.
    expect(isValidLocalDate('0000-01-01')).toBe(false);
    expect(isValidLocalDate('0001-01-01')).toBe(true);
    expect(isValidLocalDate('9999-12-31')).toBe(true);
    expect(isValidLocalDate('99999-01-01')).toBe(false);
    expect(isValidLocalTime('23:59')).toBe(true);
    expect(isValidLocalTime('24:00')).toBe(false);
    expect(isValidLocalTime('12:60')).toBe(false);
    expect(isValidLocalTime('9:00')).toBe(false);
  });

  it('adds days across months, years and the DST changes', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-10-24', 2)).toBe('2026-10-26');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('names weekdays Monday first', () => {
    expect(weekdayOf('2026-11-23')).toBe('MONDAY');
    expect(weekdayOf('2026-11-22')).toBe('SUNDAY');
    expect(datesBetween('2026-11-20', '2026-11-23').map(weekdayOf)).toEqual([
      'FRIDAY',
      'SATURDAY',
      'SUNDAY',
      'MONDAY',
    ]);
    expect(datesBetween('2026-11-23', '2026-11-20')).toEqual([]);
    expect(datesBetween('2026-11-23', '2026-11-23')).toEqual(['2026-11-23']);
    // The last date there is: the loop ends there instead of stepping past it (it never ended).
    expect(datesBetween('9999-12-30', '9999-12-31')).toEqual(['9999-12-30', '9999-12-31']);
  });

  it('reads local date and time in Vienna on both sides of midnight and DST', () => {
    expect(localDateTime(new Date('2026-11-22T23:30:00Z'), 'Europe/Vienna')).toEqual({
      date: '2026-11-23',
      time: '00:30',
    });
    expect(localDateTime(new Date('2026-03-29T00:59:00Z'), 'Europe/Vienna')).toEqual({
      date: '2026-03-29',
      time: '01:59',
    });
    expect(localDateTime(new Date('2026-03-29T01:00:00Z'), 'Europe/Vienna')).toEqual({
      date: '2026-03-29',
      time: '03:00',
    });
    expect(localDateTime(new Date('2026-10-25T00:30:00Z'), 'Europe/Vienna').time).toBe('02:30');
    expect(localDateTime(new Date('2026-10-25T01:30:00Z'), 'Europe/Vienna').time).toBe('02:30');
    expect(minutesOf('10:45')).toBe(645);
  });

  it('answers every instant of a minute alike, as formatting each on its own does', () => {
    const zones = [
      'Europe/Vienna',
      'America/St_Johns',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'Africa/Monrovia',
    ];
    // An oracle of its own: Swedish short dates and times read "2026-12-05 14:05".
    const format = (instant: Date, timeZone: string) => {
      const [date, time] = new Intl.DateTimeFormat('sv-SE', {
        timeZone,
        dateStyle: 'short',
        timeStyle: 'short',
      })
        .format(instant)
        .split(' ');
      return { date, time };
    };
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: 0, max: 59_999 }),
        fc.constantFrom(...zones),
        (at, later, zone) => {
          // The minute's first instant asked first, so a later one of the same minute is answered
          // from what it left behind.
          const first = new Date(at - (at % 60_000));
          expect(localDateTime(first, zone)).toEqual(format(first, zone));
          const instant = new Date(first.getTime() + later);
          expect(localDateTime(instant, zone)).toEqual(format(instant, zone));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('instantOf', () => {
  it('reads local times of a zone across daylight saving, the inverse of localDateTime', () => {
    expect(instantOf('2026-07-01', '10:00', 'Europe/Vienna').toISOString()).toBe(
      '2026-07-01T08:00:00.000Z',
    );
    expect(instantOf('2026-11-23', '10:00', 'Europe/Vienna').toISOString()).toBe(
      '2026-11-23T09:00:00.000Z',
    );
    // The morning after the spring change (02:00 -> 03:00) and the autumn one.
    expect(instantOf('2026-03-29', '03:30', 'Europe/Vienna').toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(instantOf('2026-10-25', '04:00', 'Europe/Vienna').toISOString()).toBe(
      '2026-10-25T03:00:00.000Z',
    );
    for (const iso of ['2026-01-15T11:45:00.000Z', '2026-08-31T22:00:00.000Z']) {
      const { date, time } = localDateTime(new Date(iso), 'Europe/Vienna');
      expect(instantOf(date, time, 'Europe/Vienna').toISOString()).toBe(iso);
    }
  });
});
