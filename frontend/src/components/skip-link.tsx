import { useTranslation } from '../i18n/i18n-context';

export const MAIN_ID = 'main-content';

/** First focusable element: jumps over the header to the main content. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href={`#${MAIN_ID}`}>
      {t('skip-link')}
    </a>
  );
}
