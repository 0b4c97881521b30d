import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

interface DialogProps {
  /** Id of the dialog's heading (its accessible name). */
  labelledBy: string;
  /** Called after the dialog closed by Escape or `closeDialog` (focus is already back). */
  onClose: () => void;
  /** Receives the element, so buttons inside can close it with `closeDialog`. */
  dialogRef?: RefObject<HTMLDialogElement | null>;
  /** Gets focus when the dialog opens; default: the first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

/** Closes a dialog the way Escape does (the `close` event follows). */
export function closeDialog(dialog: RefObject<HTMLDialogElement | null>): void {
  dialog.current?.close();
}

/**
 * A modal dialog on the native `<dialog>` element: shown with `showModal()` while mounted, so
 * the rest of the page is inert (focus stays inside) and Escape closes it. On close, focus
 * returns to the element that had it before. Unmounting it directly (e.g. after the action it
 * asked for) moves no focus: the caller decides where focus goes then.
 */
export function Dialog({
  labelledBy,
  onClose,
  dialogRef,
  initialFocus,
  className,
  children,
}: DialogProps) {
  const ownRef = useRef<HTMLDialogElement>(null);
  const ref = dialogRef ?? ownRef;
  const onCloseRef = useRef(onClose);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Once: StrictMode runs this effect twice, and focus may sit in the dialog the second time.
    opener.current ??= document.activeElement;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();

    const closed = () => {
      // A late event of an earlier close (the dialog has been shown again since): ignore it.
      if (dialog.open) return;
      const previous = opener.current;
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
      onCloseRef.current();
    };
    dialog.addEventListener('close', closed);
    return () => {
      dialog.removeEventListener('close', closed);
      if (dialog.open) dialog.close();
    };
  }, [ref, initialFocus]);

  return (
    <dialog
      ref={ref}
      className={['dialog', className].filter(Boolean).join(' ')}
      aria-labelledby={labelledBy}
    >
      {children}
    </dialog>
  );
}
