import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { useLeaveWaitlistMutation } from '../api/booking-api';
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
        <p className="loading" role="status">
          {t('offer.taking')}
        </p>
      )}
    </Page>
  );
}

/**
 * Route `/waitlist-leave/:reference`, the link of the joining mail: leaves the line (a second
 * visit changes nothing) and says so; an unknown link finds no entry.
 */
export function WaitlistLeave() {
  const { t } = useTranslation('booking');
  const { reference = '' } = useParams();
  const [leave, { isSuccess, error }] = useLeaveWaitlistMutation();
  useEffect(() => void leave(reference), [reference, leave]);
  return (
    <Page title={t('leave.title')}>
      {error ? <ErrorBox error={error} /> : null}
      {isSuccess ? <p role="status">{t('leave.done')}</p> : null}
      <Link to="/">{t('offer.choose-room')}</Link>
    </Page>
  );
}
