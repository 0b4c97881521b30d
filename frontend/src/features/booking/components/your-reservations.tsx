import { useEffect, useRef } from 'react';
import { Loading } from '../../../components/loading-container';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { useBooking } from './booking-context';
import { CartTickets } from './cart-tickets';
import { BookedRedirect, WizardSteps } from './wizard-steps';

/** Route `/your-reservations`: the cart with a remove button per ticket, then on to the data. */
export function YourReservations() {
  const { t } = useTranslation('booking');
  const { tickets, cartLoading, touch } = useBooking();
  const heading = useRef<HTMLHeadingElement>(null);

  // Moving on to this step keeps the cart alive.
  useEffect(() => touch(), [touch]);

  return (
    <Page title={t('cart.title')}>
      <BookedRedirect />
      <WizardSteps current="reservation" />
      <h2 ref={heading} tabIndex={-1}>
        {t('cart.chosen')}
      </h2>
      {cartLoading ? (
        <Loading />
      ) : tickets.length === 0 ? (
        <>
          <EmptyState>{t('cart.empty')}</EmptyState>
          <p>
            <Link to="/">{t('cart.choose-room')}</Link>
          </p>
        </>
      ) : (
        <>
          <CartTickets focusAfterRemove={heading} />
          <div className="form__actions">
            <Link className="button button--primary" to="/your-personal-data">
              {t('cart.to-data')}
            </Link>
            <Link
              className="button button--secondary"
              to={`/room/${encodeURIComponent(tickets[tickets.length - 1]?.roomId ?? '')}`}
            >
              {t('cart.add-more')}
            </Link>
          </div>
        </>
      )}
    </Page>
  );
}
