import { CheckboxGroupField } from '../../../components/checkbox-group';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { ApiToken, CreatedApiToken, WebhookEndpoint } from '../../../api/types';
import { ConfirmedButton } from '../../../components/confirmed-button';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import { InputField, RefusalScope } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime, todayIso } from '../../../lib/dates';
import {
  useCreateApiTokenMutation,
  useGetApiTokensQuery,
  useGetWebhooksQuery,
  useRevokeApiTokenMutation,
} from '../api/admin-integrations-api';
import {
  API_TOKEN_ROLES,
  checkTokenForm,
  disabledKey,
  sitesFieldOf,
  TOKEN_FIELDS,
  tokenFormDefaults,
  type TokenField,
  type TokenFormValues,
} from '../utils/integrations';
import { SecretOnce } from './secret-once';
import { SiteScopeField, useIntegrationSites } from './site-scope';
import { roleGrantLabel } from '../../../lib/role-grants';

const tokenIdOf = (field: TokenField) =>
  field === 'roles'
    ? `token-role-${API_TOKEN_ROLES[0]}`
    : field.startsWith('sites-')
      ? `token-${field}-sites`
      : `token-${field}`;
const ROLES_ERROR_ID = 'token-roles-error';
const when = (instant: string | null) => (instant ? formatDateTime(new Date(instant)) : '–');

/** Route `/integrations`: API tokens (create, list, revoke) and the webhook endpoints. */
export function IntegrationsPage() {
  const { t } = useTranslation('admin-integrations');
  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <ApiTokens />
      <Webhooks />
    </Page>
  );
}

