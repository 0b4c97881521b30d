import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page';

/** TODO(issue #5): replace with the reports interface (daily and occupancy reports). */
export function ReportsPlaceholder() {
  const { t } = useTranslation('reports');
  return (
    <Page title={t('placeholder.title')}>
      <p className="notice notice--info">{t('placeholder.coming')}</p>
    </Page>
  );
}
