import { beforeAll, describe, expect, it } from 'vitest';
import { registerStaffRefusals } from '../app/staff-refusals';
import { createI18n } from '../i18n/i18n';
import { errorMessageKey, errorMessageKeys, errorMessageParams } from './error-message';
import { hasErrorCode } from './staff-forms';

describe('errorMessageKey', () => {
  it('uses the error code of a problem body', () => {
    expect(errorMessageKey({ status: 400, error: 'validation__error', payload: [] })).toBe(
      'validation__error',
    );
  });

  it('appends the first payload item when the payload is non-empty', () => {
    expect(
      errorMessageKey({
        error: 'ticket__validation_error',
        payload: ['timeslot_not_open', 'ignored'],
      }),
    ).toBe('ticket__validation_error_timeslot_not_open');
  });

  it('unwraps an RTK Query error with a numeric status', () => {
    expect(
      errorMessageKey({
        status: 409,
        data: {
          type: 'about:blank',
          title: 'Conflict',
          error: 'room__has_active_reservations',
          payload: ['seats', '3', '3', '0', ''],
        },
      }),
    ).toBe('room__has_active_reservations_seats');
  });

  it.each([
    ['null', null],
    ['a string', 'boom'],
    ['a body without error field', { status: 500, title: 'Internal' }],
    ['a numeric error field', { error: 42 }],
    ['an empty error field', { error: '' }],
    ['a network failure', { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }],
    [
      'a parsing failure',
      { status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' },
    ],
    ['a non-problem response', { status: 502, data: '<html>bad gateway</html>' }],
  ])('falls back to unknown for %s', (_label, problem) => {
    expect(errorMessageKey(problem)).toBe('unknown');
  });

  it('ignores a payload that is not an array', () => {
    expect(errorMessageKey({ error: 'not_found', payload: 'x' })).toBe('not_found');
  });
});

describe('errorMessageKeys', () => {
  it('tries the payload key, then the bare code, then unknown', () => {
    expect(errorMessageKeys({ error: 'calendar__too_many_events', payload: ['500'] })).toEqual([
      'calendar__too_many_events_500',
      'calendar__too_many_events',
      'unknown',
    ]);
  });

  it('does not repeat keys', () => {
    expect(errorMessageKeys({ error: 'unknown' })).toEqual(['unknown']);
    expect(errorMessageKeys(undefined)).toEqual(['unknown']);
  });
});

describe('errorMessageParams', () => {
  it('exposes a numeric first payload item as count', () => {
    expect(errorMessageParams({ error: 'calendar__too_many_days', payload: ['12'] })).toEqual({
      value: '12',
      count: 12,
    });
  });

  it('passes a non-numeric first payload item as value only', () => {
    expect(errorMessageParams({ error: 'x', payload: ['abc'] })).toEqual({ value: 'abc' });
    expect(errorMessageParams({ error: 'x' })).toEqual({});
  });

  it('keeps the bare key of timeslot__overlapping and reads its day beside the payload', () => {
    const problem = {
      error: 'timeslot__overlapping',
      payload: [],
      values: { date: '2027-01-25' },
    };
    expect(errorMessageKeys(problem)).toEqual(['timeslot__overlapping', 'unknown']);
    // The variant `timeslot__overlapping_date` names the day.
    expect(errorMessageParams(problem)).toEqual({
      value: '2027-01-25',
      date: '25.01.2027',
      context: 'date',
    });
    expect(errorMessageParams({ error: 'timeslot__overlapping', payload: [] })).toEqual({});
  });
});

describe('errorMessageParams of the refusals only the staff app shows', () => {
  // The staff app registers the readers at its start; the visitor's app does not carry them.
  beforeAll(registerStaffRefusals);
  it('names booked and held apart, and with holds until when they last (context held)', () => {
    // 14:05 in the library's time zone (the default Europe/Vienna, CET in December), whatever
    // the zone of the machine running the test.
    const until = new Date('2026-12-10T14:05:00+01:00').toISOString();
    const slot = { error: 'timeslot__has_tickets', payload: ['seats', '3', '1', '2', until] };
    expect(errorMessageKeys(slot)[0]).toBe('timeslot__has_tickets_seats');
    expect(errorMessageParams(slot)).toEqual({
      value: '3',
      count: 3,
      booked: 1,
      held: 2,
      until: '14:05',
      context: 'held',
    });
    expect(
      errorMessageParams({
        status: 409,
        data: { error: 'room__has_active_reservations', payload: ['seats', '4', '4', '0', ''] },
      }),
    ).toEqual({ value: '4', count: 4, booked: 4, held: 0 });
  });

  it('reads the value after the name', () => {
    const undo = { error: 'check_in__undo_expired', payload: ['minutes', '10'] };
    expect(errorMessageKeys(undo)[0]).toBe('check_in__undo_expired_minutes');
    expect(errorMessageParams(undo)).toEqual({ value: '10', count: 10 });
    const early = {
      error: 'check_in__not_open',
      payload: ['window', '2027-01-25 09:45', '2027-01-25 10:20'],
    };
    expect(errorMessageKeys(early)[0]).toBe('check_in__not_open_window');
    expect(errorMessageParams(early)).toEqual({ value: '2027-01-25 09:45' });
    const full = { error: 'timeslot__overbooking_not_confirmed', payload: ['seats', '5', '4'] };
    expect(errorMessageKeys(full)[0]).toBe('timeslot__overbooking_not_confirmed_seats');
    expect(errorMessageParams(full)).toEqual({ value: '5', count: 5 });
    expect(errorMessageKeys({ error: 'no_show__not_due', payload: [] })[0]).toBe(
      'no_show__not_due',
    );
  });

  it('gives the messages of the staff catalogue, with plural forms and the held context', async () => {
    const i18n = await createI18n({ language: 'en', labelOverride: {}, interface: 'admin' });
    const message = (problem: { error: string; payload: string[] }) =>
      i18n.t(errorMessageKeys(problem), { ns: 'common-error', ...errorMessageParams(problem) });
    expect(message({ error: 'timeslot__has_tickets', payload: ['seats', '1', '1', '0', ''] })).toBe(
      'The time slot has 1 reservation and cannot be deleted.',
    );
    expect(
      message({ error: 'room__has_active_reservations', payload: ['seats', '2', '2', '0', ''] }),
    ).toBe('The room still has 2 active reservations and cannot be deleted.');
    const until = new Date('2026-12-10T14:05:00+01:00').toISOString();
    expect(
      message({ error: 'room__has_active_reservations', payload: ['seats', '3', '1', '2', until] }),
    ).toBe(
      'The room cannot be deleted: 1 booked, 2 held in carts until 14:05. Held seats block only until then.',
    );
    expect(message({ error: 'check_in__undo_expired', payload: ['minutes', '10'] })).toBe(
      'A check-in can only be undone within 10 minutes.',
    );
    expect(
      message({
        error: 'check_in__not_open',
        payload: ['window', '2027-01-25 09:45', '2027-01-25 10:20'],
      }),
    ).toBe('Check-in is not open for this reservation now (it opens at 2027-01-25 09:45).');
    expect(message({ error: 'ticket__not_booked', payload: ['INVALID'] })).toBe(
      'This reservation is not booked (expired or released as a no-show).',
    );
    expect(message({ error: 'no_show__not_due', payload: ['at', '2027-01-25 10:20'] })).toBe(
      'This reservation is not due for release yet.',
    );
  });

  it('finds a ticket status as its own key', () => {
    expect(errorMessageKeys({ error: 'ticket__not_booked', payload: ['CANCELLED'] })[0]).toBe(
      'ticket__not_booked_CANCELLED',
    );
  });
});

describe('hasErrorCode', () => {
  it('matches the code regardless of payload', () => {
    const conflict = { status: 409, data: { error: 'concurrency__version_conflict', payload: [] } };
    expect(hasErrorCode(conflict, 'concurrency__version_conflict')).toBe(true);
    expect(hasErrorCode(conflict, 'not_found')).toBe(false);
  });
});
