import { useTranslation } from '../i18n/i18n-context';
import { Page } from './page';

/** The user lacks the permission to manage the reservation system (docs/product.md#screens). */
export function PermissionError() {
  const { t } = useTranslation();
  return (
    <Page title={t('permission.title')}>
      <p className="notice notice--warning">{t('permission.message')}</p>
    </Page>
  );
}
