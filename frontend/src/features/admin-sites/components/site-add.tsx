import { useNavigate } from 'react-router';
import type { SiteInput } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { RefusalScope } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { notify } from '../../../stores/notifications-slice';
import { useCreateSiteMutation } from '../api/admin-sites-api';
import { SITE_FORM_DEFAULTS, SITE_LIST_PATH } from '../utils/site-form';
import { SiteForm } from './site-form';
import { useSiteRefusal } from './site-refusal';

/** Route `/site-add`: create a site (admins). */
export function SiteAdd() {
  const { t } = useTranslation('admin-sites');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [createSite, { isLoading, error }] = useCreateSiteMutation();
  const refusal = useSiteRefusal(error);

  const submit = async (site: SiteInput) => {
    try {
      await createSite(site).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('add.created', { name: textIn(site.name, site.nameEn) }) }));
    await navigate(SITE_LIST_PATH);
  };

  return (
    <Page title={t('add.title')}>
      <RefusalScope refusal={refusal}>
        <SiteForm
          initialValues={SITE_FORM_DEFAULTS}
          submitLabel={t('add.submit')}
          isSubmitting={isLoading}
          onSubmit={submit}
        >
          <ErrorBox refusal={refusal} />
        </SiteForm>
      </RefusalScope>
    </Page>
  );
}
