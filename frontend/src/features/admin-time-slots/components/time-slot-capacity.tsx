import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { monthRange, parseYear, parseYearMonth } from '../../../lib/calendar';
import { formatDate, todayIso } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useGetTimeSlotRoomQuery,
  useUpdateTimeSlotCapacityMutation,
} from '../api/admin-time-slots-api';
import { calendarPathAt } from '../utils/paths';
import {
  CAPACITY_FIELDS,
  checkCapacityForm,
  type CapacityField,
  type CapacityFormValues,
} from '../utils/time-slot-form';
import { SlotCapacityField } from './slot-capacity-field';

const idOf = (field: CapacityField) => `slot-capacity-${field}`;

/**
 * Route `/room/:roomId/time-slot-edit-multi-capacity/`: set the capacity of every slot in a date
 * range. Query `year` and `month` (the calendar's month) preselect that month as the range.
 */
export function TimeSlotCapacity() {
  const { t } = useTranslation('admin-time-slots');
  const { roomId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const room = useGetTimeSlotRoomQuery(roomId);
  const [initialValues] = useState<CapacityFormValues>(() => {
    const today = todayIso();
    const year = parseYear(searchParams.get('year'));
    if (year === null || searchParams.get('month') === null) {
      return { fromDate: today, untilDate: today, capacity: '' };
    }
    const range = monthRange(
      parseYearMonth({ year: String(year), month: searchParams.get('month') }, { year, month: 1 }),
    );
    return { ...range, capacity: '' };
  });

  return (
    <Page title={t('capacity.title')}>
      {room.data ? <p className="page-subtitle">{t('room', { name: room.data.name })}</p> : null}
      <p>{t('capacity.intro')}</p>
      <CapacityForm roomId={roomId} initialValues={initialValues} />
    </Page>
  );
}

function CapacityForm({
  roomId,
  initialValues,
}: {
  roomId: string;
  initialValues: CapacityFormValues;
}) {
  const { t } = useTranslation('admin-time-slots');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [values, setValues] = useState(initialValues);
  const [updateCapacity, { isLoading, error }] = useUpdateTimeSlotCapacityMutation();
  const form = useValidatedForm(checkCapacityForm, CAPACITY_FIELDS, idOf);
  const refusal = useRefusal(error);

  const change = (field: CapacityField, value: string) => {
    const next = { ...values, [field]: value };
    // "Until" follows "from" (as repeat-until follows the start date when adding slots): when it
    // was the same day, empty or would now lie before it. Else the first submit always failed.
    if (
      field === 'fromDate' &&
      (values.untilDate === '' || values.untilDate === values.fromDate || values.untilDate < value)
    ) {
      next.untilDate = value;
    }
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
    if (!body) return;
    let updated: number;
    try {
      updated = (await updateCapacity({ roomId, body }).unwrap()).updatedTimeSlots;
    } catch {
      return; // shown by the error box
    }
    dispatch(
      notify({
        title: t('capacity.updated', {
          count: updated,
          from: formatDate(body.fromDate),
          until: formatDate(body.untilDate),
        }),
        type: updated > 0 ? 'success' : 'warning',
      }),
    );
    await navigate(calendarPathAt(roomId, body.fromDate));
  };

  const field = (name: CapacityField) => ({
    id: idOf(name),
    value: values[name],
    error: form.messageOf(name),
    required: true,
    onChange: (event: { target: { value: string } }) => change(name, event.target.value),
  });

  return (
    <StaffForm refusal={refusal} onSubmit={submit}>
      <div className="field-row">
        <InputField {...field('fromDate')} type="date" label={t('capacity.from')} />
        <InputField
          {...field('untilDate')}
          type="date"
          min={values.fromDate || undefined}
          label={t('capacity.until')}
        />
      </div>
      <SlotCapacityField {...field('capacity')} />
      <FormActions
        submitLabel={t('capacity.submit')}
        busy={isLoading}
        cancelTo={calendarPathAt(roomId, initialValues.fromDate)}
        cancelLabel={t('form.cancel')}
      />
    </StaffForm>
  );
}
