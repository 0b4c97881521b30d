import { useNavigate, useParams } from 'react-router';
import type { Holiday, HolidayInput } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { hasErrorCode } from '../../../lib/staff-forms';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useGetHolidayQuery, useUpdateHolidayMutation } from '../api/admin-holidays-api';
import { holidayListPath, holidayListPathAt, holidayToFormValues } from '../utils/holiday-form';
import { HolidayForm } from './holiday-form';

const VERSION_CONFLICT = 'concurrency__version_conflict';

/** Route `/holiday-edit/:id`: edit a holiday (optimistic locking with its version). */
export function HolidayEdit({ allSites }: { allSites: boolean }) {
  const { t } = useTranslation('admin-holidays');
  const { id = '' } = useParams();
  const { data, error, refetch } = useGetHolidayQuery(id);

  return (
    <Page title={t('edit.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: holidayListPath(), label: t('back-to-list') }}
      >
        {(holiday) => <HolidayEditForm holiday={holiday} reload={refetch} allSites={allSites} />}
      </LoadingContainer>
    </Page>
  );
}

function HolidayEditForm({
  holiday,
  reload,
  allSites,
}: {
  holiday: Holiday;
  reload: () => unknown;
  allSites: boolean;
}) {
  const { t } = useTranslation('admin-holidays');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [updateHoliday, { isLoading, error }] = useUpdateHolidayMutation();

  const save = async (input: HolidayInput) => {
    const body = { ...input, version: holiday.version };
    try {
      await updateHoliday({ id: holiday.id, body }).unwrap();
    } catch (failure) {
      // Changed meanwhile: load the current version (a fresh form); the message stays.
      if (hasErrorCode(failure, VERSION_CONFLICT)) reload();
      return;
    }
    dispatch(notify({ title: t('edit.saved', { name: body.name, date: formatDate(body.date) }) }));
    await navigate(holidayListPathAt(body.date));
  };

  return (
    <HolidayForm
      allSites={allSites}
      key={holiday.version}
      initialValues={holidayToFormValues(holiday)}
      submitLabel={t('edit.submit')}
      isSubmitting={isLoading}
      onSubmit={save}
      cancelTo={holidayListPathAt(holiday.date)}
    >
      {error ? <ErrorBox error={error} reveal /> : null}
    </HolidayForm>
  );
}
