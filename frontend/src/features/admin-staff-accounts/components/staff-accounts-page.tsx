import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useEndStaffSessionsMutation,
  useGetStaffAccountsQuery,
  useGetStaffSignInsQuery,
} from '../api/staff-accounts-api';

/**
 * Route `/staff-accounts` (admins): the staff accounts with how each signs in (its own
 * password, or the campus identity: LDAP, OpenID Connect, SAML), its roles and last sign-in, a
 * button that ends an account's sessions, and the latest sign-ins and refused sign-ins. A refused
 * sign-in of a name no account has shows no name (the record keeps only its key): staff type a
 * name to find the records of it.
 */
export function StaffAccountsPage() {
  const { t } = useTranslation('admin-staff-accounts');
  const dispatch = useAppDispatch();
  const accounts = useGetStaffAccountsQuery();
  const [name, setName] = useState('');
  const [typed, setTyped] = useState('');
  const signIns = useGetStaffSignInsQuery(name || undefined);
  const [endSessions, { isLoading: ending }] = useEndStaffSessionsMutation();

  const end = async (account: string) => {
    try {
      await endSessions(account).unwrap();
      dispatch(notify({ title: t('sessions-ended', { account }) }));
    } catch {
      dispatch(notify({ title: t('end-sessions-failed'), type: 'error' }));
    }
  };

  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <LoadingContainer
        data={accounts.data}
        error={accounts.error}
        backLink={{ to: '/', label: t('back-to-dashboard', { ns: 'admin-rooms' }) }}
      >
        {(items) => (
          <TableRegion label={t('accounts-caption')}>
            <table className="data-table">
              <caption className="visually-hidden">{t('accounts-caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('column.account')}</th>
                  <th scope="col">{t('column.source')}</th>
                  <th scope="col">{t('column.roles')}</th>
                  <th scope="col">{t('column.last-sign-in')}</th>
                  <th scope="col">{t('column.action')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.username}>
                    <td>{a.username}</td>
                    <td>{t(`source.${a.source}`)}</td>
                    <td>
                      {a.roles.length
                        ? a.roles.map((r) => t(`role.${r}`)).join(', ')
                        : t('no-roles')}
                    </td>
                    <td className="data-table__nowrap">
                      {a.lastSignInAt ? formatDateTime(new Date(a.lastSignInAt)) : t('never')}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button--secondary button--small"
                        disabled={ending}
                        onClick={() => void end(a.username)}
                      >
                        {t('end-sessions')}
                        <span className="visually-hidden">
                          {' '}
                          {t('end-sessions-of', { account: a.username })}
                        </span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </LoadingContainer>
      <h2>{t('sign-ins-title')}</h2>
      <form
        className="search-form"
        role="search"
        aria-label={t('sign-ins-search-label')}
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          setName(typed.trim());
        }}
      >
        <div className="field search-form__field">
          <label htmlFor="sign-ins-name" className="field__label">
            {t('sign-ins-search')}
          </label>
          <input
            id="sign-ins-name"
            type="search"
            className="field__control"
            value={typed}
            maxLength={200}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <div className="search-form__actions">
          <button type="submit" className="button button--primary">
            {t('sign-ins-search-submit')}
          </button>
          {name ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setTyped('');
                setName('');
              }}
            >
              {t('sign-ins-search-reset')}
            </button>
          ) : null}
        </div>
      </form>
      <LoadingContainer data={signIns.data} error={signIns.error}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState>{name ? t('sign-ins-none-of', { name }) : t('sign-ins-empty')}</EmptyState>
          ) : (
            <TableRegion label={t('sign-ins-caption')}>
              <table className="data-table">
                <caption className="visually-hidden">{t('sign-ins-caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('column.time')}</th>
                    <th scope="col">{t('column.account')}</th>
                    <th scope="col">{t('column.method')}</th>
                    <th scope="col">{t('column.outcome')}</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((r, i) => (
                    <tr key={`${r.at}-${i}`}>
                      <td className="data-table__nowrap">{formatDateTime(new Date(r.at))}</td>
                      <td>{r.username || (name ? name : t('unknown-account'))}</td>
                      <td>{t(`source.${r.method}`)}</td>
                      <td>
                        {t(`outcome.${r.outcome}`)}
                        {r.reason ? ` (${t(`reason.${r.reason}`)})` : ''}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )
        }
      </LoadingContainer>
    </Page>
  );
}
