import type { AdminTimeSlot } from '../api/types';
import { useTranslation } from '../i18n/i18n-context';
import { Translated } from './translated';
import { formatDate, formatTimeRange } from '../lib/dates';
import { formatClock } from '../lib/staff-dates';

/**
 * Room, date, time and occupancy of a slot: the head of the slot edit page (admin-time-slots)
 * and of the admin booking page (admin-reservations). The taken seats are named apart: booked,
 * and held in visitors' carts (15-minute holds) with the end of the last hold.
 */
export function SlotSummary({ slot }: { slot: AdminTimeSlot }) {
  const { t } = useTranslation('admin-time-slots');
  return (
    <dl className="summary-list">
      <div>
        <dt>{t('edit.room')}</dt>
        <dd>
          <Translated german={slot.roomName} english={slot.roomNameEn} />
        </dd>
      </div>
      <div>
        <dt>{t('edit.date')}</dt>
        <dd>{formatDate(slot.date)}</dd>
      </div>
      <div>
        <dt>{t('edit.time')}</dt>
        <dd>{formatTimeRange(slot.startTime, slot.endTime)}</dd>
      </div>
      <div>
        <dt>{t('edit.occupancy')}</dt>
        <dd>
          {t('calendar.occupied', {
            ns: 'common',
            ticketCount: slot.ticketCount,
            capacity: slot.capacity,
          })}
          {slot.heldCount > 0
            ? ` (${t('edit.seats-held', {
                booked: slot.bookedCount,
                held: slot.heldCount,
                until: formatClock(slot.heldUntil ?? ''),
              })})`
            : slot.bookedCount > 0
              ? ` (${t('edit.seats-booked', { booked: slot.bookedCount })})`
              : null}
        </dd>
      </div>
    </dl>
  );
}
