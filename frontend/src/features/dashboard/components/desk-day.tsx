import { Link } from 'react-router';
import { ErrorBox } from '../../../components/error-box';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { Translated } from '../../../components/translated';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { useGetDeskDayQuery, type DeskRoom, type DeskSlot } from '../api/dashboard-api';

/** How often the desk's day asks again: the counts move with every check-in and booking. */
const DESK_POLLING_MS = 30_000;

function SlotCounts({ slot, checkIn }: { slot: DeskSlot; checkIn: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <dl className="desk-slot__counts">
      <div>
        <dt>{t('day.booked')}</dt>
        <dd>{t('day.of-capacity', { count: slot.booked, capacity: slot.capacity })}</dd>
      </div>
      {checkIn ? (
        <div>
          <dt>{t('day.checked-in')}</dt>
          <dd>{slot.checkedIn}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('day.free')}</dt>
        <dd>{slot.free}</dd>
      </div>
      <div>
        <dt>{t('day.waiting')}</dt>
        <dd>{slot.waiting}</dd>
      </div>
      {slot.seats ? (
        <div className="desk-slot__seats">
          <dt>{t('day.seats-free')}</dt>
          <dd>
            <ul>
              <li>{t('day.seats-free-of', { count: slot.seats.free })}</li>
              {slot.seats.byAttribute.map(({ attribute, free }) => (
                <li key={attribute}>{t(`day.seats-with.${attribute}`, { count: free })}</li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
      {slot.awaitingConfirmation ? (
        <div>
          <dt>{t('day.awaiting-confirmation')}</dt>
          <dd>{slot.awaitingConfirmation}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function SlotCard({ kind, room }: { kind: 'current' | 'next'; room: DeskRoom }) {
  const { t } = useTranslation('dashboard');
  const slot = room[kind];
  return (
    <div className="desk-slot">
      <h4 className="desk-slot__title">
        {t(`day.${kind}`)}
        {slot ? `: ${formatTimeRange(slot.startTime, slot.endTime)}` : null}
      </h4>
      {slot ? (
        <SlotCounts slot={slot} checkIn={room.checkIn} />
      ) : (
        <p className="muted">{t(`day.no-${kind}`)}</p>
      )}
    </div>
  );
}

/**
 * The dashboard's today (docs/product.md#staff-screens): per room the slot running now and the
 * next one with their counts, the check-in tile and the day's alerts, in the library's time
 * zone as the server tells it.
 */
export function DeskDayPanel() {
  const { t } = useTranslation('dashboard');
  const textIn = useTextIn();
  const { data, error } = useGetDeskDayQuery(undefined, { pollingInterval: DESK_POLLING_MS });
  if (error) return <ErrorBox error={error} />;
  if (!data)
    return (
      <p className="loading" role="status">
        {t('loading', { ns: 'common' })}
      </p>
    );
  return (
    <section className="desk-day" aria-labelledby="desk-day-title">
      <h2 id="desk-day-title">
        {t('day.title', { date: formatDate(data.date), time: data.time })}
      </h2>
      <div className="desk-day__tiles">
        <section className="desk-tile" aria-labelledby="desk-alerts-title">
          <h3 id="desk-alerts-title">{t('day.alerts')}</h3>
          {data.alerts.length === 0 ? (
            <p className="muted">{t('day.no-alerts')}</p>
          ) : (
            <ul className="desk-alerts">
              {data.alerts.map((a) => (
                <li key={a.timeSlotId} className="desk-alerts__item">
                  <Link to={`/room/${a.roomId}/time-slot-edit/${a.timeSlotId}`}>
                    {t('day.overbooked', {
                      room: textIn(a.roomName, a.roomNameEn),
                      time: formatTimeRange(a.startTime, a.endTime),
                      count: a.tickets,
                      capacity: a.capacity,
                    })}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
        {data.checkIn ? (
          <section className="desk-tile" aria-labelledby="desk-check-in-title">
            <h3 id="desk-check-in-title">{t('day.check-in')}</h3>
            <p className="desk-tile__figure">
              {t('day.checked-in-of', {
                count: data.checkIn.checkedIn,
                booked: data.checkIn.booked,
              })}
            </p>
            <p>{t('day.no-shows', { count: data.checkIn.noShows })}</p>
            <Link className="button" to="/check-in">
              {t('day.to-check-in')}
            </Link>
          </section>
        ) : null}
      </div>
      {data.rooms.length === 0 ? (
        <p className="muted">{t('day.no-rooms')}</p>
      ) : (
        <ul className="desk-day__rooms">
          {data.rooms.map((room) => (
            <li key={room.id} className="desk-room">
              <h3 className="desk-room__name">
                <Translated german={room.name} english={room.nameEn} />
              </h3>
              <SlotCard kind="current" room={room} />
              <SlotCard kind="next" room={room} />
              {(room.current?.seats ?? room.next?.seats) ? (
                <Link className="desk-room__seats" to="/check-in#desk-seats-title">
                  {t('day.to-seats')}
                  <span className="visually-hidden">
                    : <Translated german={room.name} english={room.nameEn} />
                  </span>
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
