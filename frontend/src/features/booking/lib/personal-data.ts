import { email, maxLength, required, validateValue, type Rule } from '../../../lib/validation';

/** The visitor's personal data form (spec sections 3 and 5), as kept in the session. */
export interface PersonalData {
  salutation: Salutation;
  title: string;
  firstName: string;
  lastName: string;
  organisation: string;
  email: string;
  phone: string;
  accessibility: boolean;
}

export const SALUTATIONS = ['NONE', 'MR', 'MS'] as const;
export type Salutation = (typeof SALUTATIONS)[number];

export type TextField = Exclude<keyof PersonalData, 'salutation' | 'accessibility'>;

/** The text fields in form order (the first invalid one gets focus). */
export const TEXT_FIELDS: readonly TextField[] = [
  'title',
  'firstName',
  'lastName',
  'organisation',
  'email',
  'phone',
];

export const EMPTY_PERSONAL_DATA: PersonalData = {
  salutation: 'NONE',
  title: '',
  firstName: '',
  lastName: '',
  organisation: '',
  email: '',
  phone: '',
  accessibility: false,
};

/** Spec section 5, visitor personal data: names required, e-mail and phone required too. */
const RULES: Readonly<Record<TextField, readonly Rule[]>> = {
  title: [maxLength(40)],
  firstName: [required, maxLength(40)],
  lastName: [required, maxLength(40)],
  organisation: [maxLength(40)],
  email: [required, maxLength(320), email],
  phone: [required, maxLength(40)],
};

/** Whether a field must be filled in (marked with an asterisk). */
export function isRequired(field: TextField): boolean {
  return RULES[field].includes(required);
}

export interface FieldError {
  /** Key below `validation.` in the common namespace. */
  key: string;
  params?: Readonly<Record<string, number>>;
}

export type PersonalDataErrors = Partial<Record<TextField, FieldError>>;

/** Digits with an optional leading plus (spec: a telephone number with numbers or plus only). */
const PHONE = /^\+?\d+$/;

export function validateField(field: TextField, value: string): FieldError | null {
  const error = validateValue(value, RULES[field]);
  if (error || field !== 'phone' || PHONE.test(value.trim())) return error;
  return { key: 'phone' };
}

export function validatePersonalData(data: PersonalData): PersonalDataErrors {
  const errors: PersonalDataErrors = {};
  for (const field of TEXT_FIELDS) {
    const error = validateField(field, data[field]);
    if (error) errors[field] = error;
  }
  return errors;
}

/** Personal data from the session; anything unreadable counts as none. */
export function parsePersonalData(raw: string | null): PersonalData | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object') return null;
    const record = value as Record<string, unknown>;
    const data = { ...EMPTY_PERSONAL_DATA };
    for (const field of TEXT_FIELDS) {
      if (typeof record[field] === 'string') data[field] = record[field];
    }
    if (SALUTATIONS.includes(record.salutation as Salutation)) {
      data.salutation = record.salutation as Salutation;
    }
    data.accessibility = record.accessibility === true;
    return data;
  } catch {
    return null;
  }
}

/** The trimmed values; empty optional fields are left out of the booking payload. */
export function toBookingInput(data: PersonalData, language: 'de' | 'en') {
  const trim = (value: string) => value.trim();
  const optional = (value: string) => (trim(value) === '' ? undefined : trim(value));
  return {
    salutation: data.salutation,
    title: optional(data.title),
    firstName: trim(data.firstName),
    lastName: trim(data.lastName),
    organisation: optional(data.organisation),
    email: trim(data.email),
    phone: trim(data.phone),
    accessibility: data.accessibility,
    language,
  };
}

/** Server validation errors (`validation__error` with `errors[].field`) as form fields. */
export function invalidFields(problem: unknown): TextField[] {
  const data =
    problem !== null && typeof problem === 'object' && 'data' in problem ? problem.data : problem;
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  const fields = errors
    .map((entry) => (entry as { field?: unknown } | null)?.field)
    .filter((field): field is TextField => TEXT_FIELDS.includes(field as TextField));
  return TEXT_FIELDS.filter((field) => fields.includes(field));
}
