import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { Page } from '../../../../components/page';
import { useConfig } from '../../../../app/config-context';
import { useTranslation } from '../../../../i18n/i18n-context';
import { useSeatPageTranslation } from './seat-page-texts';
import { formatTime } from '../../../../lib/dates';
import { useBooking } from '../booking-context';
import { SeatMark } from '../../../../components/seat-mark';
import { useSeatText } from '../seat-text';
import { type SeatNow, type WalkInResult, useGetSeatNowQuery } from '../../api/seat-page-api';
import { SeatCheckIn } from './seat-check-in';
import { SeatError } from './seat-error';
import { SeatWalkIn, WalkInDone } from './seat-walk-in';
import '../../../../styles/seats.css';

/**
 * Route `/seat/:roomId/:seatId`, where the QR code on a seat leads (docs/product.md#at-the-seat):
 * the seat and the room's slot under way (or next today), then by the seat's state the check-in,
 * the walk-in, "taken" with the nearest free seats (each linking to its page), out of service,
 * or no slot today. A chunk of its own: few visitors come here.
 */
export default function SeatPage() {
  const { roomId = '', seatId = '' } = useParams();
  const { t } = useSeatPageTranslation();
  const seat = useGetSeatNowQuery(roomId && seatId ? { roomId, seatId } : skipToken);
  const [booked, setBooked] = useState<WalkInResult | null>(null);

  if (seat.isLoading)
    return (
      <p className="loading" role="status">
        {t('loading')}
      </p>
    );
  if (!seat.data)
    return (
      <Page title={t('title', { label: '' }).trim()}>
        {seat.error && 'status' in seat.error && seat.error.status === 404 ? (
          <div className="notice" role="alert">
            <p>{t('not-found')}</p>
          </div>
        ) : (
          <SeatError error={seat.error} />
        )}
      </Page>
    );
  const now = seat.data;
  return (
    <Page title={t('title', { label: now.seat.label })}>
      <SeatSummary now={now} />
      {booked && now.slot ? (
        <WalkInDone result={booked} endTime={now.slot.endTime} />
      ) : (
        <SeatAction now={now} onBooked={setBooked} />
      )}
    </Page>
  );
}

/** The room, the seat's zone and features, the slot and the seat's state in it. */
function SeatSummary({ now }: { now: SeatNow }) {
  const { t } = useSeatPageTranslation();
  const { t: tb } = useTranslation('booking');
  const { language } = useConfig();
  const roomName = language === 'en' && now.room.nameEn ? now.room.nameEn : now.room.name;
  return (
    <dl className="seat-page__facts">
      <dt>{t('room')}</dt>
      <dd>{roomName}</dd>
      {now.seat.zone ? (
        <>
          <dt>{t('zone')}</dt>
          <dd>{now.seat.zone}</dd>
        </>
      ) : null}
      {now.seat.attributes.length ? (
        <>
          <dt>{t('attributes')}</dt>
          <dd>{now.seat.attributes.map((a) => tb(`seats.attribute.${a}`)).join(', ')}</dd>
        </>
      ) : null}
      {now.slot ? (
        <>
          <dt>{t(now.slot.started ? 'slot-now' : 'slot-next')}</dt>
          <dd>
            {t('slot-time', {
              start: formatTime(now.slot.startTime),
              end: formatTime(now.slot.endTime),
            })}
          </dd>
        </>
      ) : null}
      {now.state ? (
        <>
          <dt className="visually-hidden">{t('title', { label: now.seat.label })}</dt>
          <dd className="seat-page__state">
            <SeatMark state={now.state} /> {t(`state.${now.state}`)}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** What the visitor can do at the seat now. */
function SeatAction({ now, onBooked }: { now: SeatNow; onBooked: (r: WalkInResult) => void }) {
  const { t } = useSeatPageTranslation();
  const { personalData } = useBooking();
  const ref = { roomId: now.room.id, seatId: now.seat.id };
  if (!now.slot)
    return (
      <div className="notice" role="status">
        <p>{t('no-slot')}</p>
      </div>
    );
  if (now.state === 'out_of_service')
    return (
      <>
        <div className="notice notice--warning" role="status">
          <p>{t('out-of-service')}</p>
        </div>
        <NearestFree now={now} />
      </>
    );
  if (now.state === 'taken')
    return (
      <>
        <div className="notice" role="status">
          <p>{t('taken')}</p>
        </div>
        {now.room.checkIn ? <SeatCheckIn seat={ref} email={personalData?.email ?? ''} /> : null}
        <NearestFree now={now} />
      </>
    );
  if (now.walkIn)
    return (
      <SeatWalkIn
        seat={ref}
        slot={now.slot}
        checkIn={now.room.checkIn}
        initial={personalData}
        onBooked={onBooked}
      />
    );
  return (
    <div className="notice" role="status">
      <p>{t('free-later', { start: formatTime(now.slot.startTime) })}</p>
      <p>
        <Link to={`/room/${encodeURIComponent(now.room.id)}`}>{t('to-booking')}</Link>
      </p>
    </div>
  );
}

/** The nearest free seats of the slot, each a link to its own page. */
function NearestFree({ now }: { now: SeatNow }) {
  const { t } = useSeatPageTranslation();
  const seatText = useSeatText();
  return (
    <section aria-labelledby="seat-nearest-title">
      <h2 id="seat-nearest-title">{t('nearest')}</h2>
      {now.nearestFree.length ? (
        <ul className="seat-page__nearest">
          {now.nearestFree.map((free) => (
            <li key={free.id}>
              <Link to={`/seat/${encodeURIComponent(now.room.id)}/${encodeURIComponent(free.id)}`}>
                {seatText(free)}
              </Link>
              {free.zone ? ` (${free.zone})` : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('nearest-none')}</p>
      )}
    </section>
  );
}
