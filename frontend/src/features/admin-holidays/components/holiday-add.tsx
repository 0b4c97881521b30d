import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useCreateHolidayMutation } from '../api/admin-holidays-api';
import { useGetClosureRoomsQuery } from '../api/admin-closures-api';
import type { ClosureResult, HolidayInput } from '../../../api/types';
import { HOLIDAY_FORM_DEFAULTS, holidayListPath, holidayListPathAt } from '../utils/holiday-form';
import { closureResultText } from '../utils/closure-text';
import { ClosureDialog } from './closure-dialog';
import { HolidayForm } from './holiday-form';

/**
 * Route `/holiday-add`. A holiday added on a day that has slots leaves them bookable until staff
 * close them: the closure dialog asks (docs/product.md#closures).
 */
export function HolidayAdd({ allSites }: { allSites: boolean }) {
  const { t } = useTranslation('admin-holidays');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [createHoliday, { isLoading, error }] = useCreateHolidayMutation();
  const [added, setAdded] = useState<HolidayInput | null>(null);
  const rooms = useGetClosureRoomsQuery();
  // A holiday of one site closes that site's rooms only (docs/product.md#sites).
  // (null while the rooms load; undefined: a holiday of every site, all rooms.)
  const siteRooms = added?.siteId
    ? rooms.data
      ? rooms.data.content.filter((room) => room.siteId === added.siteId).map((r) => r.id)
      : null
    : undefined;

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
        allSites={allSites}
        isSubmitting={isLoading || added !== null}
        onSubmit={submit}
        cancelTo={holidayListPath()}
      >
        {error ? <ErrorBox error={error} reveal /> : null}
      </HolidayForm>
      {added && siteRooms?.length === 0 ? <NothingToClose onDone={closed} /> : null}
      {added && (siteRooms === undefined || siteRooms?.length) ? (
        <ClosureDialog
          scope={{
            fromDate: added.date,
            untilDate: added.date,
            ...(siteRooms ? { roomIds: siteRooms } : {}),
          }}
          defaultReason={added.name}
          defaultReasonEn={added.nameEn}
          onDone={closed}
        />
      ) : null}
    </Page>
  );
}

/** A site without rooms has nothing to close: on to the list. */
function NothingToClose({ onDone }: { onDone: (result: null) => void }) {
  useEffect(() => onDone(null), [onDone]);
  return null;
}
