import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from './issues.ts';
import {
  hoursDayOf,
  hoursOn,
  rangesApart,
  siteHoursOf,
  SiteHoursInput,
  upcomingExceptions,
  MAX_HOURS_EXCEPTIONS,
  weekText,
} from './sites.ts';

/** The field errors of a request of hours (none when it passes). */
function errorsOf(value: unknown) {
  const result = check(SiteHoursInput, value);
  return result.ok ? {} : result.errors;
}

const r = (start: string, end: string) => ({ start, end });

describe('the opening hours of a site (docs/product.md#sites)', () => {
  it('take up to four ranges a day, each ending after it starts, none overlapping', () => {
    expect(errorsOf({ weekly: {}, exceptions: [] })).toEqual({});
    expect(
      errorsOf({
        weekly: {
          mon: [r('08:00', '10:00'), r('10:00', '12:00'), r('13:00', '15:00'), r('16:00', '23:59')],
        },
        exceptions: [],
      }),
    ).toEqual({});
    expect(errorsOf({ weekly: { mon: [r('10:00', '10:00')] }, exceptions: [] })).toEqual({
      'weekly.mon.0.end': { key: 'time-after' },
    });
    expect(errorsOf({ weekly: { tue: [r('9:00', '10:00')] }, exceptions: [] })).toEqual({
      'weekly.tue.0.start': { key: 'time' },
    });
    expect(
      errorsOf({ weekly: { wed: [r('08:00', '12:00'), r('11:59', '13:00')] }, exceptions: [] }),
    ).toEqual({ 'weekly.wed': { key: 'hours-overlap' } });
    expect(
      errorsOf({
        weekly: { thu: ['06', '08', '10', '12', '14'].map((h) => r(`${h}:00`, `${h}:30`)) },
        exceptions: [],
      }),
    ).toEqual({ 'weekly.thu': { key: 'hours-ranges', params: { max: 4 } } });
  });

  it('take each date once, at most 366, with a note of one line up to 200', () => {
    const day = (i: number) => ({
      date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10),
      ranges: [],
    });
    const most = Array.from({ length: MAX_HOURS_EXCEPTIONS }, (_, i) => day(i));
    expect(errorsOf({ weekly: {}, exceptions: most })).toEqual({});
    expect(errorsOf({ weekly: {}, exceptions: [...most, day(400)] })).toEqual({
      exceptions: { key: 'hours-exceptions', params: { max: 366 } },
    });
    expect(errorsOf({ weekly: {}, exceptions: [day(1), day(1)] })).toEqual({
      exceptions: { key: 'unique' },
    });
    expect(errorsOf({ weekly: {}, exceptions: [{ ...day(1), note: 'x'.repeat(201) }] })).toEqual({
      'exceptions.0.note': { key: 'max-length', params: { max: 200 } },
    });
    expect(errorsOf({ weekly: {}, exceptions: [{ ...day(1), noteEn: 'a\nb' }] })).toEqual({
      'exceptions.0.noteEn': { key: 'characters' },
    });
    expect(errorsOf({ weekly: {}, exceptions: [{ date: '2027-02-29', ranges: [] }] })).toEqual({
      'exceptions.0.date': { key: 'date' },
    });
  });

  it('find overlaps whatever the order the ranges come in', () => {
    const minute = fc.integer({ min: 0, max: 23 * 60 + 58 });
    const range = fc
      .tuple(minute, fc.integer({ min: 1, max: 120 }))
      .map(([start, length]) => [start, Math.min(start + length, 23 * 60 + 59)] as const);
    const hhmm = (m: number) =>
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    fc.assert(
      fc.property(fc.array(range, { maxLength: 5 }), (ranges) => {
        const overlap = ranges.some(([s1, e1], i) =>
          ranges.some(([s2, e2], j) => i !== j && s1 < e2 && s2 < e1),
        );
        const asText = ranges.map(([s, e]) => r(hhmm(s), hhmm(e)));
        expect(rangesApart(asText)).toBe(!overlap);
        expect(rangesApart([...asText].reverse())).toBe(!overlap);
      }),
    );
  });

  it('are kept with every weekday, ranges and exceptions in order, empty notes left out', () => {
    const parsed = SiteHoursInput.parse({
      weekly: { mon: [r('13:00', '17:00'), r('08:00', '12:00')] },
      exceptions: [
        { date: '2027-05-02', ranges: [], note: '  ' },
        { date: '2027-05-01', ranges: [], note: 'Staatsfeiertag' },
      ],
    });
    expect(siteHoursOf(parsed)).toEqual({
      weekly: {
        mon: [r('08:00', '12:00'), r('13:00', '17:00')],
        tue: [],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
        sun: [],
      },
      exceptions: [
        { date: '2027-05-01', ranges: [], note: 'Staatsfeiertag' },
        { date: '2027-05-02', ranges: [] },
      ],
    });
  });

  it('on a date: the exception when it has one, else its weekday; the past exceptions left out', () => {
    const hours = siteHoursOf(
      SiteHoursInput.parse({
        weekly: { thu: [r('08:00', '20:00')] },
        exceptions: [
          { date: '2026-12-24', ranges: [r('08:00', '12:00')], note: 'Heiliger Abend' },
          { date: '2026-12-03', ranges: [] },
        ],
      }),
    );
    expect(hoursDayOf('2026-12-03')).toBe('thu');
    expect(hoursDayOf('2026-12-06')).toBe('sun');
    expect(hoursOn(hours, '2026-12-10')).toEqual({
      ranges: [r('08:00', '20:00')],
      exception: false,
    });
    expect(hoursOn(hours, '2026-12-03')).toMatchObject({ ranges: [], exception: true });
    expect(hoursOn(hours, '2026-12-24')).toMatchObject({
      ranges: [r('08:00', '12:00')],
      note: 'Heiliger Abend',
    });
    expect(upcomingExceptions(hours, '2026-12-04').exceptions.map((e) => e.date)).toEqual([
      '2026-12-24',
    ]);
  });

  it('the week in one line: equal weekdays in a row together, days without hours left out', () => {
    const days = { mon: 'Mo', tue: 'Di', wed: 'Mi', thu: 'Do', fri: 'Fr', sat: 'Sa', sun: 'So' };
    const week = (weekly: Record<string, { start: string; end: string }[]>) =>
      weekText(siteHoursOf(SiteHoursInput.parse({ weekly, exceptions: [] })).weekly, days);
    const day = [r('08:00', '20:00')];
    expect(
      week({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: [r('09:00', '13:00')] }),
    ).toBe('Mo–Fr 08:00–20:00; Sa 09:00–13:00');
    // A closed day in between ends the run; two ranges of a day stay together.
    expect(week({ mon: day, wed: day, sun: [r('10:00', '12:00'), r('13:00', '17:00')] })).toBe(
      'Mo 08:00–20:00; Mi 08:00–20:00; So 10:00–12:00, 13:00–17:00',
    );
    expect(week({})).toBe('');
  });
});
