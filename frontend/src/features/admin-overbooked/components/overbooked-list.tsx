import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange, todayIso } from '../../../lib/dates';
import { useGetOverbookedSlotsQuery } from '../api/admin-overbooked-api';

const enc = encodeURIComponent;
const editPath = (roomId: string, timeSlotId: string) =>
  `/room/${enc(roomId)}/time-slot-edit/${enc(timeSlotId)}`;

/** Route `/overbooked`: slots from today on with more tickets than capacity. */
export function OverbookedList() {
  const { t } = useTranslation('admin-overbooked');
  const [today] = useState(() => todayIso());
  const { data, error } = useGetOverbookedSlotsQuery(today);

  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/', label: t('back-to-dashboard') }}
      >
        {({ content }) =>
          content.length === 0 ? (
            <EmptyState>{t('empty.no-overbooked', { ns: 'common' })}</EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="data-table">
                <caption className="visually-hidden">{t('caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('column.slot')}</th>
                    <th scope="col">{t('column.room')}</th>
                    <th scope="col" className="data-table__number">
                      {t('column.tickets')}
                    </th>
                    <th scope="col" className="data-table__number">
                      {t('column.capacity')}
                    </th>
                    <th scope="col">{t('column.action')}</th>
                  </tr>
                </thead>
                <tbody>
                  {content.map((slot) => {
                    const when = `${formatDate(slot.date)} ${formatTimeRange(slot.startTime, slot.endTime)}`;
                    return (
                      <tr key={slot.id}>
                        <td className="data-table__nowrap">{when}</td>
                        <td>{slot.roomName}</td>
                        <td className="data-table__number">{slot.ticketCount}</td>
                        <td className="data-table__number">{slot.capacity}</td>
                        <td>
                          <Link
                            className="button button--secondary button--small"
                            to={editPath(slot.roomId, slot.id)}
                          >
                            {t('edit')}
                            <span className="visually-hidden">
                              {' '}
                              {t('edit-slot', { room: slot.roomName, slot: when })}
                            </span>
                          </Link>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadingContainer>
    </Page>
  );
}
