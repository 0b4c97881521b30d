import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { inputBounds } from '@rr/contracts/bounds';
import { BlacklistEmail } from '@rr/contracts/blacklist';
import { useAppDispatch } from '../../../app/hooks';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useFormValues } from '../../../hooks/use-form-values';
import { useTranslation } from '../../../i18n/i18n-context';
import { addDaysIso, todayIso } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useAddBlacklistEntryMutation } from '../api/admin-blacklist-api';
import { ADD_FIELDS, addFormDefaults, checkAddForm, type AddField } from '../utils/blacklist';
import { BlacklistFields } from './blacklist-fields';

const idOf = (field: AddField) => `blacklist-${field}`;

/** Route `/blacklist-add`. */
export function BlacklistAdd() {
  const { t } = useTranslation('admin-blacklist');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [today] = useState(() => todayIso());
  const [check] = useState(() => checkAddForm(today));
  const { field, validate } = useFormValues(check, ADD_FIELDS, idOf, () => addFormDefaults(today));
  const [addEntry, { isLoading, error }] = useAddBlacklistEntryMutation();
  const refusal = useRefusal(error, { email: idOf('email') });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = validate();
    if (!body) return;
    try {
      await addEntry(body).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('add.created', { email: body.email }) }));
    await navigate('/blacklist');
  };

  return (
    <Page title={t('add.title')}>
      <StaffForm refusal={refusal} onSubmit={submit}>
        <InputField
          {...field('email')}
          type="email"
          label={t('form.email')}
          required
          autoComplete="off"
          {...inputBounds(BlacklistEmail)}
        />
        <BlacklistFields field={field} minDate={addDaysIso(today, 1)} />
        <FormActions
          submitLabel={t('add.submit')}
          busy={isLoading}
          cancelTo="/blacklist"
          cancelLabel={t('form.cancel')}
        />
      </StaffForm>
    </Page>
  );
}
