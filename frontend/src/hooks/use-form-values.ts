import { useState } from 'react';
import type { FormCheck } from '../lib/form-check';
import { useValidatedForm } from './use-validated-form';

/** The attributes of a text field's control that `useFormValues` keeps: id, value and error. */
export interface TextFieldProps {
  id: string;
  value: string;
  error: string | undefined;
  onChange: (event: { target: { value: string } }) => void;
}

/**
 * The typed values of a form whose fields are all texts, validated with its contract check
 * (`useValidatedForm`): `change` sets one field and checks the shown errors again; `field` gives
 * the props of a field's control (id, value, error, change handler) to spread on it.
 */
export function useFormValues<F extends string, T>(
  check: FormCheck<Record<F, string>, T>,
  order: readonly F[],
  idOf: (field: F) => string,
  initialValues: Record<F, string> | (() => Record<F, string>),
) {
  const [values, setValues] = useState(initialValues);
  const form = useValidatedForm(check, order, idOf);

  const change = (field: F, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const field = (name: F): TextFieldProps => ({
    id: idOf(name),
    value: values[name],
    error: form.messageOf(name),
    onChange: (event) => change(name, event.target.value),
  });

  return { values, change, field, validate: () => form.validate(values) };
}
