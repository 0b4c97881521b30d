import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { useTranslation } from '../i18n/i18n-context';

/** The asterisk of a required field; the control itself carries `required` for assistive tech. */
export function RequiredMark() {
  return (
    <span className="required-mark" aria-hidden="true">
      {' *'}
    </span>
  );
}

/** Explains the asterisk; shown once at the top of a form with required fields. */
export function RequiredHint() {
  const { t } = useTranslation();
  return <p className="required-hint">{t('required-hint')}</p>;
}

export interface FieldBase {
  id: string;
  label: ReactNode;
  required?: boolean;
  /** Translated error text; sets aria-invalid and is referenced by aria-describedby. */
  error?: string | undefined;
  hint?: ReactNode;
}

export function hintId(id: string): string {
  return `${id}-hint`;
}

export function errorId(id: string): string {
  return `${id}-error`;
}

function describedBy({ id, hint, error }: FieldBase): string | undefined {
  const ids = [hint ? hintId(id) : null, error ? errorId(id) : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function FieldHint({ id, hint }: FieldBase) {
  return hint ? (
    <p id={hintId(id)} className="field__hint">
      {hint}
    </p>
  ) : null;
}

export function FieldError({ id, error }: FieldBase) {
  return error ? (
    <p id={errorId(id)} className="field__error">
      {error}
    </p>
  ) : null;
}

export function controlProps(field: FieldBase) {
  return {
    id: field.id,
    required: field.required,
    'aria-invalid': field.error ? true : undefined,
    'aria-describedby': describedBy(field),
  };
}

export function Label({ id, label, required }: FieldBase) {
  return (
    <label htmlFor={id} className="field__label">
      {label}
      {required ? <RequiredMark /> : null}
    </label>
  );
}

type InputFieldProps = FieldBase &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required' | 'aria-invalid'>;

export function InputField({ id, label, required, error, hint, ...input }: InputFieldProps) {
  const field = { id, label, required, error, hint };
  return (
    <div className="field">
      <Label {...field} />
      <FieldHint {...field} />
      <input className="field__control" {...input} {...controlProps(field)} />
      <FieldError {...field} />
    </div>
  );
}

type SelectFieldProps = FieldBase &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'required' | 'aria-invalid'> & {
    options: readonly { value: string; label: string }[];
  };

export function SelectField({
  id,
  label,
  required,
  error,
  hint,
  options,
  ...select
}: SelectFieldProps) {
  const field = { id, label, required, error, hint };
  return (
    <div className="field">
      <Label {...field} />
      <FieldHint {...field} />
      <select className="field__control" {...select} {...controlProps(field)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError {...field} />
    </div>
  );
}

type CheckboxFieldProps = FieldBase &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'required' | 'aria-invalid' | 'type'>;

export function CheckboxField({ id, label, required, error, hint, ...input }: CheckboxFieldProps) {
  const field = { id, label, required, error, hint };
  return (
    <div className="field field--checkbox">
      <input type="checkbox" className="field__checkbox" {...input} {...controlProps(field)} />
      <Label {...field} />
      <FieldHint {...field} />
      <FieldError {...field} />
    </div>
  );
}
