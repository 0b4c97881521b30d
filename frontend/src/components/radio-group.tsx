import type { ReactNode } from 'react';
import { errorId, RequiredMark } from './form-field';

export interface RadioOption {
  value: string;
  label: ReactNode;
  /** A choice that cannot be taken now: shown, not selectable. */
  disabled?: boolean;
}

interface RadioGroupFieldProps {
  /** The group's id: its first choice carries it (a refused form moves the focus there). */
  id: string;
  legend: ReactNode;
  options: readonly RadioOption[];
  /** The chosen value; null: nothing chosen yet (no default). */
  value: string | null;
  onChange: (value: string) => void;
  required?: boolean;
  /** Translated error text: each choice is marked invalid and described by it. */
  error?: string | undefined;
  className?: string;
}

/**
 * A choice of one of a few options as radio buttons in a fieldset, without a default when
 * `value` is null: the person has to choose (e.g. whether a closure cancels the bookings).
 */
export function RadioGroupField({
  id,
  legend,
  options,
  value,
  onChange,
  required,
  error,
  className,
}: RadioGroupFieldProps) {
  return (
    <fieldset className={`fieldset${className ? ` ${className}` : ''}`}>
      <legend>
        {legend}
        {required ? <RequiredMark /> : null}
      </legend>
      {options.map((option, index) => {
        const optionId = index === 0 ? id : `${id}-${index}`;
        return (
          <div key={option.value} className="field field--checkbox">
            <input
              type="radio"
              className="field__checkbox"
              id={optionId}
              name={id}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              required={required}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId(id) : undefined}
              onChange={() => onChange(option.value)}
            />
            <label htmlFor={optionId} className="field__label">
              {option.label}
            </label>
          </div>
        );
      })}
      {error ? (
        <p id={errorId(id)} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
