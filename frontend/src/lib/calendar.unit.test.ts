import { afterEach, describe, expect, it } from 'vitest';
import {
  compareYearMonth,
  currentYearMonth,
  dayLabel,
  gridKeyTarget,
  dayStatus,
  formatYearMonth,
  monthRange,
  monthWeeks,
  occupancyPercent,
  parseYear,
  parseYearMonth,
  shiftMonth,
  slotsByDate,
  weekdayNames,
  weekdayOf,
  type CalendarSlot,
} from './calendar';
import { DEFAULT_TIME_ZONE, setLibraryTimeZone } from './dates';
import { isOverbooked } from './staff-calendar';

/** A slot with the server's seat answer: full when it says no seat is left (`full`). */
const slot = (
  date: string,
  startTime: string,
  capacity: number,
  ticketCount: number,
  full = ticketCount >= capacity,
) =>
  ({
    id: `${date}-${startTime}`,
    date,
    startTime,
    endTime: '23:59',
    capacity,
    ticketCount,
    failedRules: full ? ['timeslot_no_tickets_left'] : [],
  }) satisfies CalendarSlot;

describe('month weeks', () => {
  it('starts weeks on Monday and fills them with neighbouring days', () => {
    // March 2026 starts on a Sunday and ends on a Tuesday.
    const weeks = monthWeeks({ year: 2026, month: 3 });
    expect(weeks).toHaveLength(6);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks[0]![0]).toEqual({
      date: '2026-02-23',
      day: 23,
      weekday: 'MONDAY',
      inMonth: false,
    });
    expect(weeks[0]![6]).toMatchObject({ date: '2026-03-01', weekday: 'SUNDAY', inMonth: true });
    expect(weeks[5]![1]).toMatchObject({ date: '2026-03-31', weekday: 'TUESDAY', inMonth: true });
    expect(weeks[5]![6]).toMatchObject({ date: '2026-04-05', inMonth: false });
    expect(weeks.flat().filter((day) => day.inMonth)).toHaveLength(31);
  });

  it('needs only four weeks for a February from Monday to Sunday', () => {
    const weeks = monthWeeks({ year: 2027, month: 2 });
    expect(weeks).toHaveLength(4);
    expect(weeks[0]![0]!.date).toBe('2027-02-01');
    expect(weeks[3]![6]!.date).toBe('2027-02-28');
  });

  it('handles leap years and the turn of the year', () => {
    expect(
      monthWeeks({ year: 2028, month: 2 })
        .flat()
        .filter((d) => d.inMonth),
    ).toHaveLength(29);
    const december = monthWeeks({ year: 2026, month: 12 });
    expect(december.at(-1)!.at(-1)!.date).toBe('2027-01-03');
  });

  it('keeps whole days across daylight saving changes', () => {
    const october = monthWeeks({ year: 2026, month: 10 }).flat();
    const dates = october.map((day) => day.date);
    expect(new Set(dates).size).toBe(dates.length);
    expect(dates).toContain('2026-10-25');
    expect(dates).toContain('2026-10-26');
  });
});

