import {
  createContext,
  useContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';
import type { Refusal } from '../hooks/use-refusal';
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

const RefusalContext = createContext<Refusal | null>(null);

/**
 * The fields inside are marked by a server's refusal of their form (hooks/use-refusal.ts): the
 * control of the refused field gets `aria-invalid` and is described by the refusal's message.
 */
export function RefusalScope({ refusal, children }: { refusal: Refusal; children: ReactNode }) {
  return <RefusalContext.Provider value={refusal}>{children}</RefusalContext.Provider>;
}

/** The id of the refusal message that concerns the control `id`, if one shows. */
function useRefusedBy(id: string): string | undefined {
  const refusal = useContext(RefusalContext);
  return refusal?.error && refusal.controlId === id ? refusal.messageId : undefined;
}

function describedBy({ id, hint, error }: FieldBase, refusedBy?: string): string | undefined {
  const ids = [hint ? hintId(id) : null, error ? errorId(id) : null, refusedBy].filter(Boolean);
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

/** The attributes of a field's control: its own error, or a refusal of its form (`RefusalScope`). */
export function useControlProps(field: FieldBase) {
  const refusedBy = useRefusedBy(field.id);
  return {
    id: field.id,
    required: field.required,
    'aria-invalid': field.error || refusedBy ? true : undefined,
    'aria-describedby': describedBy(field, refusedBy),
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
  const control = useControlProps(field);
  return (
    <div className="field">
      <Label {...field} />
      <FieldHint {...field} />
      <input className="field__control" {...input} {...control} />
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
  const control = useControlProps(field);
  return (
    <div className="field">
      <Label {...field} />
      <FieldHint {...field} />
      <select className="field__control" {...select} {...control}>
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
  const control = useControlProps(field);
  return (
    <div className="field field--checkbox">
      <input type="checkbox" className="field__checkbox" {...input} {...control} />
      <Label {...field} />
      <FieldHint {...field} />
      <FieldError {...field} />
    </div>
  );
}
