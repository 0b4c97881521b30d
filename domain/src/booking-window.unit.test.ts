import { describe, expect, it } from 'vitest';
import {
  bookableOnlineFrom,
  bookingWindow,
  dateAfter,
  DEFAULT_OPEN_END,
  DEFAULT_OPEN_START,
  isOpenForBooking,
  isWorkingDay,
  roomBookingWindow,
  roomOpenBounds,
  rowOpenBounds,
} from './booking-window.ts';

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

describe('bookable online from', () => {
  const start = { type: 'DAY', value: 2 } as const;

  it('is the first day whose window reaches the date, counted in days', () => {
    // Monday 23 Nov 2026, end 10 days: until 3 Dec; 4 Dec opens on 24 Nov.
    const end = { type: 'DAY', value: 10 } as const;
    expect(bookableOnlineFrom('2026-12-03', '2026-11-23', start, end, none)).toBeNull();
    expect(bookableOnlineFrom('2026-12-04', '2026-11-23', start, end, none)).toBe('2026-11-24');
    expect(bookableOnlineFrom('2026-12-20', '2026-11-23', start, end, none)).toBe('2026-12-10');
    // The day found really reaches the date, and the day before does not.
    const w = bookingWindow('2026-12-10', start, end, none);
    expect(isOpenForBooking('2026-12-20', w)).toBe(true);
    expect(isOpenForBooking('2026-12-20', bookingWindow('2026-12-09', start, end, none))).toBe(
      false,
    );
  });

  it('counts working days back over weekends and holidays', () => {
    const end = { type: 'WORKING_DAY', value: 2 } as const;
    // Monday 7 Dec 2026, 8 Dec a holiday: until Thursday 10 Dec.
    const h = holidays('2026-12-08');
    expect(bookableOnlineFrom('2026-12-10', '2026-12-07', start, end, h)).toBeNull();
    // Monday 14 Dec: two working days before it are Thursday 10 and Friday 11.
    expect(bookableOnlineFrom('2026-12-14', '2026-12-07', start, end, h)).toBe('2026-12-10');
    for (const date of ['2026-12-11', '2026-12-14', '2026-12-15', '2026-12-19']) {
      const from = bookableOnlineFrom(date, '2026-12-07', start, end, h)!;
      expect(isOpenForBooking(date, bookingWindow(from, start, end, h))).toBe(true);
    }
  });

  it('is null when no window holds the date (a start beyond the end)', () => {
    expect(
      bookableOnlineFrom(
        '2026-12-20',
        '2026-11-23',
        { type: 'DAY', value: 9 },
        { type: 'DAY', value: 3 },
        none,
      ),
    ).toBeNull();
  });
});

describe('roomOpenBounds (docs/product.md#booking-window)', () => {
  const site = {
    openStart: { type: 'DAY', value: 1 },
    openEnd: { type: 'DAY', value: 5 },
  } as const;
  const own = { type: 'WORKING_DAY', value: 9 } as const;

  it('takes each bound from the room, else its site, else 2 days and 30 working days', () => {
    expect(roomOpenBounds({}, null)).toEqual({
      openStart: DEFAULT_OPEN_START,
      openEnd: DEFAULT_OPEN_END,
    });
    expect(DEFAULT_OPEN_START).toEqual({ type: 'DAY', value: 2 });
    expect(DEFAULT_OPEN_END).toEqual({ type: 'WORKING_DAY', value: 30 });
    expect(roomOpenBounds({}, site)).toEqual(site);
    expect(roomOpenBounds({ openEnd: own }, site)).toEqual({
      openStart: site.openStart,
      openEnd: own,
    });
    expect(roomOpenBounds({ openStart: own, openEnd: null }, { openEnd: null })).toEqual({
      openStart: own,
      openEnd: DEFAULT_OPEN_END,
    });
  });

  it('reads a rooms read-model row with its site the same way', () => {
    const row = {
      open_start_type: null,
      open_start_value: null,
      open_end_type: 'DAY' as const,
      open_end_value: 3,
      site_window: site,
      holidays: [],
    };
    expect(rowOpenBounds(row)).toEqual({
      openStart: site.openStart,
      openEnd: { type: 'DAY', value: 3 },
    });
    expect(roomBookingWindow('2026-12-07', row)).toEqual({
      from: '2026-12-08',
      until: '2026-12-10',
    });
    expect(roomBookingWindow('2026-12-07', { ...row, site_window: null }).from).toBe('2026-12-09');
  });
});
