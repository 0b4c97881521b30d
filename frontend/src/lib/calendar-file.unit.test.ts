import { describe, expect, it } from 'vitest';
import { checkCalendarFile, MAX_CALENDAR_BYTES } from './calendar-file';

const file = (name: string, type: string, size = 100) => ({ name, type, size });

describe('checkCalendarFile', () => {
  it('requires a file', () => {
    expect(checkCalendarFile(null)).toBe('calendar-required');
  });

  it('accepts text/calendar and .ics or .ical names', () => {
    expect(checkCalendarFile(file('feiertage.ics', 'text/calendar'))).toBeNull();
    expect(checkCalendarFile(file('FEIERTAGE.ICAL', ''))).toBeNull();
    expect(checkCalendarFile(file('holidays.ics', 'application/octet-stream'))).toBeNull();
    expect(checkCalendarFile(file('export', 'text/calendar'))).toBeNull();
  });

  it('refuses other files', () => {
    expect(checkCalendarFile(file('photo.png', 'image/png'))).toBe('calendar-type');
    expect(checkCalendarFile(file('notes.txt', 'text/plain'))).toBe('calendar-type');
  });

  it('refuses files over 5 MB', () => {
    expect(checkCalendarFile(file('big.ics', 'text/calendar', MAX_CALENDAR_BYTES))).toBeNull();
    expect(checkCalendarFile(file('big.ics', 'text/calendar', MAX_CALENDAR_BYTES + 1))).toBe(
      'calendar-size',
    );
  });
});
