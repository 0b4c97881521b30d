import { describe, expect, it } from 'vitest';
import { CalendarFileError, parseHolidayCalendar } from './ical.ts';

/** A calendar of one all-day event (DTEND exclusive, or DURATION:P5D). */
const calendar = (start: string, end: string, summary = 'Feiertag') =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//tests//ical//DE',
    'BEGIN:VEVENT',
    'UID:1',
    `DTSTART;VALUE=DATE:${start}`,
    end.startsWith('P') ? `DURATION:${end}` : `DTEND;VALUE=DATE:${end}`,
    `SUMMARY:${summary}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe('holiday calendar import', () => {
  it('makes one holiday per day of an all-day event', () => {
    expect(
      parseHolidayCalendar(calendar('20261224', '20261227')).holidays.map((h) => h.date),
    ).toEqual(['2026-12-24', '2026-12-25', '2026-12-26']);
  });

  it('skips dates PostgreSQL has not got (year 0, after 9999-12-31)', () => {
    expect(parseHolidayCalendar(calendar('00000101', '00000102'))).toEqual({
      holidays: [],
      ignored: 1,
    });
    const end = parseHolidayCalendar(calendar('99991230', 'P5D'));
    expect(end.holidays.map((h) => h.date)).toEqual(['9999-12-30', '9999-12-31']);
    expect(end.ignored).toBe(3);
  });

  it('refuses a file with NUL, which no text column stores', () => {
    expect(() => parseHolidayCalendar(calendar('20261224', '20261225', 'A\u0000B'))).toThrow(
      CalendarFileError,
    );
  });
});
