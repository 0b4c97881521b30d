import type { FormEventHandler, ReactNode } from 'react';
import { Link } from 'react-router';
import type { Refusal } from '../hooks/use-refusal';
import { ErrorBox } from './error-box';
import { RefusalScope, RequiredHint } from './form-field';

/**
 * A staff form (docs/product.md#screens): the hint on the required fields' asterisk, then the
 * server's refusal of the form (if any) above its fields, which it marks.
 */
export function StaffForm({
  refusal,
  onSubmit,
  children,
}: {
  refusal: Refusal;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <RefusalScope refusal={refusal}>
      <form className="form" noValidate onSubmit={onSubmit}>
        <RequiredHint />
        <ErrorBox refusal={refusal} />
        {children}
      </form>
    </RefusalScope>
  );
}

/** A form's submit button (disabled while it is sent) and the link back without saving. */
export function FormActions({
  submitLabel,
  busy,
  cancelTo,
  cancelLabel,
}: {
  submitLabel: ReactNode;
  busy: boolean;
  cancelTo: string;
  cancelLabel: string;
}) {
  return (
    <div className="form__actions">
      <button type="submit" className="button button--primary" disabled={busy}>
        {submitLabel}
      </button>
      <Link className="button button--secondary" to={cancelTo}>
        {cancelLabel}
      </Link>
    </div>
  );
}
