import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SignInInput } from './auth.ts';
import { blacklistEntryInput, blacklistEntryUpdateInput } from './blacklist.ts';
import { imageFile, MAX_CALENDAR_BYTES, MAX_IMAGE_BYTES } from './files.ts';
import { HolidayImportInput, HolidayInput } from './holidays.ts';
import { inputBounds } from './bounds.ts';
import { check, type FieldErrors } from './issues.ts';
import { BookingInput, OwnerInput, StaffBookingInput } from './owner.ts';
import { DailyReportQuery, OccupancyReportQuery, ReservationFilterQuery } from './reports.ts';
import { RoomInput, roomImageInput } from './rooms.ts';
import {
  DateRangeQuery,
  TimeSlotCapacityInput,
  TimeSlotInput,
  TimeSlotUpdateInput,
} from './timeslots.ts';

/** The field errors of a value, `{}` when it passes. */
function errorsOf(schema: z.core.$ZodType, value: unknown): FieldErrors {
  const result = check(schema, value);
  return result.ok ? {} : result.errors;
}

const ROOM_ID = '0b7c4f4e-3a52-4c1b-9c1e-5d0f6f7e8a9b';

describe('room', () => {
  const room = {
    name: 'Großer Lesesaal',
    description: 'Der große Saal',
    capacity: 40,
    openStartValue: 2,
    openStartType: 'DAY',
    openEndValue: 30,
    openEndType: 'WORKING_DAY',
  };

  it('accepts a room', () => {
    expect(errorsOf(RoomInput, room)).toEqual({});
  });

  it('checks name 3-50, description 3-100, capacity 0-99999, open values 0-365', () => {
    expect(
      errorsOf(RoomInput, {
        ...room,
        name: 'ab',
        description: 'x'.repeat(101),
        capacity: 100000,
        openStartValue: 366,
        openStartType: 'WEEK',
        openEndValue: 1.5,
        openEndType: undefined,
      }),
    ).toEqual({
      name: { key: 'min-length', params: { min: 3 } },
      description: { key: 'max-length', params: { max: 100 } },
      capacity: { key: 'between', params: { min: 0, max: 99999 } },
      openStartValue: { key: 'between', params: { min: 0, max: 365 } },
      openStartType: { key: 'invalid' },
      openEndValue: { key: 'integer' },
      openEndType: { key: 'required' },
    });
    expect(errorsOf(RoomInput, { ...room, openStartValue: 365, openEndValue: 0 })).toEqual({});
  });

  it('wants an alt text of 5-150 and, when asked to, an image of JPEG or PNG up to 0.5 MB', () => {
    const jpeg = { name: 'saal.jpg', type: 'image/jpeg', size: 1000 };
    expect(errorsOf(roomImageInput(true), { image: jpeg, alt: 'Der Saal' })).toEqual({});
    expect(errorsOf(roomImageInput(false), { image: null, alt: 'Der Saal' })).toEqual({});
    expect(errorsOf(roomImageInput(true), { image: null, alt: 'abcd' })).toEqual({
      image: { key: 'image-required' },
      alt: { key: 'min-length', params: { min: 5 } },
    });
    expect(errorsOf(roomImageInput(true), { image: jpeg, alt: 'x'.repeat(151) })).toEqual({
      alt: { key: 'max-length', params: { max: 150 } },
    });
  });
});

describe('image files', () => {
  const ruleOf = (file: unknown, required = true) =>
    errorsOf(z.object({ f: imageFile(required) }), { f: file }).f ?? null;
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  it('requires a file only when asked to', () => {
    expect(ruleOf(null)).toEqual({ key: 'image-required' });
    expect(ruleOf(undefined, false)).toBeNull();
  });

  it.each([
    ['photo.jpg', 'image/jpeg'],
    ['photo.png', 'image/png'],
    ['photo.png', 'image/x-png'],
    ['photo.JPEG', ''],
  ])('accepts %s (%s)', (name, type) => {
    expect(ruleOf(file(name, type))).toBeNull();
  });

  it.each([
    ['photo.gif', 'image/gif'],
    ['photo.webp', 'image/webp'],
    ['doc.pdf', 'application/pdf'],
    ['photo.jpg', 'image/svg+xml'],
    ['noextension', ''],
  ])('refuses %s (%s)', (name, type) => {
    expect(ruleOf(file(name, type))).toEqual({ key: 'image-type' });
  });

  it('accepts exactly 0.5 MB and refuses one byte more', () => {
    expect(ruleOf(file('a.jpg', 'image/jpeg', MAX_IMAGE_BYTES))).toBeNull();
    expect(ruleOf(file('a.jpg', 'image/jpeg', MAX_IMAGE_BYTES + 1))).toEqual({
      key: 'image-size',
    });
  });
});

