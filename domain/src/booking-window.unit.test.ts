import { describe, expect, it } from 'vitest';
import { bookingWindow, dateAfter, isOpenForBooking, isWorkingDay } from './booking-window.ts';

const none = () => false;
const holidays =
  (...dates: string[]) =>
  (d: string) =>
    dates.includes(d);

describe('booking window', () => {
  it('counts calendar days for DAY', () => {
    // Sunday 22 Nov 2026
    expect(dateAfter('2026-11-22', { type: 'DAY', value: 0 }, none)).toBe('2026-11-22');
    expect(dateAfter('2026-11-22', { type: 'DAY', value: 2 }, none)).toBe('2026-11-24');
    expect(dateAfter('2026-12-30', { type: 'DAY', value: 3 }, none)).toBe('2027-01-02');
  });

  it('counts Monday to Friday minus holidays for WORKING_DAY', () => {
    // Friday 27 Nov 2026 + 1 working day = Monday 30 Nov
    expect(dateAfter('2026-11-27', { type: 'WORKING_DAY', value: 1 }, none)).toBe('2026-11-30');
    // 8 Dec 2026 (Tuesday) is a holiday in Austria: Monday 7 + 2 working days = Wednesday 9
    expect(dateAfter('2026-12-07', { type: 'WORKING_DAY', value: 2 }, holidays('2026-12-08'))).toBe(
      '2026-12-10',
    );
    expect(dateAfter('2026-12-07', { type: 'WORKING_DAY', value: 2 }, none)).toBe('2026-12-09');
    expect(dateAfter('2026-11-22', { type: 'WORKING_DAY', value: 0 }, none)).toBe('2026-11-22');
    expect(isWorkingDay('2026-11-28', none)).toBe(false);
    expect(isWorkingDay('2026-12-08', holidays('2026-12-08'))).toBe(false);
  });

  it('is inclusive at both ends and uses the room defaults (start DAY/2, end WORKING_DAY/30)', () => {
    const today = '2026-11-23'; // Monday
    const w = bookingWindow(
      today,
      { type: 'DAY', value: 2 },
      { type: 'WORKING_DAY', value: 30 },
      none,
    );
    expect(w).toEqual({ from: '2026-11-25', until: '2027-01-04' });
    expect(isOpenForBooking('2026-11-24', w)).toBe(false);
    expect(isOpenForBooking('2026-11-25', w)).toBe(true);
    expect(isOpenForBooking('2027-01-04', w)).toBe(true);
    expect(isOpenForBooking('2027-01-05', w)).toBe(false);
    const withHolidays = bookingWindow(
      today,
      { type: 'DAY', value: 2 },
      { type: 'WORKING_DAY', value: 30 },
      holidays('2026-12-08', '2026-12-24', '2026-12-25', '2027-01-01'),
    );
    expect(withHolidays.until).toBe('2027-01-08');
  });
});
