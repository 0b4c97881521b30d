import { useRef, type ReactNode } from 'react';
import { useRevealOnShow, type Refusal } from '../hooks/use-refusal';
import { useTranslation } from '../i18n/i18n-context';
import { errorMessageKeys, errorMessageParams, UNKNOWN_ERROR_KEY } from '../lib/error-message';

interface ErrorBoxProps {
  /** An API error or problem body; its message is looked up in the common-error namespace. */
  error?: unknown;
  /**
   * A form's refusal (hooks/use-refusal.ts): the box shows its error under the id the refused
   * field is described by, and takes focus and comes into view each time a new one shows.
   */
  refusal?: Refusal;
  /** Takes focus and comes into view each time a new error shows (an action's refusal). */
  reveal?: boolean;
  /** A catalogue key (common-error namespace) to use instead of the error's own. */
  messageKey?: string;
  /** Optional extra content, e.g. a back link or a retry button. */
  extra?: ReactNode;
}

/** A translated error message (docs/product.md#errors) announced to assistive technology. */
export function ErrorBox({ error, refusal, reveal = false, messageKey, extra }: ErrorBoxProps) {
  const { t } = useTranslation('common-error');
  const shown = refusal ? refusal.error : error;
  const box = useRef<HTMLDivElement>(null);
  useRevealOnShow(box, refusal || reveal ? shown : null);
  if (refusal && !shown) return null;
  const keys = messageKey ? [messageKey, UNKNOWN_ERROR_KEY] : errorMessageKeys(shown);
  return (
    <div
      className="error-box"
      role="alert"
      id={refusal?.messageId}
      ref={box}
      tabIndex={refusal || reveal ? -1 : undefined}
    >
      <p className="error-box__message">{t(keys, errorMessageParams(shown))}</p>
      {extra ? <div className="error-box__extra">{extra}</div> : null}
    </div>
  );
}
