import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CalendarFileError,
  parseHolidayCalendar,
  type CalendarImportLimits,
  type CalendarReading,
} from './ical.ts';

const LIMITS: CalendarImportLimits = {
  from: '2025-01-01',
  until: '2031-12-31',
  maxEvents: 100,
  maxOccurrences: 1_000,
  maxHolidays: 500,
};

const wrap = (events: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//tests//ical//DE',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** One all-day event (DTEND exclusive, or a DURATION such as P5D), with extra lines. */
const vevent = (uid: string, start: string, end: string, summary: string, extra: string[] = []) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTART;VALUE=DATE:${start}`,
    end.startsWith('P') ? `DURATION:${end}` : `DTEND;VALUE=DATE:${end}`,
    `SUMMARY:${summary}`,
    ...extra,
    'END:VEVENT',
  ].join('\r\n');

const calendar = (start: string, end: string, summary = 'Feiertag') =>
  wrap([vevent('1', start, end, summary)]);

const read = (text: string, limits: Partial<CalendarImportLimits> = {}) =>
  parseHolidayCalendar(text, { ...LIMITS, ...limits });
const dates = (r: CalendarReading) => r.holidays.map((h) => h.date);
const fault = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    if (err instanceof CalendarFileError) return { fault: err.fault, limit: err.limit };
    throw err;
  }
  throw new Error('no CalendarFileError');
};

describe('holiday calendar import', () => {
  it('makes a name one line and keeps only line feeds in a description', () => {
    const r = read(
      wrap([
        vevent('1', '20261224', '20261225', 'Heilig\\nabend\u0007', [
          'DESCRIPTION:Erste Zeile\\nzweite\u0001 Zeile',
        ]),
      ]),
    );
    expect(r.holidays).toEqual([
      { date: '2026-12-24', name: 'Heilig abend', description: 'Erste Zeile\nzweite Zeile' },
    ]);
  });

  it('makes one holiday per day of an all-day event', () => {
    expect(dates(read(calendar('20261224', '20261227')))).toEqual([
      '2026-12-24',
      '2026-12-25',
      '2026-12-26',
    ]);
  });

  it('counts days outside the window instead of importing them, also of an event across its edge', () => {
    const r = read(
      wrap([
        vevent('a', '20241230', '20250103', 'Ferien'), // 2 days before, 2 inside
        vevent('b', '20320101', '20320102', 'Neujahr'), // after
        vevent('c', '00000101', '00000102', 'Jahr null'), // no such year
        vevent('d', '99991230', 'P5D', 'Ende'), // past year 9999
      ]),
    );
    expect(dates(r)).toEqual(['2025-01-01', '2025-01-02']);
    expect(r.outOfWindow).toBe(2 + 1 + 1 + 5);
  });

  it('expands a series up to the window and stops there, even without an end', () => {
    const r = read(
      wrap([vevent('may', '20200501', '20200502', 'Staatsfeiertag', ['RRULE:FREQ=YEARLY'])]),
    );
    expect(dates(r)).toEqual([2025, 2026, 2027, 2028, 2029, 2030, 2031].map((y) => `${y}-05-01`));
    expect(r.outOfWindow).toBe(5 + 1); // 2020..2024, and the first one after the window
  });

  it('leaves out excluded instances and moves a moved one (RECURRENCE-ID)', () => {
    const r = read(
      wrap([
        vevent('s', '20260105', '20260106', 'Schließtag', [
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'EXDATE;VALUE=DATE:20260112',
        ]),
        vevent('s', '20260120', '20260121', 'Schließtag (verschoben)', [
          'RECURRENCE-ID;VALUE=DATE:20260119',
        ]),
      ]),
    );
    expect(r.holidays.map((h) => [h.date, h.name])).toEqual([
      ['2026-01-05', 'Schließtag'],
      ['2026-01-20', 'Schließtag (verschoben)'],
      ['2026-01-26', 'Schließtag'],
    ]);
  });

  it('takes the same date and name once, ignoring case and spaces, and counts the repeat', () => {
    const r = read(
      wrap([
        vevent('1', '20261208', '20261209', 'Mariä Empfängnis'),
        vevent('2', '20261208', '20261209', ' mariä empfängnis '),
        vevent('3', '20261208', '20261209', 'Anderer Name'),
      ]),
    );
    expect(r.holidays).toHaveLength(2);
    expect(r.repeated).toBe(1);
  });

  it('ignores timed and unnamed events', () => {
    const timed = [
      'BEGIN:VEVENT',
      'UID:t',
      'DTSTART:20260315T100000Z',
      'DTEND:20260315T110000Z',
      'SUMMARY:Meeting',
      'END:VEVENT',
    ].join('\r\n');
    const r = read(wrap([timed, vevent('n', '20260101', '20260102', ' ')]));
    expect(r).toEqual({ holidays: [], ignored: 2, outOfWindow: 0, repeated: 0 });
  });

  it('refuses more events than allowed before parsing, naming the limit', () => {
    const many = wrap(
      Array.from({ length: 11 }, (_, i) => vevent(String(i), '20260101', '20260102', `H${i}`)),
    );
    expect(fault(() => read(many, { maxEvents: 10 }))).toEqual({
      fault: 'too_many_events',
      limit: 10,
    });
  });

  it('refuses a series amplification: occurrences and days are capped, not enumerated', () => {
    // The adversarial file: daily series of long events (each occurrence a year of days).
    const amplified = wrap(
      Array.from({ length: 40 }, (_, i) =>
        vevent(`amp${i}`, '20260101', 'P366D', `Amp ${i}`, ['RRULE:FREQ=DAILY;COUNT=200']),
      ),
    );
    expect(fault(() => read(amplified))).toEqual({ fault: 'too_many_days', limit: 500 });
    expect(fault(() => read(amplified, { maxHolidays: 10_000_000 }))).toEqual({
      fault: 'too_many_occurrences',
      limit: 1_000,
    });
    // A daily series from long ago: reading up to the window costs occurrences, and is bounded.
    const ancient = wrap([vevent('old', '18000101', '18000102', 'Alt', ['RRULE:FREQ=DAILY'])]);
    expect(fault(() => read(ancient))).toEqual({ fault: 'too_many_occurrences', limit: 1_000 });
  });

  it('refuses what is no calendar, and a file with NUL', () => {
    for (const text of ['', 'just text', 'BEGIN:VEVENT\r\nEND:VEVENT\r\n', 'BEGIN:VCALENDAR\r\n'])
      expect(fault(() => read(text)).fault).toBe('invalid');
    expect(fault(() => read(calendar('20261224', '20261225', 'A\u0000B'))).fault).toBe('invalid');
  });

  it('reads several calendars in one file', () => {
    const two = calendar('20260101', '20260102', 'Eins') + calendar('20260106', '20260107', 'Zwei');
    expect(dates(read(two))).toEqual(['2026-01-01', '2026-01-06']);
  });

  it('never throws anything but CalendarFileError, and keeps within its limits, on any text', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'BEGIN:VEVENT',
        'END:VEVENT',
        'BEGIN:VCALENDAR',
        'END:VCALENDAR',
        'DTSTART;VALUE=DATE:20260101',
        'DTSTART;VALUE=DATE:99991231',
        'DTSTART:20260101T100000Z',
        'DTEND;VALUE=DATE:20270101',
        'DURATION:P400D',
        'RRULE:FREQ=DAILY',
        'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
        'RRULE:FREQ=WEEKLY;INTERVAL=0',
        'EXDATE;VALUE=DATE:20260102',
        'RECURRENCE-ID;VALUE=DATE:20260102',
        'SUMMARY:X',
        'UID:1',
      ),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const text = wrap(lines);
        try {
          const r = read(text);
          expect(r.holidays.length).toBeLessThanOrEqual(LIMITS.maxHolidays);
          for (const h of r.holidays) {
            expect(h.date >= LIMITS.from && h.date <= LIMITS.until).toBe(true);
            expect(h.name.length).toBeGreaterThan(0);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(CalendarFileError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
