import * as z from 'zod/mini';

/**
 * The rules a field can fail, each the key of its message: `validation.<key>` in the browser's
 * catalogues (de, en), `messageOf` for the API's English texts. `invalid` is the fallback for a
 * failure no rule names.
 */
export const RULE_KEYS = [
  'required',
  'between',
  'max-length',
  'min-length',
  'integer',
  'email',
  'time',
  'date',
  'time-after',
  'date-not-before',
  'date-future',
  'weekday',
  'phone',
  'characters',
  'domain',
  'slug',
  'staff-role',
  'site-unknown',
  'unique',
  'hours-ranges',
  'hours-overlap',
  'hours-exceptions',
  'image-required',
  'image-type',
  'image-size',
  'calendar-required',
  'calendar-type',
  'calendar-size',
  'invalid',
] as const;
export type RuleKey = (typeof RULE_KEYS)[number];

/** The failed rule of a field: its key and parameters (`{ max: 40 }`). */
export interface FieldError {
  readonly key: RuleKey;
  readonly params?: Readonly<Record<string, number>>;
}

/** The first failed rule of each field, by field path (`firstName`, `owner.lastName`). */
export type FieldErrors<F extends string = string> = Partial<Record<F, FieldError>>;

/**
 * The one mapping of zod issues to the rules of docs/product.md#validation: a refinement names its rule
 * (`params.rule`, see `rule`); zod's own checks are named by their code: a string too short by
 * one character is a missing value, otherwise a length; a missing value (or choice) is
 * 'required'; a number that is none (NaN) is 'integer'. Anything else is 'invalid'.
 */
export function fieldErrorOf(issue: z.core.$ZodIssue): FieldError {
  switch (issue.code) {
    case 'custom': {
      // Set by `rule` (rules.ts) and `crossRule` (fields.ts), always one of RULE_KEYS.
      const { rule, ...params } = (issue.params ?? {}) as { rule?: RuleKey };
      if (typeof rule !== 'string') break;
      const numbers = Object.entries(params).filter(
        (entry): entry is [string, number] => typeof entry[1] === 'number',
      );
      return numbers.length ? { key: rule, params: Object.fromEntries(numbers) } : { key: rule };
    }
    case 'too_small':
      if (issue.origin !== 'string') break;
      return Number(issue.minimum) <= 1
        ? { key: 'required' }
        : { key: 'min-length', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin !== 'string') break;
      return { key: 'max-length', params: { max: Number(issue.maximum) } };
    case 'invalid_type':
      return { key: (issue as { received?: unknown }).received === 'NaN' ? 'integer' : 'required' };
    case 'invalid_value':
      // A choice left empty (known when the parse reported its input, as `check` does).
      if ('input' in issue && issue.input === undefined) return { key: 'required' };
      break;
    default:
      break;
  }
  return { key: 'invalid' };
}

/** The field errors of a failed parse: the first issue of each field, named by its path. */
export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    errors[field] ??= fieldErrorOf(issue);
  }
  return errors;
}

/** A request contract (any zod schema) and what it parses a request into. */
export type Contract = z.core.$ZodType;
export type Output<S extends Contract> = z.output<S>;

export type Checked<T> =
  { readonly ok: true; readonly data: T } | { readonly ok: false; readonly errors: FieldErrors };

/** Parses a value with a contract: its data, or the first failed rule of each field. */
export function check<S extends Contract>(schema: S, value: unknown): Checked<Output<S>> {
  const result = z.safeParse(schema, value, { reportInput: true });
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, errors: fieldErrors(result.error) };
}

/** Whether a field must be filled in (its schema refuses a missing value): marked with an asterisk. */
export function isRequired(schema: Contract): boolean {
  return !z.safeParse(schema, undefined).success;
}
