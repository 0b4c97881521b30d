import { useEffect, useId, useRef, type RefObject } from 'react';
import { refusedFieldOf, type RefusedField } from '../lib/refused-field';

/**
 * A server's refusal of a form (docs/product.md#screens): the error, the id of the message that
 * shows it, and the control of the field it concerns (none when it concerns no field the form
 * has). The form's fields inside a `RefusalScope` of it are marked invalid and described by the
 * message; the message (an `ErrorBox` given the refusal) takes focus and comes into view.
 */
export interface Refusal {
  readonly error: unknown;
  readonly messageId: string;
  readonly controlId: string | undefined;
}

/**
 * The refusal `error` (null or undefined: none) of a form whose controls for the refused fields
 * are `controls` (e.g. `{ email: 'personal-email' }`).
 */
export function useRefusal(
  error: unknown,
  controls: Readonly<Partial<Record<RefusedField, string>>> = {},
): Refusal {
  const messageId = `refusal-${useId().replace(/[^\w-]/g, '')}`;
  const field = error ? refusedFieldOf(error) : null;
  return { error: error ?? null, messageId, controlId: field ? controls[field] : undefined };
}

/**
 * Brings a refusal's message into sight each time a new refusal shows (a new error object): focus
 * on the message, scrolled to the middle of the window, so that neither a phone's short screen
 * nor a pinned bar (the cart's hold) hides it and a screen reader reads it at once.
 */
export function useRevealOnShow(target: RefObject<HTMLElement | null>, error: unknown): void {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!error) shown.current = null;
    if (!error || shown.current === error) return;
    shown.current = error;
    const element = target.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'center' });
  }, [error, target]);
}
