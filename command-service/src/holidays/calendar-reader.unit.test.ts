import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, Problem } from '@rr/platform';
import { budget } from '../../../tests/support/time-budget.ts';
import {
  calendarReaderKept,
  calendarReaderThreadsStarted,
  readCalendarOffThread,
} from './calendar-reader.ts';
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
  it('answers the holidays, and reads one file after the other in one thread', async () => {
    const before = calendarReaderThreadsStarted();
    const [a, b, c] = await Promise.all([
      readCalendarOffThread(bytes([event('20270101', 'Neujahr')]), LIMITS, READER),
      readCalendarOffThread(bytes([event('20270106', 'Dreikönig')]), LIMITS, READER),
      readCalendarOffThread(bytes([event('20270106', 'Dreikönig')]), LIMITS, READER),
    ]);
    expect(a.holidays).toEqual([{ date: '2027-01-01', name: 'Neujahr', description: undefined }]);
    expect(b.holidays.map((h) => h.date)).toEqual(['2027-01-06']);
    // Nothing of one file is kept for the next: the same holiday again is no repetition.
    expect(c.holidays.map((h) => h.date)).toEqual(['2027-01-06']);
    expect(c.repeated).toBe(0);
    // One thread (none when a reading before this test left one to keep) served all three.
    expect(calendarReaderThreadsStarted() - before).toBeLessThanOrEqual(1);
    expect(calendarReaderKept()).toBe(true);
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
    // The stopped reading ended its thread: the next one of that heap starts another, kept
    // for the one after.
    const small = { ...READER, maxHeapMb: 64 };
    const before = calendarReaderThreadsStarted();
    expect((await readCalendarOffThread(file, LIMITS, small)).holidays).toHaveLength(1);
    expect((await readCalendarOffThread(file, LIMITS, small)).holidays).toHaveLength(1);
    expect(calendarReaderThreadsStarted()).toBe(before + 1);
  });

  it('ends the kept thread when no reading follows in time; a refused file keeps it', async () => {
    const file = bytes([event('20270101', 'Neujahr')]);
    await readCalendarOffThread(file, LIMITS, READER);
    const before = calendarReaderThreadsStarted();
    await problemOf(readCalendarOffThread(new TextEncoder().encode('x'), LIMITS, READER));
    await readCalendarOffThread(file, LIMITS, { ...READER, keepMs: 20 });
    expect(calendarReaderThreadsStarted()).toBe(before);
    await expect.poll(calendarReaderKept).toBe(false);
    await readCalendarOffThread(file, LIMITS, READER);
    expect(calendarReaderThreadsStarted()).toBe(before + 1);
  });

  it('never keeps a process alive with the thread it keeps', () => {
    // A process that read one file, its thread kept for ten minutes, ends when its work does.
    const reader = path.join(import.meta.dirname, 'calendar-reader.ts');
    const script = `
      const { readCalendarOffThread } = await import(${JSON.stringify(reader)});
      const file = new TextEncoder().encode(${JSON.stringify(new TextDecoder().decode(bytes([event('20270101', 'Neujahr')])))});
      const limits = ${JSON.stringify(LIMITS)};
      const r = await readCalendarOffThread(file, limits, { timeoutMs: 60000, keepMs: 600000 });
      process.stdout.write(String(r.holidays.length));`;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: budget(30_000),
      },
    );
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('1');
  });
});