describe('holiday', () => {
  it('wants a name of at most 100, a date, a description of at most 500', () => {
    expect(errorsOf(HolidayInput, { name: 'Neujahr', date: '2027-01-01' })).toEqual({});
    expect(
      errorsOf(HolidayInput, { name: ' ', date: '2027-02-30', description: 'x'.repeat(501) }),
    ).toEqual({
      name: { key: 'required' },
      date: { key: 'date' },
      description: { key: 'max-length', params: { max: 500 } },
    });
    expect(errorsOf(HolidayInput, { name: 'n'.repeat(101) })).toEqual({
      name: { key: 'max-length', params: { max: 100 } },
      date: { key: 'required' },
    });
  });

  it('imports a calendar file: required, text/calendar or .ics/.ical, at most 5 MB', () => {
    const ruleOf = (file: unknown) => errorsOf(HolidayImportInput, { file }).file ?? null;
    const file = (name: string, type: string, size = 100) => ({ name, type, size });
    expect(ruleOf(null)).toEqual({ key: 'calendar-required' });
    expect(ruleOf(file('feiertage.ics', 'text/calendar'))).toBeNull();
    expect(ruleOf(file('FEIERTAGE.ICAL', ''))).toBeNull();
    expect(ruleOf(file('holidays.ics', 'application/octet-stream'))).toBeNull();
    expect(ruleOf(file('export', 'text/calendar'))).toBeNull();
    expect(ruleOf(file('photo.png', 'image/png'))).toEqual({ key: 'calendar-type' });
    expect(ruleOf(file('notes.txt', 'text/plain'))).toEqual({ key: 'calendar-type' });
    expect(ruleOf(file('big.ics', 'text/calendar', MAX_CALENDAR_BYTES))).toBeNull();
    expect(ruleOf(file('big.ics', 'text/calendar', MAX_CALENDAR_BYTES + 1))).toEqual({
      key: 'calendar-size',
    });
  });
});

describe('blacklist', () => {
  const today = () => '2026-03-02';

  it('wants a valid address, a date in the future and a note of at most 250', () => {
    expect(
      errorsOf(blacklistEntryInput(today), { email: 'a@example.at', expiredAt: '2026-03-03' }),
    ).toEqual({});
    expect(
      errorsOf(blacklistEntryInput(today), {
        email: 'x',
        expiredAt: '2026-03-02',
        description: 'x'.repeat(251),
      }),
    ).toEqual({
      email: { key: 'email' },
      expiredAt: { key: 'date-future' },
      description: { key: 'max-length', params: { max: 250 } },
    });
    expect(errorsOf(blacklistEntryUpdateInput(today), { expiredAt: '' })).toEqual({
      expiredAt: { key: 'date' },
    });
    expect(errorsOf(blacklistEntryUpdateInput(today), {})).toEqual({
      expiredAt: { key: 'required' },
    });
  });

  it('reads today when it checks', () => {
    let day = '2026-03-02';
    const schema = blacklistEntryUpdateInput(() => day);
    expect(errorsOf(schema, { expiredAt: '2026-03-03' })).toEqual({});
    day = '2026-03-03';
    expect(errorsOf(schema, { expiredAt: '2026-03-03' })).toEqual({
      expiredAt: { key: 'date-future' },
    });
  });
});

