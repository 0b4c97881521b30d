import { describe, expect, it } from 'vitest';
import { errorsOf } from '../../../lib/form-check';
import {
  checkPersonalData,
  EMPTY_PERSONAL_DATA,
  invalidFields,
  isRequired,
  parsePersonalData,
  toBookingInput,
  type PersonalData,
  type TextField,
} from './personal-data';

const valid: PersonalData = {
  salutation: 'MS',
  title: 'Dr.',
  firstName: 'Erika',
  lastName: 'Muster',
  organisation: '',
  email: 'erika.muster@example.at',
  phone: '+43111222333',
  accessibility: true,
};

const validatePersonalData = (data: PersonalData) => errorsOf(checkPersonalData(data));
const validateField = (field: TextField, value: string) =>
  validatePersonalData({ ...valid, [field]: value })[field] ?? null;

describe('personal data validation (docs/product.md#validation, visitor)', () => {
  it('accepts complete data', () => {
    expect(validatePersonalData(valid)).toEqual({});
  });

  it('requires names, e-mail and phone (trimmed), in form order', () => {
    const errors = validatePersonalData({ ...EMPTY_PERSONAL_DATA, firstName: '   ' });
    expect(Object.keys(errors)).toEqual(['firstName', 'lastName', 'email', 'phone']);
    expect(errors.firstName).toEqual({ key: 'required' });
    expect(
      (['title', 'firstName', 'lastName', 'organisation', 'email', 'phone'] as const).filter(
        isRequired,
      ),
    ).toEqual(['firstName', 'lastName', 'email', 'phone']);
  });

  it('allows at most 40 characters for names, title, organisation and phone', () => {
    const long = 'x'.repeat(41);
    for (const field of ['title', 'firstName', 'lastName', 'organisation'] as const) {
      expect(validateField(field, long), field).toEqual({
        key: 'max-length',
        params: { max: 40 },
      });
      expect(validateField(field, 'x'.repeat(40)), field).toBeNull();
    }
    expect(validateField('phone', '1'.repeat(41))).toEqual({
      key: 'max-length',
      params: { max: 40 },
    });
  });

  it('checks the e-mail address: valid and at most 320 characters', () => {
    expect(validateField('email', 'no-at-sign')).toEqual({ key: 'email' });
    expect(validateField('email', `${'a'.repeat(310)}@example.at`)).toEqual({
      key: 'max-length',
      params: { max: 320 },
    });
  });

  it('accepts a phone number of digits with an optional leading plus, typed with separators', () => {
    expect(validateField('phone', '+43111222')).toBeNull();
    expect(validateField('phone', '0043111222')).toBeNull();
    expect(validateField('phone', ' 0664123 ')).toBeNull();
    expect(validateField('phone', '+43 111 222')).toBeNull();
    expect(validateField('phone', '0664-123')).toBeNull();
    for (const bad of ['12+3', 'phone', '++43', '+43 111 22x']) {
      expect(validateField('phone', bad), bad).toEqual({ key: 'phone' });
    }
  });
});

describe('personal data in the session', () => {
  it('reads back what was stored', () => {
    expect(parsePersonalData(JSON.stringify(valid))).toEqual(valid);
  });

  it('ignores unreadable data and fills gaps with defaults', () => {
    expect(parsePersonalData(null)).toBeNull();
    expect(parsePersonalData('{broken')).toBeNull();
    expect(parsePersonalData('"text"')).toBeNull();
    expect(parsePersonalData('{"firstName":"Anna","salutation":"DR","phone":5}')).toEqual({
      ...EMPTY_PERSONAL_DATA,
      firstName: 'Anna',
    });
  });
});

describe('the booking payload', () => {
  it('trims the values, leaves out empty optional fields and adds the language', () => {
    expect(
      toBookingInput({ ...valid, firstName: ' Erika ', title: ' ', organisation: 'ÖNB' }, 'en'),
    ).toEqual({
      salutation: 'MS',
      title: undefined,
      firstName: 'Erika',
      lastName: 'Muster',
      organisation: 'ÖNB',
      email: 'erika.muster@example.at',
      phone: '+43111222333',
      accessibility: true,
      language: 'en',
    });
  });
});

describe('server validation errors', () => {
  it('names the form fields of a validation__error, in form order', () => {
    const error = {
      status: 400,
      data: {
        error: 'validation__error',
        payload: [],
        errors: [
          { field: 'phone', rule: 'custom', message: 'Enter a telephone number' },
          { field: 'email', rule: 'email', message: 'Value is not a valid email address' },
          { field: 'language', rule: 'enum', message: 'Invalid' },
        ],
      },
    };
    expect(invalidFields(error)).toEqual(['email', 'phone']);
  });

  it('names none for other failures', () => {
    expect(invalidFields({ status: 409, data: { error: 'transaction__expired' } })).toEqual([]);
    expect(invalidFields(undefined)).toEqual([]);
  });
});
