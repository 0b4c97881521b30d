import { afterEach, describe, expect, it } from 'vitest';
import { addYearsIso } from './staff-dates';
import {
  formatClockTime,
  formatDateTime,
  addDaysIso,
  formatDate,
  formatLongDate,
  formatTime,
  formatTimeRange,
  isIsoDate,
  parseIsoDate,
  toIsoDate,
  todayIso,
  DEFAULT_TIME_ZONE,
  getLibraryTimeZone,
  setLibraryTimeZone,
} from './dates';

describe('dates', () => {
  it('converts between dates and YYYY-MM-DD in local time', () => {
    expect(toIsoDate(new Date(2026, 2, 5, 23, 59))).toBe('2026-03-05');
    expect(parseIsoDate('2026-03-05')?.getTime()).toBe(new Date(2026, 2, 5).getTime());
    // The library's day (Europe/Vienna, UTC+1 in winter), not the device's.
    expect(todayIso(new Date('2026-12-30T23:01:00Z'))).toBe('2026-12-31');
    expect(todayIso(new Date('2026-12-31T22:59:00Z'))).toBe('2026-12-31');
  });

  it('accepts only real calendar days', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('05.03.2026')).toBe(false);
    expect(isIsoDate('')).toBe(false);
    expect(isIsoDate('0000-01-01')).toBe(false);
    expect(isIsoDate(' 2026-03-05 ')).toBe(true);
  });

  it('formats dates as dd.MM.yyyy and times as HH:mm', () => {
    expect(formatDate('2026-03-05')).toBe('05.03.2026');
    expect(formatDate('soon')).toBe('soon');
    expect(formatTime('08:30:00')).toBe('08:30');
    expect(formatTime('08:30')).toBe('08:30');
    expect(formatTimeRange('08:00', '12:30:00')).toBe('08:00-12:30');
  });

  it('adds days and years', () => {
    expect(addDaysIso('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDaysIso('2026-01-01', -1)).toBe('2025-12-31');
    expect(addYearsIso('2026-03-05', 1)).toBe('2027-03-05');
    expect(addYearsIso('2028-02-29', 1)).toBe('2029-02-28');
    expect(addYearsIso('2028-02-29', 4)).toBe('2032-02-29');
    expect(addYearsIso('2026-12-31', 1)).toBe('2027-12-31');
    expect(addDaysIso('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDaysIso('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDaysIso('0050-01-01', 1)).toBe('0050-01-02');
    expect(() => addDaysIso('nope', 1)).toThrow(RangeError);
  });

  it('formats a long localised date', () => {
    expect(formatLongDate('2026-03-02', 'de')).toBe('Montag, 2. März 2026');
    expect(formatLongDate('2026-03-02', 'en')).toMatch(/^Monday,? 2 March 2026$/);
  });
});

describe('clock and date-time of an instant', () => {
  afterEach(() => setLibraryTimeZone(DEFAULT_TIME_ZONE));

  it("are 24-hour, the same in every language, in the library's time zone", () => {
    const instant = new Date('2026-11-24T15:43:05Z');
    expect(formatClockTime(instant)).toBe('16:43');
    expect(formatDateTime(instant)).toBe('24.11.2026, 16:43:05');
    expect(formatClockTime(new Date('2026-01-02T03:09:00Z'))).toBe('04:09');
    // Summer time: UTC+2.
    expect(formatClockTime(new Date('2026-07-01T07:30:00Z'))).toBe('09:30');
  });

  it('follow the zone the server names, and keep it for a name the browser does not know', () => {
    const instant = new Date('2026-11-24T23:30:00Z');
    setLibraryTimeZone('America/New_York');
    expect(getLibraryTimeZone()).toBe('America/New_York');
    expect(formatDateTime(instant)).toBe('24.11.2026, 18:30:00');
    expect(todayIso(instant)).toBe('2026-11-24');
    setLibraryTimeZone('Not/A_Zone');
    expect(getLibraryTimeZone()).toBe('America/New_York');
    setLibraryTimeZone('Europe/Vienna');
    expect(todayIso(instant)).toBe('2026-11-25');
    expect(formatClockTime(instant)).toBe('00:30');
  });
});
