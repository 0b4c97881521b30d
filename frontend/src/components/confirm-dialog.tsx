import { useId, useRef, type ReactNode } from 'react';
import { closeDialog, Dialog } from './dialog';
import { ErrorBox } from './error-box';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The confirmed action; the caller unmounts the dialog when it succeeded. */
  onConfirm: () => void | Promise<void>;
  /** Escape or the cancel button; focus is back on the element that opened the dialog. */
  onCancel: () => void;
  busy?: boolean;
  /** The failure of the action, shown in the dialog. */
  error?: unknown;
  /** How the confirm button looks: red for what cannot be undone (default), else primary. */
  tone?: 'danger' | 'primary';
}

/** A modal question before an action (e.g. deleting a holiday, moving an appointment). */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy = false,
  error,
  tone = 'danger',
}: ConfirmDialogProps) {
  const headingId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  return (
    <Dialog
      labelledBy={headingId}
      onClose={onCancel}
      dialogRef={dialog}
      initialFocus={cancel}
      className="dialog--confirm"
    >
      <h2 id={headingId} className="dialog__title">
        {title}
      </h2>
      {children}
      {error ? <ErrorBox error={error} reveal /> : null}
      <div className="form__actions">
        <button
          type="button"
          className={`button button--${tone}`}
          disabled={busy}
          onClick={() => void onConfirm()}
        >
          {confirmLabel}
        </button>
        <button
          type="button"
          ref={cancel}
          className="button button--secondary"
          onClick={() => closeDialog(dialog)}
        >
          {cancelLabel}
        </button>
      </div>
    </Dialog>
  );
}
