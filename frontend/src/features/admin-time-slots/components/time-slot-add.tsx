import { CheckboxGroupField } from '../../../components/checkbox-group';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { useRefusal } from '../../../hooks/use-refusal';
import { CheckboxField, InputField } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { WEEKDAYS, weekdayNames, type Weekday } from '../../../lib/calendar';
import { formatDate, todayIso } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useCreateTimeSlotsMutation, useGetTimeSlotRoomQuery } from '../api/admin-time-slots-api';
import { calendarPath, calendarPathAt } from '../utils/paths';
import {
  ADD_FIELDS,
  addFormDefaults,
  checkAddForm,
  isRepeating,
  toTimeSlotInput,
  type AddField,
  type AddFormValues,
} from '../utils/time-slot-form';
import { SlotCapacityField } from './slot-capacity-field';

const dayId = (day: Weekday) => `slot-add-day-${day.toLowerCase()}`;
/** The weekday group's error focuses its first checkbox. */
const idOf = (field: AddField) => (field === 'daysOfWeek' ? dayId('MONDAY') : `slot-add-${field}`);
const DAYS_ERROR_ID = 'slot-add-days-error';

/** Route `/room/:id/time-slot-add`: create one slot or a weekly series. */
export function TimeSlotAdd() {
  const { t } = useTranslation('admin-time-slots');
  const { id = '' } = useParams();
  const room = useGetTimeSlotRoomQuery(id);
  return (
    <Page title={t('add.title')}>
      {room.data ? <p className="page-subtitle">{t('room', { name: room.data.name })}</p> : null}
      {room.data || room.error ? (
        <TimeSlotAddForm roomId={id} roomCapacity={room.data?.capacity ?? 0} />
      ) : (
        <p className="loading" role="status">
          {t('loading', { ns: 'common' })}
        </p>
      )}
    </Page>
  );
}

/** The form; a new slot proposes the room's capacity. */
function TimeSlotAddForm({ roomId, roomCapacity }: { roomId: string; roomCapacity: number }) {
  const { t, i18n } = useTranslation('admin-time-slots');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [values, setValues] = useState<AddFormValues>(() =>
    addFormDefaults(todayIso(), roomCapacity),
  );
  const [createTimeSlots, { isLoading, error }] = useCreateTimeSlotsMutation();
  const form = useValidatedForm(checkAddForm, ADD_FIELDS, idOf);
  const refusal = useRefusal(error, { startTime: idOf('startTime') });
  const repeating = isRepeating(values);
  const dayNames = weekdayNames(i18n.language, 'long');

  const change = (field: Exclude<AddField, 'daysOfWeek'>, value: string) => {
    const next = {
      ...values,
      [field]: value,
      // Changing the start date sets repeat-until to it (docs/product.md#screens).
      ...(field === 'startDate' ? { repeatUntil: value } : {}),
    };
    setValues(next);
    form.revalidate(next);
  };

  const changeDays = (daysOfWeek: Weekday[]) => {
    const next = { ...values, daysOfWeek };
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.validate(values)) return;
    let created: number;
    try {
      created = (await createTimeSlots({ roomId, body: toTimeSlotInput(values) }).unwrap())
        .createdTimeSlots;
    } catch {
      return; // shown by the error box
    }
    dispatch(
      notify({
        title: t('add.created', { count: created }),
        type: created > 0 ? 'success' : 'warning',
      }),
    );
    await navigate(calendarPathAt(roomId, values.startDate));
  };

  const field = (name: Exclude<AddField, 'daysOfWeek'>) => ({
    id: idOf(name),
    value: values[name],
    error: form.messageOf(name),
    onChange: (event: { target: { value: string } }) => change(name, event.target.value),
  });

  const daysError = form.messageOf('daysOfWeek');

  return (
    <StaffForm refusal={refusal} onSubmit={submit}>
      <div className="field-row">
        <InputField {...field('startTime')} type="time" label={t('form.start-time')} required />
        <InputField {...field('endTime')} type="time" label={t('form.end-time')} required />
      </div>
      <div className="field-row">
        <InputField {...field('startDate')} type="date" label={t('form.start-date')} required />
        <InputField
          {...field('repeatUntil')}
          type="date"
          min={values.startDate || undefined}
          label={t('add.repeat-until')}
          hint={t('add.repeat-until-hint')}
        />
      </div>
      {repeating ? (
        <>
          <CheckboxGroupField
            legend={t('add.weekdays')}
            required
            hint={t('add.repeat-hint', {
              from: formatDate(values.startDate),
              until: formatDate(values.repeatUntil),
            })}
            options={WEEKDAYS.map((day, index) => ({
              value: day,
              id: dayId(day),
              label: dayNames[index] ?? day,
            }))}
            chosen={values.daysOfWeek}
            onChange={changeDays}
            error={daysError}
            errorId={DAYS_ERROR_ID}
          />
          <CheckboxField
            id="slot-add-include-holidays"
            label={t('add.include-holidays')}
            checked={values.includeHolidays}
            onChange={(event) =>
              setValues((current) => ({ ...current, includeHolidays: event.target.checked }))
            }
          />
        </>
      ) : (
        <p className="notice">
          {t('add.one-off', {
            date: formatDate(values.startDate) || t('add.one-off-no-date'),
          })}
        </p>
      )}
      <SlotCapacityField {...field('capacity')} required />
      <FormActions
        submitLabel={t('add.submit')}
        busy={isLoading}
        cancelTo={calendarPath(roomId)}
        cancelLabel={t('form.cancel')}
      />
    </StaffForm>
  );
}
