import { useEffect } from 'react';
import { useTranslation } from '../i18n/i18n-context';

/** Sets the document title to "<page> – <app title>". */
export function useDocumentTitle(pageTitle: string): void {
  const { t } = useTranslation();
  const appTitle = t('app-title');
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} – ${appTitle}` : appTitle;
  }, [pageTitle, appTitle]);
}
