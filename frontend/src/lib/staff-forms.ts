import type { FieldError } from '@rr/contracts/issues';
import { problemCode } from './error-message';
import type { FormCheck } from './form-check';

/** Form helpers only the staff forms use (kept out of the visitor's download, as staff-dates.ts). */

/** A text field's value for a request: trimmed; empty counts as not given. */
export function text(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A number field's value for a request: empty counts as not given, anything else as a number. */
export function numberOf(value: string): number | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/** A check whose request names the fields otherwise than the form: its errors by the form's names. */
export function withFieldNames<V, T, F extends string>(
  check: FormCheck<V, T>,
  requestNames: Readonly<Record<F, string>>,
): FormCheck<V, T> {
  return (values) => {
    const result = check(values);
    if (result.ok) return result;
    const errors: Partial<Record<string, FieldError>> = {};
    for (const [field, name] of Object.entries(requestNames) as [F, string][]) {
      const error = result.errors[name];
      if (error) errors[field] = error;
    }
    return { ok: false, errors };
  };
}

/** True when the problem carries exactly this error code (payload ignored). */
export function hasErrorCode(problem: unknown, code: string): boolean {
  return problemCode(problem)?.code === code;
}

/** A choice of several with one item added or removed, in the order of `all` (e.g. a contract's). */
export function toggled<T extends string>(
  all: readonly T[],
  chosen: readonly T[],
  item: T,
  on: boolean,
): T[] {
  return all.filter((x) => (x === item ? on : chosen.includes(x)));
}
