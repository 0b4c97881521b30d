import { Link, useParams } from 'react-router';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { useGetHistoryTicketQuery, useGetTicketHistoryQuery } from '../api/admin-history-api';
import { HistoryTable } from './history-table';

const enc = encodeURIComponent;

/** Route `/reservations/:id/history`: the audit history of a ticket. */
export function TicketHistory() {
  const { t } = useTranslation('admin-history');
  const { id = '' } = useParams();
  const ticket = useGetHistoryTicketQuery(id);
  const history = useGetTicketHistoryQuery(id);
  const back = `/reservations/${enc(id)}`;
  const owner = ticket.data
    ? [ticket.data.lastName, ticket.data.firstName].filter(Boolean).join(', ')
    : '';

  return (
    <Page title={t('ticket.title')}>
      {ticket.data ? (
        <p className="page-subtitle">
          {t('ticket.subtitle', {
            room: ticket.data.roomName,
            date: formatDate(ticket.data.date),
            range: formatTimeRange(ticket.data.startTime, ticket.data.endTime),
          })}
          {owner ? ` – ${owner}` : ''}
        </p>
      ) : null}
      <p>
        <Link to={back}>{t('ticket.back')}</Link>
      </p>
      <LoadingContainer
        data={history.data}
        error={history.error}
        backLink={{ to: '/reservations', label: t('back-to-reservations') }}
      >
        {(entries) => <HistoryTable entries={entries} caption={t('ticket.caption')} />}
      </LoadingContainer>
    </Page>
  );
}
