import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidLocalDate, monthDates } from './dates.ts';

describe('the days of a month', () => {
  it('end on the 28th, 29th, 30th or 31st as the calendar has it, leap years included', () => {
    expect(monthDates('2028-02')).toEqual({ fromDate: '2028-02-01', untilDate: '2028-02-29' });
    expect(monthDates('2100-02').untilDate).toBe('2100-02-28');
    expect(monthDates('2000-02').untilDate).toBe('2000-02-29');
    expect(monthDates('2027-04').untilDate).toBe('2027-04-30');
    expect(monthDates('2027-12').untilDate).toBe('2027-12-31');
    expect(monthDates('0044-02').untilDate).toBe('0044-02-29');
  });

  it('are every day from the first to the last, and the day after the last is another month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const month = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
        const { fromDate, untilDate } = monthDates(month);
        expect(isValidLocalDate(fromDate) && isValidLocalDate(untilDate)).toBe(true);
        const lastDay = Number(untilDate.slice(8));
        expect(isValidLocalDate(`${month}-${lastDay + 1}`)).toBe(false);
      }),
    );
  });
});
