import { describe, expect, it } from 'vitest';
import {
  between,
  email,
  firstInvalidField,
  integer,
  maxLength,
  minLength,
  required,
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
