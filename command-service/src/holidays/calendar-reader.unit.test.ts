import { describe, expect, it } from 'vitest';
import { loadConfig, Problem } from '@rr/platform';
import { readCalendarOffThread } from './calendar-reader.ts';
import type { CalendarImportLimits } from './ical.ts';

const LIMITS: CalendarImportLimits = {
  from: '2025-01-01',
  until: '2031-12-31',
  maxEvents: 10,
  maxOccurrences: 100,
  maxHolidays: 50,
};
/** The server's reading time limit, its default from the config. */
const READER = { timeoutMs: loadConfig({}).HOLIDAY_IMPORT_READ_TIMEOUT_MS };
const bytes = (events: string[]) =>
  new TextEncoder().encode(
    ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events, 'END:VCALENDAR', ''].join('\r\n'),
  );
const event = (start: string, summary: string) =>
  `BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:${start}\r\nSUMMARY:${summary}\r\nEND:VEVENT`;
const problemOf = async (reading: Promise<unknown>) => {
  try {
    await reading;
  } catch (err) {
    if (err instanceof Problem)
      return { status: err.status, error: err.error, payload: err.payload };
    throw err;
  }
  throw new Error('no problem');
};

describe('reading a calendar in a worker thread', () => {
  it('answers the holidays, and reads one file after the other', async () => {
    const [a, b] = await Promise.all([
      readCalendarOffThread(bytes([event('20270101', 'Neujahr')]), LIMITS, READER),
      readCalendarOffThread(bytes([event('20270106', 'Dreikönig')]), LIMITS, READER),
    ]);
    expect(a.holidays).toEqual([{ date: '2027-01-01', name: 'Neujahr', description: undefined }]);
    expect(b.holidays.map((h) => h.date)).toEqual(['2027-01-06']);
  });

  it('answers the problem of a refused file, naming the limit', async () => {
    const many = Array.from({ length: 11 }, (_, i) => event('20270101', `H${i}`));
    expect(await problemOf(readCalendarOffThread(bytes(many), LIMITS, READER))).toEqual({
      status: 400,
      error: 'calendar__too_many_events',
      payload: ['10'],
    });
    expect(
      await problemOf(
        readCalendarOffThread(new TextEncoder().encode('no calendar'), LIMITS, READER),
      ),
    ).toMatchObject({ status: 400, error: 'calendar__invalid_file' });
  });

  it('stops a reading over its time, and the next one still works', async () => {
    const file = bytes([event('20270101', 'Neujahr')]);
    expect(
      await problemOf(readCalendarOffThread(file, LIMITS, { timeoutMs: 1, maxHeapMb: 64 })),
    ).toMatchObject({ status: 400, error: 'calendar__too_complex' });
    expect((await readCalendarOffThread(file, LIMITS, READER)).holidays).toHaveLength(1);
  });
});
