import {
  check,
  type Checked,
  type Contract,
  type FieldErrors,
  type Output,
} from '@rr/contracts/issues';

/**
 * The forms check their values with the request contracts of docs/product.md#validation (`@rr/contracts`,
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

/** The errors of a check, none when it passed. */
export function errorsOf<F extends string = string>(result: Checked<unknown>): FieldErrors<F> {
  return result.ok ? {} : result.errors;
}
