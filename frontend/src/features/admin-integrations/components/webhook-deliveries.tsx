import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime } from '../../../lib/dates';
import { useGetWebhookDeliveriesQuery, useGetWebhookQuery } from '../api/admin-integrations-api';
import { lastAnswer } from '../utils/integrations';
import { DisabledNotice } from './webhook-form';

const when = (instant: string | null) => (instant ? formatDateTime(new Date(instant)) : '–');

/** Route `/webhook-deliveries/:id`: the newest deliveries of an endpoint and how they went. */
export function WebhookDeliveries() {
  const { t } = useTranslation('admin-integrations');
  const { id = '' } = useParams();
  const endpoint = useGetWebhookQuery(id);
  const deliveries = useGetWebhookDeliveriesQuery(id);
  return (
    <Page title={t('deliveries.title')}>
      <LoadingContainer
        data={endpoint.data}
        error={endpoint.error}
        backLink={{ to: '/integrations', label: t('back-to-list') }}
      >
        {(e) => (
          <>
            <p className="data-table__break">
              <strong>{e.url}</strong>
            </p>
            <DisabledNotice endpoint={e} />
          </>
        )}
      </LoadingContainer>
      <p>
        <button
          type="button"
          className="button button--secondary"
          disabled={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          {t('deliveries.reload')}
        </button>{' '}
        <Link to="/integrations">{t('back-to-list')}</Link>
      </p>
      <LoadingContainer data={deliveries.data} error={deliveries.error}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState>{t('deliveries.none')}</EmptyState>
          ) : (
            <div className="table-wrap" aria-busy={deliveries.isFetching || undefined}>
              <table className="data-table">
                <caption className="visually-hidden">{t('deliveries.title')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('deliveries.column.created')}</th>
                    <th scope="col">{t('deliveries.column.type')}</th>
                    <th scope="col">{t('deliveries.column.status')}</th>
                    <th scope="col">{t('deliveries.column.attempts')}</th>
                    <th scope="col">{t('deliveries.column.answer')}</th>
                    <th scope="col">{t('deliveries.column.next')}</th>
                    <th scope="col">{t('deliveries.column.id')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((d) => (
                    <tr key={d.id}>
                      <td className="data-table__nowrap">{when(d.createdAt)}</td>
                      <td>{d.eventType}</td>
                      <td>{t(`deliveries.status.${d.status}`)}</td>
                      <td>{d.attempts}</td>
                      <td className="data-table__break">{lastAnswer(d)}</td>
                      <td className="data-table__nowrap">{when(d.nextAttemptAt)}</td>
                      <td className="data-table__break">
                        <code>{d.id}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadingContainer>
    </Page>
  );
}
