import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { AdminTimeSlot } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField } from '../../../components/form-field';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useFormValues } from '../../../hooks/use-form-values';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useUpdateTimeSlotMutation } from '../api/admin-time-slots-api';
import {
  checkEditForm,
  EDIT_FIELDS,
  slotToEditValues,
  type EditField,
} from '../utils/time-slot-form';
import { SlotCapacityField } from './slot-capacity-field';

const idOf = (field: EditField) => `slot-edit-${field}`;

/**
 * The edit form's state, kept by the slot's page so a detour to the delete confirmation keeps
 * what was typed: saved, it goes back to the calendar at the slot's date.
 */
export function useSlotEdit(slot: AdminTimeSlot, backTo: string) {
  const { t } = useTranslation('admin-time-slots');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { field, validate } = useFormValues(checkEditForm, EDIT_FIELDS, idOf, () =>
    slotToEditValues(slot),
  );
  const [updateSlot, update] = useUpdateTimeSlotMutation();
  const refusal = useRefusal(update.error, { startTime: idOf('startTime') });
  const key = { roomId: slot.roomId, timeSlotId: slot.id };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = validate();
    if (!body) return;
    try {
      await updateSlot({ ...key, body }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('edit.saved', { date: formatDate(slot.date) }) }));
    await navigate(backTo);
  };

  return { field, save, update, refusal };
}

/** The slot's times and capacity. */
export function SlotEditForm({
  edit: { field, save, update, refusal },
  backTo,
}: {
  edit: ReturnType<typeof useSlotEdit>;
  backTo: string;
}) {
  const { t } = useTranslation('admin-time-slots');
  return (
    <StaffForm refusal={refusal} onSubmit={save}>
      <div className="field-row">
        <InputField {...field('startTime')} type="time" label={t('form.start-time')} required />
        <InputField {...field('endTime')} type="time" label={t('form.end-time')} required />
      </div>
      <SlotCapacityField {...field('capacity')} required />
      <FormActions
        submitLabel={t('edit.submit')}
        busy={update.isLoading}
        cancelTo={backTo}
        cancelLabel={t('form.cancel')}
      />
    </StaffForm>
  );
}
