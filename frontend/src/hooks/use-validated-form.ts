import { useCallback, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { firstInvalidField, validateForm, validateValue, type FormSchema } from '../lib/validation';

/** An error of one field: a key below `validation.` in the common namespace, with parameters. */
export interface FieldError {
  readonly key: string;
  readonly params?: Readonly<Record<string, number | string>>;
}

export type FieldErrors<F extends string> = Partial<Record<F, FieldError>>;

/**
 * Validation before submit (spec section 2): `validate` checks every field, shows the errors
 * and moves focus to the first invalid control (element id from `idOf`). Fields with an error
 * are checked again while they are edited.
 */
export function useValidatedForm<F extends string>(
  schema: FormSchema<F>,
  order: readonly F[],
  idOf: (field: F) => string,
) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldErrors<F>>({});

  const validate = useCallback(
    (values: Readonly<Record<F, string>>, extraErrors: FieldErrors<F> = {}): boolean => {
      const found: FieldErrors<F> = { ...validateForm(values, schema), ...extraErrors };
      flushSync(() => setErrors(found));
      const first = firstInvalidField(order, found);
      if (first === undefined) return true;
      document.getElementById(idOf(first))?.focus();
      return false;
    },
    [schema, order, idOf],
  );

  /** Re-checks a field that currently shows an error, as the user corrects it. */
  const revalidate = useCallback(
    (field: F, value: string) => {
      setErrors((current) => {
        if (!current[field]) return current;
        const next = { ...current };
        const error = validateValue(value, schema[field]);
        if (error) next[field] = error;
        else delete next[field];
        return next;
      });
    },
    [schema],
  );

  const setFieldError = useCallback((field: F, error: FieldError | undefined) => {
    setErrors((current) => {
      const next = { ...current };
      if (error) next[field] = error;
      else delete next[field];
      return next;
    });
  }, []);

  const messageOf = (field: F): string | undefined => {
    const error = errors[field];
    return error ? t(`validation.${error.key}`, error.params) : undefined;
  };

  return { errors, validate, revalidate, setFieldError, messageOf };
}
