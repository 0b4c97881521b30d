import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AdminTimeSlot } from '../../../api/types';
import { inputBounds } from '@rr/contracts/bounds';
import { TimeSlotUpdateInput } from '@rr/contracts/timeslots';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField, RefusalScope, RequiredHint } from '../../../components/form-field';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useUpdateTimeSlotMutation } from '../api/admin-time-slots-api';
import {
  checkEditForm,
  EDIT_FIELDS,
  slotToEditValues,
  type EditField,
  type EditFormValues,
} from '../utils/time-slot-form';

/** The capacity input states the contract's limits. */
const CAPACITY_BOUNDS = inputBounds(TimeSlotUpdateInput.shape.capacity);
const idOf = (field: EditField) => `slot-edit-${field}`;

/**
 * The edit form's state, kept by the slot's page so a detour to the delete confirmation keeps
 * what was typed: saved, it goes back to the calendar at the slot's date.
 */
export function useSlotEdit(slot: AdminTimeSlot, backTo: string) {
  const { t } = useTranslation('admin-time-slots');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [values, setValues] = useState<EditFormValues>(() => slotToEditValues(slot));
  const [updateSlot, update] = useUpdateTimeSlotMutation();
  const form = useValidatedForm(checkEditForm, EDIT_FIELDS, idOf);
  const refusal = useRefusal(update.error, { startTime: idOf('startTime') });
  const key = { roomId: slot.roomId, timeSlotId: slot.id };

  const change = (field: EditField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
    if (!body) return;
    try {
      await updateSlot({ ...key, body }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('edit.saved', { date: formatDate(slot.date) }) }));
    await navigate(backTo);
  };

  return { values, change, save, update, form, refusal };
}

/** The slot's times and capacity. */
export function SlotEditForm({
  edit: { values, change, save, update, form, refusal },
  backTo,
}: {
  edit: ReturnType<typeof useSlotEdit>;
  backTo: string;
}) {
  const { t } = useTranslation('admin-time-slots');
  return (
    <RefusalScope refusal={refusal}>
      <form className="form" noValidate onSubmit={save}>
        <RequiredHint />
        <ErrorBox refusal={refusal} />
        <div className="field-row">
          <InputField
            id={idOf('startTime')}
            type="time"
            label={t('form.start-time')}
            required
            value={values.startTime}
            error={form.messageOf('startTime')}
            onChange={(event) => change('startTime', event.target.value)}
          />
          <InputField
            id={idOf('endTime')}
            type="time"
            label={t('form.end-time')}
            required
            value={values.endTime}
            error={form.messageOf('endTime')}
            onChange={(event) => change('endTime', event.target.value)}
          />
        </div>
        <InputField
          id={idOf('capacity')}
          type="number"
          inputMode="numeric"
          step={1}
          {...CAPACITY_BOUNDS}
          label={t('form.capacity')}
          required
          value={values.capacity}
          error={form.messageOf('capacity')}
          onChange={(event) => change('capacity', event.target.value)}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={update.isLoading}>
            {t('edit.submit')}
          </button>
          <Link className="button button--secondary" to={backTo}>
            {t('form.cancel')}
          </Link>
        </div>
      </form>
    </RefusalScope>
  );
}
