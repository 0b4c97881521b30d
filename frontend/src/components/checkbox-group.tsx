import type { ReactNode } from 'react';
import { toggled } from '../lib/staff-forms';
import { CheckboxField, RequiredMark } from './form-field';

export interface CheckboxOption<T extends string> {
  value: T;
  /** The checkbox's id; the first one's is where a refused form moves the focus. */
  id: string;
  label: string;
}

interface CheckboxGroupFieldProps<T extends string> {
  legend: ReactNode;
  /** Shown under the legend, before the choices. */
  hint?: ReactNode;
  options: readonly CheckboxOption<T>[];
  chosen: readonly T[];
  /** The new choice, always in the options' order. */
  onChange: (chosen: T[]) => void;
  required?: boolean;
  /** Translated error text, shown under the choices; the group is described by it. */
  error?: string | undefined;
  /** The error's element id (unique on the page). */
  errorId: string;
}

/**
 * Several of a few options as checkboxes in a fieldset (the weekdays of a slot series, the roles
 * of an API token, the events of a webhook): one legend, one error for the whole group.
 */
export function CheckboxGroupField<T extends string>({
  legend,
  hint,
  options,
  chosen,
  onChange,
  required,
  error,
  errorId,
}: CheckboxGroupFieldProps<T>) {
  const toggle = (item: T, on: boolean) =>
    onChange(
      toggled(
        options.map((o) => o.value),
        chosen,
        item,
        on,
      ),
    );
  return (
    <fieldset className="fieldset" aria-describedby={error ? errorId : undefined}>
      <legend>
        {legend}
        {required ? <RequiredMark /> : null}
      </legend>
      {hint ? <p className="field__hint">{hint}</p> : null}
      <div className="checkbox-grid">
        {options.map((option) => (
          <CheckboxField
            key={option.value}
            id={option.id}
            label={option.label}
            checked={chosen.includes(option.value)}
            onChange={(event) => toggle(option.value, event.target.checked)}
          />
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
