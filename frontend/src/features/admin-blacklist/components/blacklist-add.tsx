import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { inputBounds } from '@rr/contracts/bounds';
import { BlacklistEmail } from '@rr/contracts/blacklist';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField, RefusalScope, RequiredHint } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { addDaysIso, todayIso } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useAddBlacklistEntryMutation } from '../api/admin-blacklist-api';
import {
  ADD_FIELDS,
  addFormDefaults,
  checkAddForm,
  type AddField,
  type AddFormValues,
} from '../utils/blacklist';
import { BlacklistFields } from './blacklist-fields';

const idOf = (field: AddField) => `blacklist-${field}`;

/** Route `/blacklist-add`. */
export function BlacklistAdd() {
  const { t } = useTranslation('admin-blacklist');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [today] = useState(() => todayIso());
  const [check] = useState(() => checkAddForm(today));
  const [values, setValues] = useState<AddFormValues>(() => addFormDefaults(today));
  const [addEntry, { isLoading, error }] = useAddBlacklistEntryMutation();
  const form = useValidatedForm(check, ADD_FIELDS, idOf);
  const refusal = useRefusal(error, { email: idOf('email') });

  const change = (field: AddField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
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
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={submit}>
          <RequiredHint />
          <ErrorBox refusal={refusal} />
          <InputField
            id={idOf('email')}
            type="email"
            label={t('form.email')}
            required
            autoComplete="off"
            {...inputBounds(BlacklistEmail)}
            value={values.email}
            error={form.messageOf('email')}
            onChange={(event) => change('email', event.target.value)}
          />
          <BlacklistFields
            idOf={idOf}
            values={values}
            errorOf={form.messageOf}
            onChange={change}
            minDate={addDaysIso(today, 1)}
          />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={isLoading}>
              {t('add.submit')}
            </button>
            <Link className="button button--secondary" to="/blacklist">
              {t('form.cancel')}
            </Link>
          </div>
        </form>
      </RefusalScope>
    </Page>
  );
}