describe('months', () => {
  it('computes the range a calendar loads', () => {
    expect(monthRange({ year: 2026, month: 2 })).toEqual({
      fromDate: '2026-02-01',
      untilDate: '2026-02-28',
    });
    expect(monthRange({ year: 2026, month: 12 }).untilDate).toBe('2026-12-31');
  });

  it('shifts across years', () => {
    expect(shiftMonth({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
    expect(shiftMonth({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
    expect(shiftMonth({ year: 2026, month: 5 }, -17)).toEqual({ year: 2024, month: 12 });
    expect(compareYearMonth({ year: 2026, month: 1 }, { year: 2025, month: 12 })).toBeGreaterThan(
      0,
    );
  });

  it('reads month and year query parameters with a fallback', () => {
    const fallback = { year: 2026, month: 3 };
    expect(parseYearMonth({ year: '2027', month: '11' }, fallback)).toEqual({
      year: 2027,
      month: 11,
    });
    expect(parseYearMonth({ year: null, month: '13' }, fallback)).toEqual(fallback);
    expect(parseYearMonth({ year: 'abc', month: '0' }, fallback)).toEqual(fallback);
    expect(parseYearMonth({ month: '2' }, fallback)).toEqual({ year: 2026, month: 2 });
    expect(parseYear('20260')).toBeNull();
  });

  it('names weekdays Monday first and months', () => {
    expect(weekdayNames('de', 'long')[0]).toBe('Montag');
    expect(weekdayNames('en', 'short')[6]).toBe('Sun');
    expect(weekdayOf(new Date(2026, 2, 1))).toBe('SUNDAY');
    expect(formatYearMonth({ year: 2026, month: 3 }, 'de')).toBe('März 2026');
  });
});

describe('day status', () => {
  it('is empty without slots, full when no slot has a free seat, else free', () => {
    expect(dayStatus([])).toBe('empty');
    expect(dayStatus([slot('2026-03-02', '08:00', 5, 0)])).toBe('free');
    expect(dayStatus([slot('2026-03-02', '08:00', 5, 5), slot('2026-03-02', '13:00', 2, 1)])).toBe(
      'free',
    );
    expect(dayStatus([slot('2026-03-02', '08:00', 5, 5), slot('2026-03-02', '13:00', 2, 3)])).toBe(
      'full',
    );
    expect(dayStatus([slot('2026-03-02', '08:00', 0, 0)])).toBe('full');
  });

  it('takes whether a seat is left from the server, never from the counts', () => {
    // Counted full, but the server weighs the ended holds among them: free.
    expect(dayStatus([slot('2026-03-02', '08:00', 5, 5, false)])).toBe('free');
    // Counted free, but the waitlist claims the seats: full.
    expect(dayStatus([slot('2026-03-02', '08:00', 5, 3, true)])).toBe('full');
  });

  it('marks a day as overbooked when any slot has more tickets than capacity', () => {
    expect(isOverbooked([slot('2026-03-02', '08:00', 5, 5)])).toBe(false);
    expect(
      isOverbooked([slot('2026-03-02', '08:00', 5, 1), slot('2026-03-02', '9:00', 1, 2)]),
    ).toBe(true);
  });

  it('groups slots by day in time order', () => {
    const days = slotsByDate([
      slot('2026-03-03', '13:00', 1, 0),
      slot('2026-03-02', '13:00', 1, 0),
      slot('2026-03-02', '08:00', 1, 0),
    ]);
    expect([...days.keys()]).toEqual(['2026-03-03', '2026-03-02']);
    expect(days.get('2026-03-02')!.map((s) => s.startTime)).toEqual(['08:00', '13:00']);
  });

  it('caps the occupancy at 100 percent', () => {
    expect(occupancyPercent(0, 10)).toBe(0);
    expect(occupancyPercent(3, 10)).toBe(30);
    expect(occupancyPercent(15, 10)).toBe(100);
    expect(occupancyPercent(0, 0)).toBe(100);
  });
});

describe('gridKeyTarget (the month grid, WAI-ARIA grid pattern)', () => {
  // Thursday 3 December 2026; December 2026 runs from a Tuesday to a Thursday.
  it('moves a day with left and right and a week with up and down, across the month', () => {
    expect(gridKeyTarget('2026-12-03', 'ArrowLeft')).toBe('2026-12-02');
    expect(gridKeyTarget('2026-12-03', 'ArrowRight')).toBe('2026-12-04');
    expect(gridKeyTarget('2026-12-03', 'ArrowUp')).toBe('2026-11-26');
    expect(gridKeyTarget('2026-12-03', 'ArrowDown')).toBe('2026-12-10');
    expect(gridKeyTarget('2026-12-31', 'ArrowRight')).toBe('2027-01-01');
    expect(gridKeyTarget('2026-12-01', 'ArrowLeft')).toBe('2026-11-30');
  });

  it("goes with Home and End to the week's first and last day within the month", () => {
    expect(gridKeyTarget('2026-12-10', 'Home')).toBe('2026-12-07');
    expect(gridKeyTarget('2026-12-10', 'End')).toBe('2026-12-13');
    expect(gridKeyTarget('2026-12-03', 'Home')).toBe('2026-12-01');
    expect(gridKeyTarget('2026-12-29', 'End')).toBe('2026-12-31');
  });

  it('goes with Page Up and Page Down to the same day of the neighbouring month, or its last', () => {
    expect(gridKeyTarget('2026-12-03', 'PageUp')).toBe('2026-11-03');
    expect(gridKeyTarget('2026-12-03', 'PageDown')).toBe('2027-01-03');
    expect(gridKeyTarget('2027-01-31', 'PageDown')).toBe('2027-02-28');
    expect(gridKeyTarget('2026-03-31', 'PageUp')).toBe('2026-02-28');
    expect(gridKeyTarget('2028-03-30', 'PageUp')).toBe('2028-02-29');
  });

  it('leaves other keys to the page', () => {
    expect(gridKeyTarget('2026-12-03', 'Enter')).toBeNull();
    expect(gridKeyTarget('2026-12-03', 'a')).toBeNull();
  });
});

describe('dayLabel', () => {
  const date = 'Freitag, 25. Dezember 2026';
  it('names the date, today, the note, the state and the marks', () => {
    expect(dayLabel({ date, status: 'free', statusText: 'frei', marks: ['im Warenkorb'] })).toBe(
      `${date}, frei, im Warenkorb`,
    );
    expect(dayLabel({ date, today: 'heute', status: 'full', statusText: 'ausgebucht' })).toBe(
      `${date}, heute, ausgebucht`,
    );
    expect(dayLabel({ date, status: 'empty', statusText: 'keine Zeitfenster' })).toBe(
      `${date}, keine Zeitfenster`,
    );
  });

  it('says why a day has no slots instead of "no slots"', () => {
    const note = { text: 'Christtag' };
    expect(dayLabel({ date, note, status: 'empty', statusText: 'keine Zeitfenster' })).toBe(
      `${date}, Christtag`,
    );
    expect(dayLabel({ date, note, status: 'free', statusText: 'frei' })).toBe(
      `${date}, Christtag, frei`,
    );
    const later = { text: 'noch nicht buchbar', symbol: '◌' };
    expect(dayLabel({ date, note: later, status: 'empty', statusText: 'keine Zeitfenster' })).toBe(
      `${date}, noch nicht buchbar`,
    );
  });
});

describe('currentYearMonth', () => {
  afterEach(() => setLibraryTimeZone(DEFAULT_TIME_ZONE));

  it("is the library's month, not the device's", () => {
    // 23:30 UTC on 30 November is 00:30 on 1 December in Vienna; 18:30 on 30 November in New York.
    const instant = new Date('2026-11-30T23:30:00Z');
    setLibraryTimeZone('Europe/Vienna');
    expect(currentYearMonth(instant)).toEqual({ year: 2026, month: 12 });
    setLibraryTimeZone('America/New_York');
    expect(currentYearMonth(instant)).toEqual({ year: 2026, month: 11 });
    // New Year's Eve: the year turns with the month.
    setLibraryTimeZone('Europe/Vienna');
    expect(currentYearMonth(new Date('2026-12-31T23:30:00Z'))).toEqual({ year: 2027, month: 1 });
  });
});
