import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { BlacklistEntry } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmedButton } from '../../../components/confirmed-button';
import { useRefusal } from '../../../hooks/use-refusal';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { StaffForm } from '../../../components/staff-form';
import { useFormValues } from '../../../hooks/use-form-values';
import { useTranslation } from '../../../i18n/i18n-context';
import { addDaysIso, todayIso } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useDeleteBlacklistEntryMutation,
  useGetBlacklistEntryQuery,
  useUpdateBlacklistEntryMutation,
} from '../api/admin-blacklist-api';
import { checkEditForm, EDIT_FIELDS, entryToEditValues, type EditField } from '../utils/blacklist';
import { BlacklistFields } from './blacklist-fields';

const idOf = (field: EditField) => `blacklist-${field}`;

/**
 * Route `/blacklist-edit/:email`: change the expiry and note of an entry, or remove it. With
 * `fromSearch=y` leaving goes back in history (to the search result), else to the list.
 */
export function BlacklistEdit() {
  const { t } = useTranslation('admin-blacklist');
  const { email = '' } = useParams();
  const { data, error } = useGetBlacklistEntryQuery(email);

  return (
    <Page title={t('edit.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/blacklist', label: t('back-to-list') }}
      >
        {(entry) => <BlacklistEditForm key={entry.version} entry={entry} />}
      </LoadingContainer>
    </Page>
  );
}

function useLeave(): () => Promise<void> {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const fromSearch = searchParams.get('fromSearch') === 'y';
  return async () => {
    // `default`: the page was opened directly, there is no history entry of the app to go to.
    if (fromSearch && location.key !== 'default') await navigate(-1);
    else await navigate('/blacklist');
  };
}

function BlacklistEditForm({ entry }: { entry: BlacklistEntry }) {
  const { t } = useTranslation('admin-blacklist');
  const dispatch = useAppDispatch();
  const leave = useLeave();
  const [today] = useState(() => todayIso());
  const [check] = useState(() => checkEditForm(today));
  const { field, validate } = useFormValues(check, EDIT_FIELDS, idOf, () =>
    entryToEditValues(entry),
  );
  const [updateEntry, update] = useUpdateBlacklistEntryMutation();
  const [deleteEntry, removal] = useDeleteBlacklistEntryMutation();
  const refusal = useRefusal(update.error);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = validate();
    if (!body) return;
    try {
      await updateEntry({ email: entry.email, body }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('edit.saved', { email: entry.email }) }));
    await leave();
  };

  const confirmDelete = async () => {
    try {
      await deleteEntry(entry.email).unwrap();
    } catch {
      return false; // shown in the dialog
    }
    dispatch(notify({ title: t('edit.deleted', { email: entry.email }) }));
    await leave();
    return true;
  };

  return (
    <>
      <h2 className="entry-heading">{entry.email}</h2>
      <StaffForm refusal={refusal} onSubmit={submit}>
        <BlacklistFields field={field} minDate={addDaysIso(today, 1)} />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={update.isLoading}>
            {t('edit.submit')}
          </button>
          <ConfirmedButton
            title={t('edit.delete-title')}
            question={<p>{t('edit.delete-question', { email: entry.email })}</p>}
            confirmLabel={t('edit.delete-confirm')}
            cancelLabel={t('form.cancel')}
            mutation={removal}
            onConfirm={confirmDelete}
          >
            {t('edit.delete')}
          </ConfirmedButton>
          <button type="button" className="button button--secondary" onClick={() => void leave()}>
            {t('form.cancel')}
          </button>
        </div>
      </StaffForm>
    </>
  );
}