describe('time slots', () => {
  const slot = {
    startTime: '08:00',
    endTime: '12:00',
    startDate: '2026-03-02',
    repeatUntil: '2026-03-31',
    daysOfWeek: ['MONDAY'],
    capacity: 10,
  };

  it('accepts a series and a one-off slot, with defaults', () => {
    expect(z.parse(TimeSlotInput, slot)).toEqual({ ...slot, includeHolidays: false });
    expect(
      z.parse(TimeSlotInput, { ...slot, repeatUntil: undefined, daysOfWeek: undefined }),
    ).toEqual({ ...slot, repeatUntil: undefined, daysOfWeek: [], includeHolidays: false });
  });

  it('checks the single fields', () => {
    expect(
      errorsOf(TimeSlotInput, {
        ...slot,
        startTime: '',
        endTime: '25:00',
        startDate: '2026-02-30',
        capacity: 1.5,
      }),
    ).toEqual({
      startTime: { key: 'required' },
      endTime: { key: 'time' },
      startDate: { key: 'date' },
      capacity: { key: 'integer' },
    });
    expect(errorsOf(TimeSlotInput, { ...slot, capacity: 100000 })).toEqual({
      capacity: { key: 'between', params: { min: 0, max: 99999 } },
    });
  });

  it('wants end after start, repeat-until not before start, a weekday when repeating', () => {
    expect(errorsOf(TimeSlotInput, { ...slot, startTime: '12:00', endTime: '08:00' })).toEqual({
      endTime: { key: 'time-after' },
    });
    expect(errorsOf(TimeSlotInput, { ...slot, repeatUntil: '2026-03-01' })).toEqual({
      repeatUntil: { key: 'date-not-before' },
    });
    expect(errorsOf(TimeSlotInput, { ...slot, daysOfWeek: [] })).toEqual({
      daysOfWeek: { key: 'weekday' },
    });
    // A one-off slot needs no weekday.
    expect(
      errorsOf(TimeSlotInput, { ...slot, repeatUntil: slot.startDate, daysOfWeek: [] }),
    ).toEqual({});
    // Every error at once.
    expect(
      errorsOf(TimeSlotInput, { ...slot, endTime: '07:00', daysOfWeek: [], capacity: undefined }),
    ).toEqual({
      capacity: { key: 'required' },
      endTime: { key: 'time-after' },
      daysOfWeek: { key: 'weekday' },
    });
  });

  it('edits times and capacity with the same rules', () => {
    expect(
      errorsOf(TimeSlotUpdateInput, { startTime: '08:00', endTime: '09:00', capacity: 0 }),
    ).toEqual({});
    expect(
      errorsOf(TimeSlotUpdateInput, { startTime: '08:00', endTime: '08:00', capacity: -1 }),
    ).toEqual({
      capacity: { key: 'between', params: { min: 0, max: 99999 } },
      endTime: { key: 'time-after' },
    });
  });

  it('sets the capacity of a date range that does not end before it starts', () => {
    const range = { fromDate: '2026-03-02', untilDate: '2026-03-02', capacity: 5 };
    expect(errorsOf(TimeSlotCapacityInput, range)).toEqual({});
    expect(errorsOf(TimeSlotCapacityInput, { ...range, untilDate: '2026-03-01' })).toEqual({
      untilDate: { key: 'date-not-before' },
    });
    expect(errorsOf(TimeSlotCapacityInput, { untilDate: '2026-03-01', capacity: 5 })).toEqual({
      fromDate: { key: 'required' },
    });
    expect(errorsOf(DateRangeQuery, { fromDate: '2026-03-02', untilDate: '2026-03-01' })).toEqual({
      untilDate: { key: 'date-not-before' },
    });
  });
});

