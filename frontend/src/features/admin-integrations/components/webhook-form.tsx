import { CheckboxGroupField } from '../../../components/checkbox-group';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmedButton } from '../../../components/confirmed-button';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import {
  CheckboxField,
  InputField,
  RefusalScope,
  RequiredHint,
} from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TextAreaField } from '../../../components/text-area-field';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useGetWebhookQuery,
  useUpdateWebhookMutation,
} from '../api/admin-integrations-api';
import {
  checkWebhookAddForm,
  checkWebhookEditForm,
  disabledKey,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FIELDS,
  webhookFormDefaults,
  webhookToValues,
  type WebhookField,
  type WebhookFormValues,
} from '../utils/integrations';
import { SecretOnce } from './secret-once';
import { SiteScopeField } from './site-scope';

const idOf = (field: WebhookField) =>
  field === 'eventTypes'
    ? `webhook-event-${WEBHOOK_EVENT_TYPES[0]}`
    : field === 'siteIds'
      ? 'webhook-sites-sites'
      : `webhook-${field}`;
const EVENTS_ERROR_ID = 'webhook-events-error';

interface FieldsProps {
  values: WebhookFormValues;
  errorOf: (field: WebhookField) => string | undefined;
  onChange: (next: WebhookFormValues) => void;
}

/** URL, event types, sites and note, shared by the add and edit forms. */
function WebhookFields({ values, errorOf, onChange }: FieldsProps) {
  const { t } = useTranslation('admin-integrations');
  const eventsError = errorOf('eventTypes');
  return (
    <>
      <InputField
        id={idOf('url')}
        type="url"
        label={t('webhooks.url')}
        hint={t('webhooks.url-hint')}
        required
        maxLength={2000}
        autoComplete="off"
        value={values.url}
        error={errorOf('url')}
        onChange={(event) => onChange({ ...values, url: event.target.value })}
      />
      <CheckboxGroupField
        legend={t('webhooks.events')}
        required
        options={WEBHOOK_EVENT_TYPES.map((type) => ({
          value: type,
          id: `webhook-event-${type}`,
          label: `${t(`events.${type}`)} (${type})`,
        }))}
        chosen={values.eventTypes}
        onChange={(eventTypes) => onChange({ ...values, eventTypes })}
        error={eventsError}
        errorId={EVENTS_ERROR_ID}
      />
      <SiteScopeField
        id="webhook-sites"
        legend={t('webhooks.sites')}
        sitesLabel={t('webhooks.sites-select')}
        by="id"
        value={values.siteIds}
        onChange={(siteIds) => onChange({ ...values, siteIds })}
        error={errorOf('siteIds')}
      />
      <TextAreaField
        id={idOf('description')}
        label={t('webhooks.description')}
        hint={t('webhooks.description-hint')}
        rows={2}
        maxLength={200}
        value={values.description}
        error={errorOf('description')}
        onChange={(event) => onChange({ ...values, description: event.target.value })}
      />
    </>
  );
}

/** Route `/webhook-add`: the signing secret is shown once, on this page, after saving. */
export function WebhookAdd() {
  const { t } = useTranslation('admin-integrations');
  const [values, setValues] = useState<WebhookFormValues>(webhookFormDefaults);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [create, { isLoading, error }] = useCreateWebhookMutation();
  const form = useValidatedForm(checkWebhookAddForm, WEBHOOK_FIELDS, idOf);
  const refusal = useRefusal(error, { url: idOf('url') });

  const change = (next: WebhookFormValues) => {
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
    if (!body) return;
    try {
      setCreated(await create(body).unwrap());
    } catch {
      return; // shown by the error box
    }
  };

  if (created) {
    return (
      <Page title={t('webhooks.add-title')}>
        <SecretOnce
          id="webhook-secret"
          label={t('webhooks.created', { url: created.url })}
          secret={created.secret}
        />
        <p>
          <Link to="/integrations">{t('back-to-list')}</Link>
        </p>
      </Page>
    );
  }
  return (
    <Page title={t('webhooks.add-title')}>
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={submit}>
          <RequiredHint />
          <ErrorBox refusal={refusal} />
          <WebhookFields values={values} errorOf={form.messageOf} onChange={change} />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={isLoading}>
              {t('webhooks.add-submit')}
            </button>
            <Link className="button button--secondary" to="/integrations">
              {t('cancel')}
            </Link>
          </div>
        </form>
      </RefusalScope>
    </Page>
  );
}

/** Route `/webhook-edit/:id`: change, switch on or off, delete; why it is disabled. */
export function WebhookEdit() {
  const { t } = useTranslation('admin-integrations');
  const { id = '' } = useParams();
  const { data, error } = useGetWebhookQuery(id);
  return (
    <Page title={t('webhooks.edit-title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/integrations', label: t('back-to-list') }}
      >
        {(endpoint) => <WebhookEditForm key={endpoint.updatedAt} endpoint={endpoint} />}
      </LoadingContainer>
    </Page>
  );
}

/** Why an endpoint gets nothing, when it is disabled. */
export function DisabledNotice({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('admin-integrations');
  const key = disabledKey(endpoint);
  if (!key) return null;
  return (
    <p className="notice">
      {t(key, {
        at: endpoint.disabledAt ? formatDateTime(new Date(endpoint.disabledAt)) : '–',
        detail: endpoint.disabledDetail ?? '–',
      })}
    </p>
  );
}

function WebhookEditForm({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('admin-integrations');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [values, setValues] = useState<WebhookFormValues>(() => webhookToValues(endpoint));
  const [update, updating] = useUpdateWebhookMutation();
  const [remove, removal] = useDeleteWebhookMutation();
  const form = useValidatedForm(checkWebhookEditForm, WEBHOOK_FIELDS, idOf);
  const refusal = useRefusal(updating.error, { url: idOf('url') });

  const change = (next: WebhookFormValues) => {
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
    if (!body) return;
    try {
      await update({ id: endpoint.id, body }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('webhooks.saved', { url: body.url }) }));
    await navigate('/integrations');
  };

  const confirmDelete = async () => {
    try {
      await remove(endpoint.id).unwrap();
    } catch {
      return false; // shown in the dialog
    }
    dispatch(notify({ title: t('webhooks.deleted', { url: endpoint.url }) }));
    await navigate('/integrations');
    return true;
  };

  return (
    <>
      <DisabledNotice endpoint={endpoint} />
      <p>
        <Link to={`/webhook-deliveries/${endpoint.id}`}>{t('webhooks.deliveries')}</Link>
      </p>
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={submit}>
          <RequiredHint />
          <ErrorBox refusal={refusal} />
          <WebhookFields values={values} errorOf={form.messageOf} onChange={change} />
          <CheckboxField
            id="webhook-enabled"
            label={t('webhooks.enabled-field')}
            hint={t('webhooks.enabled-hint')}
            checked={values.enabled}
            onChange={(event) => change({ ...values, enabled: event.target.checked })}
          />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={updating.isLoading}>
              {t('webhooks.save')}
            </button>
            <ConfirmedButton
              title={t('webhooks.delete-title')}
              question={<p>{t('webhooks.delete-question', { url: endpoint.url })}</p>}
              confirmLabel={t('webhooks.delete-confirm')}
              cancelLabel={t('cancel')}
              mutation={removal}
              onConfirm={confirmDelete}
            >
              {t('webhooks.delete')}
            </ConfirmedButton>
            <Link className="button button--secondary" to="/integrations">
              {t('cancel')}
            </Link>
          </div>
        </form>
      </RefusalScope>
    </>
  );
}
