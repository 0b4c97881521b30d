import type { TextareaHTMLAttributes } from 'react';
import { useControlProps, FieldError, FieldHint, Label, type FieldBase } from './form-field';

/** A labelled text area (only the staff app's forms have one). */
type TextAreaFieldProps = FieldBase &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'required' | 'aria-invalid'>;

export function TextAreaField({ id, label, required, error, hint, ...area }: TextAreaFieldProps) {
  const field = { id, label, required, error, hint };
  const control = useControlProps(field);
  return (
    <div className="field">
      <Label {...field} />
      <FieldHint {...field} />
      <textarea className="field__control" {...area} {...control} />
      <FieldError {...field} />
    </div>
  );
}
