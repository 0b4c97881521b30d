import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useCreateHolidayMutation } from '../api/admin-holidays-api';
import type { ClosureResult, HolidayInput } from '../../../api/types';
import { HOLIDAY_FORM_DEFAULTS, holidayListPath, holidayListPathAt } from '../utils/holiday-form';
import { closureResultText } from '../utils/closure-text';
import { ClosureDialog } from './closure-dialog';
import { HolidayForm } from './holiday-form';

/**
 * Route `/holiday-add`. A holiday added on a day that has slots leaves them bookable until staff
 * close them: the closure dialog asks (docs/product.md#closures).
 */
export function HolidayAdd() {
  const { t } = useTranslation('admin-holidays');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [createHoliday, { isLoading, error }] = useCreateHolidayMutation();
  const [added, setAdded] = useState<HolidayInput | null>(null);

  const submit = async (holiday: HolidayInput) => {
    try {
      await createHoliday(holiday).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(
      notify({ title: t('add.created', { name: holiday.name, date: formatDate(holiday.date) }) }),
    );
    setAdded(holiday);
  };

  const closed = useCallback(
    (result: ClosureResult | null) => {
      if (!added) return;
      if (result)
        dispatch(
          notify({
            title: t('closure.done'),
            description: closureResultText(t, result),
          }),
        );
      void navigate(holidayListPathAt(added.date));
    },
    [added, dispatch, navigate, t],
  );

  return (
    <Page title={t('add.title')}>
      <HolidayForm
        initialValues={HOLIDAY_FORM_DEFAULTS}
        submitLabel={t('add.submit')}
        isSubmitting={isLoading || added !== null}
        onSubmit={submit}
        cancelTo={holidayListPath()}
      >
        {error ? <ErrorBox error={error} reveal /> : null}
      </HolidayForm>
      {added ? (
        <ClosureDialog
          scope={{ fromDate: added.date, untilDate: added.date }}
          defaultReason={added.name}
          defaultReasonEn={added.nameEn}
          onDone={closed}
        />
      ) : null}
    </Page>
  );
}
