import { Link, useParams } from 'react-router';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { useGetHistoryTimeSlotQuery, useGetTimeSlotHistoryQuery } from '../api/admin-history-api';
import { HistoryTable } from './history-table';

const enc = encodeURIComponent;

/**
 * Route `/room/:roomId/time-slot-edit/:timeSlotId/history`: the audit history of a slot (created,
 * changed, capacity, tickets held, booked, released, cancelled).
 */
export function TimeSlotHistory() {
  const { t } = useTranslation('admin-history');
  const { roomId = '', timeSlotId = '' } = useParams();
  const key = { roomId, timeSlotId };
  // A deleted slot has no details any more, but still a history.
  const slot = useGetHistoryTimeSlotQuery(key);
  const history = useGetTimeSlotHistoryQuery(key);
  const back = `/room/${enc(roomId)}/time-slot-edit/${enc(timeSlotId)}`;

  return (
    <Page title={t('slot.title')}>
      {slot.data ? (
        <p className="page-subtitle">
          {t('slot.subtitle', {
            room: slot.data.roomName,
            date: formatDate(slot.data.date),
            range: formatTimeRange(slot.data.startTime, slot.data.endTime),
          })}
        </p>
      ) : null}
      {slot.error ? null : (
        <p>
          <Link to={back}>{t('slot.back')}</Link>
        </p>
      )}
      <LoadingContainer
        data={history.data}
        error={history.error}
        backLink={{ to: '/rooms', label: t('back-to-rooms') }}
      >
        {(entries) => <HistoryTable entries={entries} caption={t('slot.caption')} />}
      </LoadingContainer>
    </Page>
  );
}
