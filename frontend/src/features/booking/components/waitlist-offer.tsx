import { useEffect, useRef, useState } from 'react';
import { Loading } from '../../../components/loading-container';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatLongDate, formatTimeRange } from '../../../lib/dates';
import { readSession, removeSession, SESSION_KEYS } from '../../../lib/session-storage';
import { useGetWaitlistPlaceQuery, useLeaveWaitlistMutation } from '../api/booking-api';
import { useBooking } from './booking-context';

/**
 * Route `/waitlist-offer/:timeSlotId/:offerId`, the link of a waitlist offer mail:
 * takes the offered seat into a new cart, as a first add does, and continues to the personal
 * data. A lapsed, used or unknown offer says so, with the way to the room chooser.
 */
export function WaitlistOffer() {
  const { t } = useTranslation('booking');
  const { timeSlotId = '', offerId = '' } = useParams();
  const { takeOffer } = useBooking();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  // One take per offer: a second call would find the offer used.
  const taken = useRef('');

  useEffect(() => {
    const key = `${timeSlotId}/${offerId}`;
    if (taken.current === key) return;
    taken.current = key;
    takeOffer(timeSlotId, offerId).then(
      () => void navigate('/your-personal-data', { replace: true }),
      setError,
    );
  }, [timeSlotId, offerId, takeOffer, navigate]);

  const status = (error as { status?: unknown } | null)?.status;
  return (
    <Page title={t('offer.title')}>
      {error ? (
        <ErrorBox
          error={error}
          // An unknown or malformed link: the same message as a lapsed or used offer.
          messageKey={status === 400 || status === 404 ? 'waitlist__offer_not_valid' : undefined}
          extra={<Link to="/">{t('offer.choose-room')}</Link>}
        />
      ) : (
        <Loading>{t('offer.taking')}</Loading>
      )}
    </Page>
  );
}

/**
 * Route `/waitlist-leave/:reference`, the link of the joining mail and the way out from the place
 * in line: leaves the line (a second visit changes nothing) and names the slot left (room, date and
 * times, the library's); an unknown link finds no entry. The place kept for the slot's page is
 * forgotten, so that page offers joining again.
 */
export function WaitlistLeave() {
  const { t, i18n } = useTranslation('booking');
  const { reference = '' } = useParams();
  const [leave, { isSuccess, error }] = useLeaveWaitlistMutation();
  const place = useGetWaitlistPlaceQuery(reference, { skip: !isSuccess });
  const slot = place.data?.slot;
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => void leave(reference), [reference, leave]);
  useEffect(() => {
    const timeSlotId = place.data?.timeSlotId;
    if (timeSlotId && readSession(SESSION_KEYS.waitlist + timeSlotId) === reference)
      removeSession(SESSION_KEYS.waitlist + timeSlotId);
  }, [place.data, reference]);
  const named = isSuccess && (slot !== undefined || place.isError);
  useEffect(() => {
    if (named) done.current?.focus();
  }, [named]);
  return (
    <Page title={t('leave.title')}>
      {error ? <ErrorBox error={error} /> : null}
      {named ? (
        <p role="status" tabIndex={-1} ref={done}>
          {slot
            ? t('leave.done-slot', {
                room: slot.roomName,
                date: formatLongDate(slot.date, i18n.language),
                time: formatTimeRange(slot.startTime, slot.endTime),
              })
            : t('leave.done')}
        </p>
      ) : error ? null : (
        <Loading>{t('leave.leaving')}</Loading>
      )}
      <p>
        <Link to="/">{t('offer.choose-room')}</Link>
      </p>
    </Page>
  );
}
