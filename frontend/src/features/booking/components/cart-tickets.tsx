import { useState, type RefObject } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatClockTime, formatLongDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { fullDays } from '../lib/cart';
import { useBooking } from './booking-context';
import { TicketList, useTicketText } from './ticket-list';

/** The cart's expiry as a local 24-hour time, e.g. "14:35", in every language. */
const timeOf = (iso: string) => formatClockTime(new Date(iso));

/**
 * The limits of the server's settings as they bear on the cart: a warning when it is full, else
 * one naming the days that hold the per-day maximum (no further slot of those days can be
 * added); and the per-person maxima, which count earlier bookings as well and so are decided
 * only at booking, when the e-mail address names the visitor.
 */
function CartLimits() {
  const { t, i18n } = useTranslation('booking');
  const { tickets, settings } = useBooking();
  if (!settings) return null;
  const { maxCartTickets, maxTicketsPerDay, maxTicketsPerVisitor, limitsPerSite } = settings;
  const days = fullDays(tickets, maxTicketsPerDay, limitsPerSite).map(({ date }) =>
    formatLongDate(date, i18n.language),
  );
  // Per site, the texts say so: a day full at one site takes slots at another.
  const scope = limitsPerSite ? '-per-site' : '';
  const warning =
    tickets.length >= maxCartTickets
      ? t('room.cart-full', { count: maxCartTickets })
      : days.length > 0
        ? t(`cart.day-full${scope}`, {
            count: maxTicketsPerDay,
            days: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(days),
          })
        : null;
  return (
    <>
      {warning ? <p className="notice notice--warning">{warning}</p> : null}
      <p className="cart-limits">
        {t(`cart.limits${scope}`, { perDay: maxTicketsPerDay, perVisitor: maxTicketsPerVisitor })}
      </p>
    </>
  );
}

/**
 * The cart's tickets with a remove button each, until when they are held, and the limits that
 * bear on it. After a removal, focus goes to `focusAfterRemove` (the list's heading), since the
 * button is gone.
 */
export function CartTickets({
  focusAfterRemove,
}: {
  focusAfterRemove: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation('booking');
  const dispatch = useAppDispatch();
  const { cart, tickets, removeTicket } = useBooking();
  const ticketText = useTicketText();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const remove = async (ticketId: string, text: string) => {
    if (busy) return;
    setBusy(ticketId);
    setFailure(null);
    try {
      await removeTicket(ticketId);
      dispatch(notify({ title: t('cart.removed', { ticket: text }) }));
      focusAfterRemove.current?.focus();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {failure ? <ErrorBox error={failure} reveal /> : null}
      <TicketList
        tickets={tickets}
        renderExtra={(ticket) => (
          <button
            type="button"
            className="button button--secondary button--small"
            aria-disabled={busy !== null || undefined}
            onClick={() => void remove(ticket.id, ticketText(ticket))}
          >
            {t('cart.remove')}
            <span className="visually-hidden"> {ticketText(ticket)}</span>
          </button>
        )}
      />
      {cart?.expiredAt ? (
        <p className="cart-expiry">{t('cart.expiry', { time: timeOf(cart.expiredAt) })}</p>
      ) : null}
      <CartLimits />
    </>
  );
}
