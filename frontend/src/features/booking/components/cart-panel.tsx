import { useRef } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/i18n-context';
import { useBooking } from './booking-context';
import { CartTickets } from './cart-tickets';

/** The cart beside the room calendar (below it on phones). */
export function CartPanel() {
  const { t } = useTranslation('booking');
  const { tickets } = useBooking();
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <aside className="cart-panel" aria-labelledby="cart-panel-title">
      <h2 id="cart-panel-title" ref={heading} tabIndex={-1}>
        {t('cart.title')}
      </h2>
      {tickets.length === 0 ? (
        <p>{t('cart.empty')}</p>
      ) : (
        <>
          <CartTickets focusAfterRemove={heading} />
          <Link className="button button--primary" to="/your-reservations">
            {t('cart.continue')}
          </Link>
        </>
      )}
    </aside>
  );
}
