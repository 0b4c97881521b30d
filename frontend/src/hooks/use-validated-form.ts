import { useCallback, useState } from 'react';
import { flushSync } from 'react-dom';
import type { FieldError, FieldErrors } from '@rr/contracts/issues';
import { useTranslation } from '../i18n/i18n-context';
import { errorsOf, type FormCheck } from '../lib/form-check';
import { fieldMessage } from '../lib/field-message';

export type { FieldError, FieldErrors };

/**
 * Validation before submit (docs/product.md#screens) with a form's contract check (lib/form-check.ts):
 * `validate` checks every field, shows the errors and moves focus to the first invalid control
 * (element id from `idOf`, fields in form order); it gives the request body when all is valid.
 * Fields with an error are checked again while the form is edited (`revalidate` with the new
 * values: an error goes once its field, or a field it depends on, is corrected).
 */
export function useValidatedForm<V, T, F extends string>(
  check: FormCheck<V, T>,
  order: readonly F[],
  idOf: (field: F) => string,
) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldErrors<F>>({});

  const validate = useCallback(
    (values: V): T | null => {
      const result = check(values);
      const found = errorsOf<F>(result);
      flushSync(() => setErrors(found));
      if (result.ok) return result.data;
      const first = order.find((field) => found[field] !== undefined);
      if (first !== undefined) document.getElementById(idOf(first))?.focus();
      return null;
    },
    [check, order, idOf],
  );

  const revalidate = useCallback(
    (values: V) => {
      setErrors((current) => {
        const shown = Object.keys(current) as F[];
        if (shown.length === 0) return current;
        const found = errorsOf<F>(check(values));
        const next: FieldErrors<F> = {};
        for (const field of shown) if (found[field]) next[field] = found[field];
        return next;
      });
    },
    [check],
  );

  const messageOf = (field: F): string | undefined => {
    const error = errors[field];
    return error ? fieldMessage(t, error) : undefined;
  };

  return { errors, validate, revalidate, messageOf };
}
