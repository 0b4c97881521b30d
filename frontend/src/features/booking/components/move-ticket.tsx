import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';
import type { Ticket } from '../api/booking-api';
import { useTicketText } from './ticket-list';

// Few visitors move a ticket: the dialog loads when one opens it.
const MoveTicketDialog = lazy(() =>
  import('./move-ticket-dialog').then((module) => ({ default: module.MoveTicketDialog })),
);

/** The "move" button of a booked, still cancelable ticket (docs/product.md#rebooking). */
export function MoveButton({ ticket, onClick }: { ticket: Ticket; onClick: () => void }) {
  const { t } = useTranslation('booking');
  const ticketText = useTicketText();
  return (
    <button type="button" className="button button--secondary button--small" onClick={onClick}>
      {t('move.action')}
      <span className="visually-hidden"> {ticketText(ticket)}</span>
    </button>
  );
}

/** The move dialog of a ticket, loaded on demand. */
export function MoveTicket(props: {
  ownerId: string;
  ticket: Ticket;
  onCancel: () => void;
  onMoved: () => void;
}) {
  return (
    <Suspense fallback={null}>
      <MoveTicketDialog {...props} />
    </Suspense>
  );
}
