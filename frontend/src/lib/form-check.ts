import {
  check,
  type Checked,
  type Contract,
  type FieldError,
  type FieldErrors,
  type Output,
} from '@rr/contracts/issues';

/**
 * The forms check their values with the request contracts of spec section 5 (`@rr/contracts`,
 * the same zod schemas the server validates with): a form's values make the request it sends,
 * and the contract parses it into the body or names each field's failed rule (the message key
 * below `validation.`, see `fieldErrorOf` in the contracts).
 */
export type FormCheck<V, T> = (values: V) => Checked<T>;

export function formCheck<S extends Contract, V>(
  contract: S,
  requestOf: (values: V) => unknown,
): FormCheck<V, Output<S>> {
  return (values) => check(contract, requestOf(values));
}

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

/** The errors of a check, none when it passed. */
export function errorsOf<F extends string = string>(result: Checked<unknown>): FieldErrors<F> {
  return result.ok ? {} : result.errors;
}
