import { describe, expect, it } from 'vitest';
import {
  between,
  email,
  endAfterStart,
  firstInvalidField,
  futureDate,
  integer,
  isoDate,
  maxLength,
  minLength,
  notBefore,
  required,
  time,
  validateForm,
  validateValue,
} from './validation';

describe('validateValue', () => {
  it('fails a required value that is empty after trimming', () => {
    expect(validateValue('', [required])).toEqual({ key: 'required' });
    expect(validateValue('   ', [required, minLength(3)])).toEqual({ key: 'required' });
  });

  it('lets an empty value pass every non-required check', () => {
    expect(validateValue('', [minLength(3), integer, between(0, 10), email])).toBeNull();
    expect(validateValue('  ', [maxLength(1)])).toBeNull();
  });

  it('checks the trimmed value against length limits', () => {
    expect(validateValue(' ab ', [required, minLength(3)])).toEqual({
      key: 'min-length',
      params: { min: 3 },
    });
    expect(validateValue('  abc  ', [required, minLength(3), maxLength(3)])).toBeNull();
    expect(validateValue('abcd', [maxLength(3)])).toEqual({
      key: 'max-length',
      params: { max: 3 },
    });
  });

  it('returns the first failing rule in order', () => {
    expect(validateValue('1.5', [required, integer, between(0, 1)])).toEqual({ key: 'integer' });
    expect(validateValue('7', [required, integer, between(0, 5)])).toEqual({
      key: 'between',
      params: { min: 0, max: 5 },
    });
  });
});

describe('integer', () => {
  it.each(['0', '42', '-3', '+7', '99999'])('accepts %s', (v) => {
    expect(integer(v)).toBeNull();
  });

  it.each(['1.5', '1e3', 'abc', '12a', '0x10'])('rejects %s', (v) => {
    expect(integer(v)).toEqual({ key: 'integer' });
  });
});

describe('between', () => {
  it('includes both bounds', () => {
    const rule = between(0, 365);
    expect(rule('0')).toBeNull();
    expect(rule('365')).toBeNull();
    expect(rule('366')).toEqual({ key: 'between', params: { min: 0, max: 365 } });
    expect(rule('-1')).not.toBeNull();
    expect(rule('many')).not.toBeNull();
  });
});

describe('email', () => {
  it('accepts a plausible address and rejects others', () => {
    expect(email('anna.muster@example.org')).toBeNull();
    expect(email('anna@localhost')).toEqual({ key: 'email' });
    expect(email('anna muster@example.org')).toEqual({ key: 'email' });
  });
});

describe('validateForm', () => {
  const schema = {
    name: [required, minLength(3), maxLength(50)],
    capacity: [required, integer, between(0, 99999)],
    note: [maxLength(5)],
  };

  it('collects one error per invalid field', () => {
    expect(validateForm({ name: 'ab', capacity: '', note: '' }, schema)).toEqual({
      name: { key: 'min-length', params: { min: 3 } },
      capacity: { key: 'required' },
    });
  });

  it('returns no errors for valid values', () => {
    expect(validateForm({ name: 'Lesesaal 1', capacity: '20', note: 'ok' }, schema)).toEqual({});
  });

  it('finds the first invalid field in form order', () => {
    const errors = validateForm({ name: 'ok name', capacity: 'x', note: 'too long' }, schema);
    expect(firstInvalidField(['name', 'capacity', 'note'], errors)).toBe('capacity');
    expect(firstInvalidField(['note', 'capacity'], errors)).toBe('note');
    expect(firstInvalidField(['name'], errors)).toBeUndefined();
  });
});

describe('dates and times', () => {
  it('accepts times with hour 0-23 and minute 0-59', () => {
    expect(time('00:00')).toBeNull();
    expect(time('23:59')).toBeNull();
    expect(time('24:00')).toEqual({ key: 'time' });
    expect(time('7:5')).toEqual({ key: 'time' });
  });

  it('accepts real calendar days as YYYY-MM-DD', () => {
    expect(isoDate('2026-03-05')).toBeNull();
    expect(isoDate('2026-02-30')).toEqual({ key: 'date' });
    expect(validateValue('', [isoDate])).toBeNull();
  });

  it('wants a date after today for future dates', () => {
    const future = futureDate('2026-03-05');
    expect(future('2026-03-06')).toBeNull();
    expect(future('2026-03-05')).toEqual({ key: 'date-future' });
    expect(future('2025-12-31')).toEqual({ key: 'date-future' });
  });

  it('wants the end time after the start time', () => {
    expect(endAfterStart('08:00', '08:01')).toBeNull();
    expect(endAfterStart('08:00', '08:00')).toEqual({ key: 'time-after' });
    expect(endAfterStart('12:00', '08:00')).toEqual({ key: 'time-after' });
    expect(endAfterStart('', '08:00')).toBeNull();
  });

  it('wants a range not to end before it starts', () => {
    expect(notBefore('2026-03-05', '2026-03-05')).toBeNull();
    expect(notBefore('2026-03-05', '2026-03-04')).toEqual({ key: 'date-not-before' });
    expect(notBefore('2026-03-05', '')).toBeNull();
  });
});
