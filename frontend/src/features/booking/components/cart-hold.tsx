import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatTimeLeft, HOLD_WARNING_MS, holdTimeLeft } from '../lib/cart';
import { useBooking } from './booking-context';

/**
 * How long the cart's slots are still held, counted down every second on every visitor page
 * with a cart; a minute before the end a polite status says so and offers to keep
 * the hold (touch). The countdown itself is not announced, the warning is (its live region
 * exists from the start).
 */
export function CartHold() {
  const { t } = useTranslation('booking');
  const { cart, tickets, touch, settings } = useBooking();
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const expiresAt = cart?.expiredAt ? Date.parse(cart.expiredAt) : Number.NaN;
  if (tickets.length === 0 || Number.isNaN(expiresAt)) return null;
  const left = holdTimeLeft(expiresAt, now, settings?.holdMinutes);
  const soon = left <= HOLD_WARNING_MS;
  return (
    <div className={soon ? 'cart-hold cart-hold--soon' : 'cart-hold'}>
      <p className="cart-hold__left">{t('hold.left', { time: formatTimeLeft(left) })}</p>
      <p className="cart-hold__warning" role="status">
        {soon ? t('hold.warning') : null}
      </p>
      {soon ? (
        <button type="button" className="button button--secondary button--small" onClick={touch}>
          {t('hold.keep')}
        </button>
      ) : null}
    </div>
  );
}