function ApiTokens() {
  const { t } = useTranslation('admin-integrations');
  const { data, error } = useGetApiTokensQuery();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [revoke, revocation] = useRevokeApiTokenMutation();

  const confirmRevoke = async (token: ApiToken) => {
    try {
      await revoke(token.id).unwrap();
    } catch {
      return false; // shown in the dialog
    }
    return true;
  };

  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">{t('tokens.title')}</h2>
      <p>{t('tokens.intro')}</p>
      {created ? (
        <SecretOnce
          id="token-secret"
          label={t('tokens.created', { name: created.name })}
          secret={created.secret}
        />
      ) : null}
      <TokenForm onCreated={setCreated} />
      <h3>{t('tokens.list')}</h3>
      <LoadingContainer data={data} error={error}>
        {(tokens) =>
          tokens.length === 0 ? (
            <EmptyState>{t('tokens.none')}</EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="data-table">
                <caption className="visually-hidden">{t('tokens.list')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('tokens.column.name')}</th>
                    <th scope="col">{t('tokens.column.roles')}</th>
                    <th scope="col">{t('tokens.column.created')}</th>
                    <th scope="col">{t('tokens.column.expires')}</th>
                    <th scope="col">{t('tokens.column.last-used')}</th>
                    <th scope="col">{t('tokens.column.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {tokens.map((token) => (
                    <tr key={token.id}>
                      <td className="data-table__break">{token.name}</td>
                      <td>
                        {token.roles
                          .map((g) => roleGrantLabel(g, (r) => t(`roles.${r}`)))
                          .join(', ')}
                      </td>
                      <td>
                        {when(token.createdAt)} ({token.createdBy})
                      </td>
                      <td className="data-table__nowrap">{when(token.expiresAt)}</td>
                      <td className="data-table__nowrap">{when(token.lastUsedAt)}</td>
                      <td>
                        <ConfirmedButton
                          className="button button--danger button--small"
                          title={t('tokens.revoke-title')}
                          question={<p>{t('tokens.revoke-question', { name: token.name })}</p>}
                          confirmLabel={t('tokens.revoke-confirm')}
                          cancelLabel={t('cancel')}
                          mutation={revocation}
                          onConfirm={() => confirmRevoke(token)}
                        >
                          {t('tokens.revoke')}
                          <span className="visually-hidden"> {token.name}</span>
                        </ConfirmedButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadingContainer>
    </section>
  );
}

function TokenForm({ onCreated }: { onCreated: (token: CreatedApiToken) => void }) {
  const { t } = useTranslation('admin-integrations');
  const [check] = useState(() => checkTokenForm(() => new Date()));
  const [today] = useState(() => todayIso());
  const [values, setValues] = useState<TokenFormValues>(tokenFormDefaults);
  const [create, { isLoading, error }] = useCreateApiTokenMutation();
  const form = useValidatedForm(check, TOKEN_FIELDS, tokenIdOf);
  const refusal = useRefusal(error, { name: tokenIdOf('name') });
  const rolesError = form.messageOf('roles');

  const change = (next: TokenFormValues) => {
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
    if (!body) return;
    try {
      onCreated(await create(body).unwrap());
    } catch {
      return; // shown by the error box
    }
    setValues(tokenFormDefaults());
  };

  return (
    <RefusalScope refusal={refusal}>
      <form className="form" noValidate onSubmit={submit} aria-labelledby="token-form-heading">
        <h3 id="token-form-heading">{t('tokens.create')}</h3>
        <ErrorBox refusal={refusal} />
        <InputField
          id={tokenIdOf('name')}
          label={t('tokens.name')}
          required
          maxLength={100}
          autoComplete="off"
          value={values.name}
          error={form.messageOf('name')}
          onChange={(event) => change({ ...values, name: event.target.value })}
        />
        <CheckboxGroupField
          legend={t('tokens.roles')}
          required
          options={API_TOKEN_ROLES.map((role) => ({
            value: role,
            id: `token-role-${role}`,
            label: t(`roles.${role}`),
          }))}
          chosen={values.roles}
          onChange={(roles) => change({ ...values, roles })}
          error={rolesError}
          errorId={ROLES_ERROR_ID}
        />
        {values.roles.map((role) => (
          <SiteScopeField
            key={role}
            id={`token-sites-${role}`}
            legend={t('scope.role', { role: t(`roles.${role}`) })}
            sitesLabel={t('scope.sites', { role: t(`roles.${role}`) })}
            by="slug"
            value={values.sites[role] ?? null}
            onChange={(scope) => change({ ...values, sites: { ...values.sites, [role]: scope } })}
            error={form.messageOf(sitesFieldOf(role))}
          />
        ))}
        <InputField
          id={tokenIdOf('expiresAt')}
          type="date"
          label={t('tokens.expires')}
          hint={t('tokens.expires-hint')}
          min={today}
          value={values.expiresOn}
          error={form.messageOf('expiresAt')}
          onChange={(event) => change({ ...values, expiresOn: event.target.value })}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {t('tokens.submit')}
          </button>
        </div>
      </form>
    </RefusalScope>
  );
}

function Webhooks() {
  const { t } = useTranslation('admin-integrations');
  const { data, error } = useGetWebhooksQuery();
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">{t('webhooks.title')}</h2>
      <p>{t('webhooks.intro')}</p>
      <p>
        <Link className="button button--primary" to="/webhook-add">
          {t('webhooks.add')}
        </Link>
      </p>
      <LoadingContainer data={data} error={error}>
        {(endpoints) =>
          endpoints.length === 0 ? (
            <EmptyState>{t('webhooks.none')}</EmptyState>
          ) : (
            <WebhookTable endpoints={endpoints} />
          )
        }
      </LoadingContainer>
    </section>
  );
}

function WebhookTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  const { t } = useTranslation('admin-integrations');
  const textIn = useTextIn();
  const { sites, several } = useIntegrationSites();
  const siteColumn = several || endpoints.some((endpoint) => endpoint.siteIds.length > 0);
  const sitesOf = (endpoint: WebhookEndpoint) =>
    endpoint.siteIds.length
      ? endpoint.siteIds
          .map((id) => {
            const site = sites.find((s) => s.id === id);
            return site ? textIn(site.name, site.nameEn) : id;
          })
          .join(', ')
      : t('scope.all');
  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">{t('webhooks.list')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('webhooks.column.url')}</th>
            <th scope="col">{t('webhooks.column.events')}</th>
            {siteColumn ? <th scope="col">{t('webhooks.column.sites')}</th> : null}
            <th scope="col">{t('webhooks.column.state')}</th>
            <th scope="col">{t('webhooks.column.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => {
            const disabled = disabledKey(endpoint);
            return (
              <tr key={endpoint.id}>
                <td className="data-table__break">
                  {endpoint.url}
                  {endpoint.description ? <br /> : null}
                  {endpoint.description}
                </td>
                <td>{endpoint.eventTypes.join(', ')}</td>
                {siteColumn ? <td>{sitesOf(endpoint)}</td> : null}
                <td>
                  {disabled
                    ? t(disabled, {
                        at: when(endpoint.disabledAt),
                        detail: endpoint.disabledDetail ?? '–',
                      })
                    : t('webhooks.enabled')}
                </td>
                <td>
                  <Link to={`/webhook-edit/${endpoint.id}`}>
                    {t('webhooks.edit')}
                    <span className="visually-hidden"> {endpoint.url}</span>
                  </Link>
                  <br />
                  <Link to={`/webhook-deliveries/${endpoint.id}`}>
                    {t('webhooks.deliveries')}
                    <span className="visually-hidden"> {endpoint.url}</span>
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
