import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useCreateHolidayMutation } from '../api/admin-holidays-api';
import type { HolidayInput } from '../../../api/types';
import { HOLIDAY_FORM_DEFAULTS, holidayListPath, holidayListPathAt } from '../utils/holiday-form';
import { HolidayForm } from './holiday-form';

/** Route `/holiday-add`. */
export function HolidayAdd() {
  const { t } = useTranslation('admin-holidays');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [createHoliday, { isLoading, error }] = useCreateHolidayMutation();

  const submit = async (holiday: HolidayInput) => {
    try {
      await createHoliday(holiday).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(
      notify({ title: t('add.created', { name: holiday.name, date: formatDate(holiday.date) }) }),
    );
    await navigate(holidayListPathAt(holiday.date));
  };

  return (
    <Page title={t('add.title')}>
      <HolidayForm
        initialValues={HOLIDAY_FORM_DEFAULTS}
        submitLabel={t('add.submit')}
        isSubmitting={isLoading}
        onSubmit={submit}
        cancelTo={holidayListPath()}
      >
        {error ? <ErrorBox error={error} /> : null}
      </HolidayForm>
    </Page>
  );
}
