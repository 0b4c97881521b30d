import { isRequired as isRequiredBy } from '@rr/contracts/issues';
import { BookingInput, SALUTATIONS, type Salutation } from '@rr/contracts/owner';
import { formCheck } from '../../../lib/form-check';

/** The visitor's personal data form (docs/product.md#entities and #validation), as kept in the session. */
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

export { SALUTATIONS, type Salutation };

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

/**
 * docs/product.md#validation, visitor personal data: checked with the booking contract (names, e-mail and
 * phone required; lengths, e-mail and telephone number as for staff).
 */
export const checkPersonalData = formCheck(BookingInput, (data: PersonalData) => data);

/** Whether a field must be filled in (marked with an asterisk): the contract refuses it empty. */
export function isRequired(field: TextField): boolean {
  return isRequiredBy(BookingInput.shape[field]);
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
