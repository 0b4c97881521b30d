import { useAppDispatch } from '../../../app/hooks';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime } from '../../../lib/dates';
import { roleGrantLabel } from '../../../lib/role-grants';
import { notify } from '../../../stores/notifications-slice';
import { useEndStaffSessionsMutation, useGetStaffAccountsQuery } from '../api/staff-accounts-api';
import { SignIns } from './sign-ins';

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
                      {a.grants.length
                        ? a.grants.map((g) => roleGrantLabel(g, (r) => t(`role.${r}`))).join(', ')
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
      <SignIns />
    </Page>
  );
}
