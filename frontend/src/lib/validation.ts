/**
 * Form validation helpers following the general rules of spec section 5: a required value is
 * trimmed and fails when empty; an empty value passes every non-required check.
 */

import { isIsoDate, minutesOf } from './dates';

export type ValidationErrorKey =
  | 'required'
  | 'between'
  | 'max-length'
  | 'min-length'
  | 'integer'
  | 'email'
  | 'time'
  | 'date'
  | 'time-after'
  | 'date-not-before'
  | 'date-future'
  | 'weekday'
  | 'phone';

export interface ValidationError {
  /** Key below `validation.` in the common namespace of the catalogue. */
  readonly key: ValidationErrorKey;
  readonly params?: Readonly<Record<string, number>>;
}

/** A check of a non-empty, trimmed value. */
export type Rule = ((value: string) => ValidationError | null) & { readonly isRequired?: true };

export const required: Rule = Object.assign(
  (value: string): ValidationError | null => (value.trim() === '' ? { key: 'required' } : null),
  { isRequired: true as const },
);

export function minLength(min: number): Rule {
  return (value) => (value.length < min ? { key: 'min-length', params: { min } } : null);
}

export function maxLength(max: number): Rule {
  return (value) => (value.length > max ? { key: 'max-length', params: { max } } : null);
}

export const integer: Rule = (value) => (/^[+-]?\d+$/.test(value) ? null : { key: 'integer' });

/** Inclusive numeric range; a value that is not a number fails as well. */
export function between(min: number, max: number): Rule {
  return (value) => {
    const number = Number(value);
    return Number.isFinite(number) && number >= min && number <= max
      ? null
      : { key: 'between', params: { min, max } };
  };
}

export const email: Rule = (value) =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : { key: 'email' };

/** A time `HH:mm` with hour 0-23 and minute 0-59 (spec section 5, time strings). */
export const time: Rule = (value) => (minutesOf(value) === null ? { key: 'time' } : null);

/** A date string `YYYY-MM-DD` of a real calendar day. */
export const isoDate: Rule = (value) => (isIsoDate(value) ? null : { key: 'date' });

/** A date after `today` (both `YYYY-MM-DD`); spec: 'Date must be in the future'. */
export function futureDate(today: string): Rule {
  return (value) => (value > today ? null : { key: 'date-future' });
}

/**
 * Cross-field check: the end time is after the start time. Null when either is not a valid
 * time (those errors belong to the single fields).
 */
export function endAfterStart(start: string, end: string): ValidationError | null {
  const [from, until] = [minutesOf(start), minutesOf(end)];
  if (from === null || until === null) return null;
  return until > from ? null : { key: 'time-after' };
}

/**
 * Cross-field check: a date range does not end before it starts. Null when either date is
 * missing or invalid.
 */
export function notBefore(start: string, end: string): ValidationError | null {
  const [from, until] = [start.trim(), end.trim()];
  if (!isIsoDate(from) || !isIsoDate(until)) return null;
  return until >= from ? null : { key: 'date-not-before' };
}

/** Runs the rules in order on the trimmed value and returns the first failure. */
export function validateValue(value: string, rules: readonly Rule[]): ValidationError | null {
  const trimmed = value.trim();
  if (trimmed === '') {
    return rules.some((rule) => rule.isRequired) ? { key: 'required' } : null;
  }
  for (const rule of rules) {
    const error = rule(trimmed);
    if (error) return error;
  }
  return null;
}

export type FormSchema<F extends string> = Readonly<Record<F, readonly Rule[]>>;
export type FormErrors<F extends string> = Partial<Record<F, ValidationError>>;

export function validateForm<F extends string>(
  values: Readonly<Record<F, string>>,
  schema: FormSchema<F>,
): FormErrors<F> {
  const errors: FormErrors<F> = {};
  for (const field of Object.keys(schema) as F[]) {
    const error = validateValue(values[field], schema[field]);
    if (error) errors[field] = error;
  }
  return errors;
}

/** The first field, in the given order, that has an error. */
export function firstInvalidField<F extends string>(
  order: readonly F[],
  errors: Partial<Record<F, unknown>>,
): F | undefined {
  return order.find((field) => errors[field] !== undefined);
}
