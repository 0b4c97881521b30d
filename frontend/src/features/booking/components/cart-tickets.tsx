import { useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { notify } from '../../../stores/notifications-slice';
import { useBooking } from './booking-context';
import { TicketList, useTicketText } from './ticket-list';

/** Formats the cart's expiry as a local time, e.g. "14:35". */
function useTimeOf() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' });
  return (iso: string) => format.format(new Date(iso));
}

/**
 * The cart's tickets with a remove button each, and until when they are held. After a removal,
 * focus goes to `focusAfterRemove` (the list's heading), since the button is gone.
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
  const timeOf = useTimeOf();
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
      {failure ? <ErrorBox error={failure} /> : null}
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
    </>
  );
}
