import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { TimeSlot } from '../../../api/types';
import { MonthCalendar, type DayMark } from '../../../components/calendar/month-calendar';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { isOverbooked } from '../../../lib/staff-calendar';
import {
  currentYearMonth,
  monthRange,
  parseYearMonth,
  type YearMonth,
} from '../../../lib/calendar';
import { formatTimeRange } from '../../../lib/dates';
import { useGetRoomTimeSlotsQuery, useGetTimeSlotRoomQuery } from '../api/admin-time-slots-api';
import { addPath, capacityPath, editPath } from '../utils/paths';

/**
 * Route `/room/:id/time-slots`: the month calendar of a room's slots. The month lives in the
 * query parameters `year` and `month`, so reload and back restore it.
 */
export function TimeSlotCalendar() {
  const { t } = useTranslation('admin-time-slots');
  // Administrators see a '!' on days where a slot has more tickets than seats.
  const overbookedMark: DayMark = {
    symbol: '!',
    label: t('calendar.status.overbooked', { ns: 'common' }),
    className: 'calendar__overbooked',
  };
  const { id = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  // The library's month, not the device's (docs/product.md#configuration).
  const [currentMonth] = useState(() => currentYearMonth());
  const month = parseYearMonth(
    { year: searchParams.get('year'), month: searchParams.get('month') },
    currentMonth,
  );
  const room = useGetTimeSlotRoomQuery(id);
  const slots = useGetRoomTimeSlotsQuery({ roomId: id, ...monthRange(month) });

  const showMonth = ({ year, month: next }: YearMonth) => {
    setSearchParams({ year: String(year), month: String(next) });
  };

  const renderSlotAction = (slot: TimeSlot) => (
    <Link className="button button--secondary" to={editPath(id, slot.id)}>
      {t('calendar.edit')}
      <span className="visually-hidden"> {formatTimeRange(slot.startTime, slot.endTime)}</span>
    </Link>
  );

  const title = room.data
    ? t('calendar.title-room', { name: room.data.name })
    : t('calendar.title');

  return (
    <Page title={title}>
      <ul className="link-row">
        <li>
          <Link to="/rooms">{t('back-to-rooms')}</Link>
        </li>
        <li>
          <Link to={addPath(id)}>{t('calendar.add')}</Link>
        </li>
        <li>
          <Link to={capacityPath(id, month)}>{t('calendar.capacity')}</Link>
        </li>
      </ul>
      {room.error ? (
        <ErrorBox error={room.error} extra={<Link to="/rooms">{t('back-to-rooms')}</Link>} />
      ) : (
        <>
          {slots.error ? (
            <ErrorBox
              error={slots.error}
              extra={
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => void slots.refetch()}
                >
                  {t('retry')}
                </button>
              }
            />
          ) : null}
          <MonthCalendar
            month={month}
            slots={slots.error ? [] : slots.currentData?.content}
            onMonthChange={showMonth}
            markDay={(daySlots) => (isOverbooked(daySlots) ? [overbookedMark] : [])}
            legendMarks={[overbookedMark]}
            renderSlotAction={renderSlotAction}
          />
        </>
      )}
    </Page>
  );
}
