import { useState } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';

interface SecretOnceProps {
  id: string;
  /** What the secret is for ("API token Door counter"). */
  label: string;
  secret: string;
}

/**
 * A secret the server answers once (an API token's, a webhook's signing secret): shown in a
 * read-only field, selected on focus, with a copy button; it is gone once the page is left.
 */
export function SecretOnce({ id, label, secret }: SecretOnceProps) {
  const { t } = useTranslation('admin-integrations');
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="notice notice--success">
      <p>
        <strong>{label}</strong>
      </p>
      <p>{t('secret.once')}</p>
      <div className="field">
        <label htmlFor={id} className="field__label">
          {t('secret.label')}
        </label>
        <input
          id={id}
          className="field__control"
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
        />
      </div>
      <p>
        <button type="button" className="button button--secondary" onClick={() => void copy()}>
          {t('secret.copy')}
        </button>{' '}
        <span role="status">
          {copied === true ? t('secret.copied') : copied === false ? t('secret.copy-failed') : ''}
        </span>
      </p>
    </div>
  );
}
