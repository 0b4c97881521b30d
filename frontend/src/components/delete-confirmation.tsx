import type { Ref } from 'react';
import { ErrorBox } from './error-box';

interface DeleteConfirmationProps {
  /** With an id the confirmation is a section labelled by its heading; without, a plain block. */
  id?: string;
  headingLevel?: 2 | 3;
  headingRef: Ref<HTMLHeadingElement>;
  title: string;
  question: string;
  error: unknown;
  busy: boolean;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The "delete confirmation" state of an edit page (docs/product.md#states): the question, the server's
 * refusal if any, and confirm / cancel. The heading takes focus when the state opens.
 */
export function DeleteConfirmation({ headingRef, ...props }: DeleteConfirmationProps) {
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  const body = (
    <>
      <Heading id={props.id} tabIndex={-1} ref={headingRef}>
        {props.title}
      </Heading>
      <p>{props.question}</p>
      {props.error ? <ErrorBox error={props.error} reveal /> : null}
      <div className="form__actions">
        <button
          type="button"
          className="button button--danger"
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
        <button type="button" className="button button--secondary" onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
      </div>
    </>
  );
  return props.id ? (
    <section className="confirm" aria-labelledby={props.id}>
      {body}
    </section>
  ) : (
    <div className="confirm">{body}</div>
  );
}

interface DeleteZoneProps {
  headingId: string;
  heading: string;
  /** Why deleting is not possible now (e.g. the count of reservations); null offers the button. */
  blockedMessage: string | null;
  deleteLabel: string;
  buttonRef: Ref<HTMLButtonElement>;
  onDelete: () => void;
}

/** The delete section of an edit page: the delete button, or the reason it is not offered. */
export function DeleteZone({ buttonRef, ...props }: DeleteZoneProps) {
  return (
    <section className="danger-zone" aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>{props.heading}</h2>
      {props.blockedMessage !== null ? (
        <p className="notice notice--warning">{props.blockedMessage}</p>
      ) : (
        <button
          type="button"
          ref={buttonRef}
          className="button button--danger"
          onClick={props.onDelete}
        >
          {props.deleteLabel}
        </button>
      )}
    </section>
  );
}
