import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

interface ConfirmedButtonProps {
  /** The button's content. */
  children: ReactNode;
  className?: string;
  /** The dialog's title, question and buttons. */
  title: string;
  question: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The request behind the action: reset as the dialog opens, its progress and failure shown in it. */
  mutation: { isLoading: boolean; error?: unknown; reset: () => void };
  /** The action, once confirmed; answers whether it succeeded, and the dialog then closes. */
  onConfirm: () => Promise<boolean>;
}

/** A button for a destructive action (delete, revoke) that asks first, in a modal dialog. */
export function ConfirmedButton({
  children,
  className = 'button button--danger',
  title,
  question,
  confirmLabel,
  cancelLabel,
  mutation,
  onConfirm,
}: ConfirmedButtonProps) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => {
          mutation.reset();
          setAsking(true);
        }}
      >
        {children}
      </button>
      {asking ? (
        <ConfirmDialog
          title={title}
          confirmLabel={confirmLabel}
          cancelLabel={cancelLabel}
          busy={mutation.isLoading}
          error={mutation.error}
          onConfirm={async () => {
            if (await onConfirm()) setAsking(false);
          }}
          onCancel={() => setAsking(false)}
        >
          {question}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
