import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useConfig } from '../../../app/config-context';
import { ExternalLink } from '../../../components/external-link';
import { LanguageSwitch } from '../../../components/language-switch';
import { CheckboxField } from '../../../components/form-field';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useTranslation } from '../../../i18n/i18n-context';
import { SESSION_KEYS, readSession, writeSession } from '../../../lib/session-storage';

export function isPrivacyAccepted(): boolean {
  return readSession(SESSION_KEYS.privacyAccepted) === 'true';
}

const CHECKBOX_ID = 'privacy-accept';

/**
 * The way to more about privacy: the configured address, or without one the privacy text itself
 * (a link to the notice would lead nowhere); `privacy.details` can be overridden.
 */
function PrivacyInfo() {
  const { t } = useTranslation('privacy');
  const { faqUrl, privacyUrl } = useConfig();
  const infoUrl = privacyUrl || faqUrl;
  return infoUrl ? (
    <p>
      <ExternalLink href={infoUrl} newWindow>
        {t('info-link')}
      </ExternalLink>
    </p>
  ) : (
    <details className="privacy-details">
      <summary>{t('info-link')}</summary>
      <p>{t('details')}</p>
    </details>
  );
}

/**
 * The privacy notice beside a page reached from a mail's link (docs/product.md#visitor-screens):
 * it informs and blocks nothing, since such a page (a booking's tickets, leaving a waitlist) asks
 * for no consent to show what the mail refers to.
 */
export function PrivacyNote() {
  const { t } = useTranslation('privacy');
  return (
    <aside className="privacy-note" aria-label={t('title')}>
      <p>{t('text')}</p>
      <PrivacyInfo />
    </aside>
  );
}

/**
 * The privacy notice shown to visitors before anything else (docs/product.md#screens). It is the only
 * content of the page, so it is a dialog that takes focus on open and cannot be dismissed
 * without confirming. Acceptance lasts for the browser session.
 */
export function PrivacyOverlay({ onAccept }: { onAccept: () => void }) {
  const { t } = useTranslation('privacy');
  const [checked, setChecked] = useState(false);
  const [showError, setShowError] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(t('title'));

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checked) {
      setShowError(true);
      document.getElementById(CHECKBOX_ID)?.focus();
      return;
    }
    writeSession(SESSION_KEYS.privacyAccepted, 'true');
    onAccept();
  };

  return (
    <main className="privacy-backdrop">
      <div
        className="privacy-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="privacy-title"
        aria-describedby="privacy-text"
      >
        <LanguageSwitch />
        <h1 id="privacy-title" tabIndex={-1} ref={heading}>
          {t('title')}
        </h1>
        <p id="privacy-text">{t('text')}</p>
        <PrivacyInfo />
        <form noValidate onSubmit={confirm}>
          <CheckboxField
            id={CHECKBOX_ID}
            label={t('accept')}
            required
            checked={checked}
            error={showError && !checked ? t('accept-error') : undefined}
            onChange={(event) => setChecked(event.target.checked)}
          />
          <div className="form__actions">
            <button type="submit" className="button button--primary">
              {t('confirm')}
            </button>
          </div>
        </form>
      </div>
    </main>
  );
}
