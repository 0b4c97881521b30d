import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/i18n-context';
import { errorMessageKeys, errorMessageParams, UNKNOWN_ERROR_KEY } from '../lib/error-message';

interface ErrorBoxProps {
  /** An API error or problem body; its message is looked up in the common-error namespace. */
  error?: unknown;
  /** A catalogue key (common-error namespace) to use instead of the error's own. */
  messageKey?: string;
  /** Optional extra content, e.g. a back link or a retry button. */
  extra?: ReactNode;
}

/** A translated error message (docs/product.md#errors) announced to assistive technology. */
export function ErrorBox({ error, messageKey, extra }: ErrorBoxProps) {
  const { t } = useTranslation('common-error');
  const keys = messageKey ? [messageKey, UNKNOWN_ERROR_KEY] : errorMessageKeys(error);
  return (
    <div className="error-box" role="alert">
      <p className="error-box__message">{t(keys, errorMessageParams(error))}</p>
      {extra ? <div className="error-box__extra">{extra}</div> : null}
    </div>
  );
}
