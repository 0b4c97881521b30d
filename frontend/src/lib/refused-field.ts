import { problemCode } from './error-message';

/**
 * The field of a form that a server's refusal concerns (docs/product.md#errors), by its code: an
 * address refused (blacklist, no-show block, a members-only room, already in line or listed), a
 * name or address taken, a wrong password, a clashing time, a refused file. A form names the control of each field
 * it has; a refusal of no field (a full slot, an expired cart) marks none.
 */
export type RefusedField = 'email' | 'name' | 'password' | 'startTime' | 'url' | 'image' | 'file';

const FIELD_OF_CODE: Readonly<Record<string, RefusedField>> = {
  booking__email_blacklisted: 'email',
  booking__email_domain_not_allowed: 'email',
  booking__no_show_blocked: 'email',
  waitlist__already_joined: 'email',
  blacklist__email_already_exists: 'email',
  auth__invalid_credentials: 'password',
  room__already_exists: 'name',
  api_token__name_taken: 'name',
  timeslot__overlapping: 'startTime',
  webhook__url_refused: 'url',
  image__invalid_type: 'image',
  image__too_large: 'image',
  image__invalid: 'image',
  image__too_many_pixels: 'image',
  calendar__invalid_file: 'file',
  calendar__too_large: 'file',
  calendar__too_many_events: 'file',
  calendar__too_many_occurrences: 'file',
  calendar__too_many_days: 'file',
  calendar__too_complex: 'file',
};

const FIELDS: ReadonlySet<string> = new Set(Object.values(FIELD_OF_CODE));

function isRefusedField(value: string): value is RefusedField {
  return FIELDS.has(value);
}

/**
 * The field a refusal concerns, or null. The server's own check of a request
 * (`validation__error`) names its fields: the first one's last path segment (`owner.email`:
 * `email`) when it is one of the fields above.
 */
export function refusedFieldOf(error: unknown): RefusedField | null {
  const code = problemCode(error)?.code;
  if (!code) return null;
  const field = FIELD_OF_CODE[code];
  if (field) return field;
  if (code !== 'validation__error') return null;
  const named = firstErrorField(error);
  return named !== null && isRefusedField(named) ? named : null;
}

function firstErrorField(error: unknown): string | null {
  if (error === null || typeof error !== 'object') return null;
  const body = 'data' in error ? error.data : error;
  if (body === null || typeof body !== 'object' || !('errors' in body)) return null;
  const errors = body.errors;
  if (!Array.isArray(errors)) return null;
  const first: unknown = errors[0];
  if (first === null || typeof first !== 'object' || !('field' in first)) return null;
  const field = first.field;
  return typeof field === 'string' ? (field.split('.').pop() ?? null) : null;
}
