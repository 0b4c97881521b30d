import { useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime } from '../../../lib/dates';
import { useGetStaffSignInsQuery } from '../api/staff-accounts-api';

/**
 * The latest sign-ins and refused sign-ins, of everyone or of the name staff typed (a refused
 * sign-in of a name no account has keeps only its key, so it shows that name only when searched).
 */
export function SignIns() {
  const { t } = useTranslation('admin-staff-accounts');
  const [name, setName] = useState('');
  const [typed, setTyped] = useState('');
  const signIns = useGetStaffSignInsQuery(name || undefined);

  return (
    <>
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
    </>
  );
}