describe('owners and personal data', () => {
  const owner = { firstName: 'Anna', lastName: 'Muster' };
  const visitor = { ...owner, email: 'anna@example.at', phone: '+43111222' };

  it('accepts an owner with names only, and defaults salutation and accessibility', () => {
    expect(z.parse(OwnerInput, { ...owner, email: '', phone: ' ', title: '' })).toEqual({
      ...owner,
      salutation: 'NONE',
      accessibility: false,
    });
    expect(z.parse(OwnerInput, { ...owner, salutation: 'ms' }).salutation).toBe('MS');
    expect(z.parse(StaffBookingInput, owner).language).toBe('de');
  });

  it('requires first and last name and checks the lengths, e-mail and phone', () => {
    const long = 'x'.repeat(41);
    expect(
      errorsOf(OwnerInput, {
        title: long,
        firstName: ' ',
        lastName: long,
        organisation: long,
        email: 'no-at-sign',
        phone: '1'.repeat(41),
      }),
    ).toEqual({
      title: { key: 'max-length', params: { max: 40 } },
      firstName: { key: 'required' },
      lastName: { key: 'max-length', params: { max: 40 } },
      organisation: { key: 'max-length', params: { max: 40 } },
      email: { key: 'email' },
      phone: { key: 'max-length', params: { max: 40 } },
    });
  });

  it('accepts telephone numbers of digits with an optional leading plus only, typed with separators', () => {
    for (const phone of [
      '+43111222',
      '0043111222',
      ' 0664123 ',
      '+43 664 1234567',
      '0664/123-45.67',
      '(0664) 123',
    ])
      expect(errorsOf(OwnerInput, { ...owner, phone }), phone).toEqual({});
    // Stored without the separators: what the spec's rule (digits and plus) allows.
    expect(z.parse(OwnerInput, { ...owner, phone: '+43 664 123-45 67' }).phone).toBe(
      '+436641234567',
    );
    expect(z.parse(BookingInput, { ...visitor, phone: '0664 / 12 34' }).phone).toBe('06641234');
    for (const phone of ['++43', '43+1', 'abc', '+43 664 x', '0664_123', '- -'])
      expect(errorsOf(OwnerInput, { ...owner, phone }), phone).toEqual({
        phone: { key: 'phone' },
      });
  });

  it('requires e-mail and phone of a visitor too', () => {
    expect(errorsOf(BookingInput, visitor)).toEqual({});
    expect(errorsOf(BookingInput, { ...owner, email: ' ', phone: '' })).toEqual({
      email: { key: 'required' },
      phone: { key: 'required' },
    });
    expect(errorsOf(BookingInput, { ...visitor, phone: '0664 12a' })).toEqual({
      phone: { key: 'phone' },
    });
    expect(errorsOf(BookingInput, { ...visitor, language: 'fr' })).toEqual({
      language: { key: 'invalid' },
    });
  });
});

describe('report filters', () => {
  const query = {
    roomId: ROOM_ID,
    fromDate: '2026-02-02',
    untilDate: '2026-03-02',
    status: 'BOOKED',
  };

  it('wants both dates in order, a room and a type', () => {
    expect(errorsOf(OccupancyReportQuery, query)).toEqual({});
    expect(
      errorsOf(OccupancyReportQuery, { fromDate: '2026-02-30', untilDate: '', status: 'X' }),
    ).toEqual({
      roomId: { key: 'required' },
      fromDate: { key: 'date' },
      untilDate: { key: 'date' },
      status: { key: 'invalid' },
    });
    expect(errorsOf(OccupancyReportQuery, { ...query, untilDate: '2026-02-01' })).toEqual({
      untilDate: { key: 'date-not-before' },
    });
  });

  it('wants the date of a daily report', () => {
    expect(errorsOf(DailyReportQuery, { date: '2026-03-02' })).toEqual({});
    expect(errorsOf(DailyReportQuery, {})).toEqual({ date: { key: 'required' } });
    expect(errorsOf(DailyReportQuery, { date: '2026-3-2' })).toEqual({ date: { key: 'date' } });
  });

  it('filters the reservations by optional dates in order and a term of at most 200', () => {
    expect(errorsOf(ReservationFilterQuery, {})).toEqual({});
    expect(
      errorsOf(ReservationFilterQuery, {
        fromDate: '2026-03-02',
        untilDate: '2026-03-01',
        searchTerm: 'x'.repeat(201),
      }),
    ).toEqual({
      searchTerm: { key: 'max-length', params: { max: 200 } },
      untilDate: { key: 'date-not-before' },
    });
  });
});

describe('sign-in', () => {
  it('wants a user name and a password', () => {
    expect(errorsOf(SignInInput, { username: ' admin ', password: ' secret ' })).toEqual({});
    expect(z.parse(SignInInput, { username: ' admin ', password: ' secret ' })).toEqual({
      username: 'admin',
      password: ' secret ',
    });
    expect(errorsOf(SignInInput, { username: ' ', password: '' })).toEqual({
      username: { key: 'required' },
      password: { key: 'required' },
    });
  });
});

describe('input bounds', () => {
  it('are read from the contracts', () => {
    expect(inputBounds(RoomInput.shape.name)).toEqual({ maxLength: 50 });
    expect(inputBounds(RoomInput.shape.capacity)).toEqual({ min: 0, max: 99999 });
    expect(inputBounds(RoomInput.shape.openEndValue)).toEqual({ min: 0, max: 365 });
    expect(inputBounds(HolidayInput.shape.description)).toEqual({ maxLength: 500 });
    expect(inputBounds(HolidayInput.shape.date)).toEqual({});
  });
});
