import { useNavigate, useParams } from 'react-router';
import type { Site, SiteInput } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { RefusalScope } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { hasErrorCode } from '../../../lib/staff-forms';
import { notify } from '../../../stores/notifications-slice';
import { useGetAdminSiteQuery, useUpdateSiteMutation } from '../api/admin-sites-api';
import { SITE_LIST_PATH, siteToFormValues } from '../utils/site-form';
import { SiteForm } from './site-form';
import { SiteHoursForm } from './site-hours-form';
import { SiteLogoForm } from './site-logo-form';
import { useSiteRefusal } from './site-refusal';

const VERSION_CONFLICT = 'concurrency__version_conflict';

/** Route `/site-edit/:id`: change a site (optimistic locking with its version). */
export function SiteEdit() {
  const { t } = useTranslation('admin-sites');
  const { id = '' } = useParams();
  const { data, error, refetch } = useGetAdminSiteQuery(id);

  return (
    <Page title={t('edit.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: SITE_LIST_PATH, label: t('back-to-list') }}
      >
        {(site) => (
          <>
            <SiteEditForm site={site} reload={refetch} />
            <SiteHoursForm key={JSON.stringify(site.hours)} site={site} />
            <SiteLogoForm site={site} />
          </>
        )}
      </LoadingContainer>
    </Page>
  );
}

function SiteEditForm({ site, reload }: { site: Site; reload: () => Promise<unknown> }) {
  const { t } = useTranslation('admin-sites');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [updateSite, { isLoading, error }] = useUpdateSiteMutation();
  const refusal = useSiteRefusal(error);

  const save = async (input: SiteInput) => {
    const body = { ...input, version: site.version };
    try {
      await updateSite({ id: site.id, body }).unwrap();
    } catch (failure) {
      // Changed meanwhile: load the current version; the form starts afresh from it once it has
      // come (keyed by the version: a refetch already under way may answer first with the
      // version the form has), and the message stays.
      if (hasErrorCode(failure, VERSION_CONFLICT)) void reload();
      return;
    }
    dispatch(notify({ title: t('edit.saved', { name: textIn(body.name, body.nameEn) }) }));
    await navigate(SITE_LIST_PATH);
  };

  return (
    <RefusalScope refusal={refusal}>
      <SiteForm
        key={site.version}
        initialValues={siteToFormValues(site)}
        submitLabel={t('edit.submit')}
        isSubmitting={isLoading}
        onSubmit={save}
      >
        <ErrorBox refusal={refusal} />
      </SiteForm>
    </RefusalScope>
  );
}
