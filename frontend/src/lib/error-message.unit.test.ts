import { beforeAll, describe, expect, it } from 'vitest';
import { registerSeatRefusals } from '../app/seat-refusals';
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
          payload: ['3'],
        },
      }),
    ).toBe('room__has_active_reservations_3');
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
    expect(errorMessageKeys({ error: 'room__has_active_reservations', payload: ['2'] })).toEqual([
      'room__has_active_reservations_2',
      'room__has_active_reservations',
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
    expect(errorMessageParams({ error: 'room__has_active_reservations', payload: ['12'] })).toEqual(
      {
        value: '12',
        count: 12,
      },
    );
  });

  it('passes a non-numeric first payload item as value only', () => {
    expect(errorMessageParams({ error: 'x', payload: ['abc'] })).toEqual({ value: 'abc' });
    expect(errorMessageParams({ error: 'x' })).toEqual({});
    expect(errorMessageParams({ error: 'timeslot__overlapping', payload: ['2026-12-10'] })).toEqual(
      { value: '2026-12-10', date: '10.12.2026', context: 'date' },
    );
  });

  it('reads the day of a payload keyed `date` (the key `timeslot__overlapping_date` names it)', () => {
    const problem = { error: 'timeslot__overlapping', payload: ['date', '2027-01-25'] };
    expect(errorMessageKeys(problem)[0]).toBe('timeslot__overlapping_date');
    expect(errorMessageParams(problem)).toEqual({ value: '2027-01-25', date: '25.01.2027' });
  });
});

describe('errorMessageParams of refusals to delete where seats are taken', () => {
  // The staff app registers the reader at its start; the visitor's app does not carry it.
  beforeAll(registerSeatRefusals);
  it('names booked and held apart, and with holds until when they last (context held)', () => {
    // 14:05 in the library's time zone (the default Europe/Vienna, CET in December), whatever
    // the zone of the machine running the test.
    const until = new Date('2026-12-10T14:05:00+01:00').toISOString();
    expect(
      errorMessageParams({ error: 'timeslot__has_tickets', payload: ['3', '1', '2', until] }),
    ).toEqual({ value: '3', count: 3, booked: 1, held: 2, until: '14:05', context: 'held' });
    expect(
      errorMessageParams({
        status: 409,
        data: { error: 'room__has_active_reservations', payload: ['4', '4', '0', ''] },
      }),
    ).toEqual({ value: '4', count: 4, booked: 4, held: 0 });
    // The former payload (the count only) keeps its meaning.
    expect(errorMessageParams({ error: 'timeslot__has_tickets', payload: ['3'] })).toEqual({
      value: '3',
      count: 3,
    });
  });
});

describe('hasErrorCode', () => {
  it('matches the code regardless of payload', () => {
    const conflict = { status: 409, data: { error: 'concurrency__version_conflict', payload: [] } };
    expect(hasErrorCode(conflict, 'concurrency__version_conflict')).toBe(true);
    expect(hasErrorCode(conflict, 'not_found')).toBe(false);
  });
});
