import { describe, expect, it } from 'vitest';
import { yearMonthOf, yearMonthSearch } from '../../../lib/staff-calendar';
import { calendarPath, calendarPathAt } from './paths';

describe('admin calendar paths', () => {
  it('carry the month as ?year=…&month=…', () => {
    expect(yearMonthSearch({ year: 2026, month: 4 })).toBe('?year=2026&month=4');
    expect(yearMonthOf('2026-04-30')).toEqual({ year: 2026, month: 4 });
    expect(yearMonthOf('x')).toBeNull();
    expect(calendarPath('r 1')).toBe('/room/r%201/time-slots');
    expect(calendarPathAt('r', '2026-04-30')).toBe('/room/r/time-slots?year=2026&month=4');
  });
});
