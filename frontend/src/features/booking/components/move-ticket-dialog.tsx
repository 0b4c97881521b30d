import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useTranslation } from '../../../i18n/i18n-context';
import { addDaysIso, formatLongDate, formatTimeRange, todayIso } from '../../../lib/dates';
import { useGetBookableSlotsQuery, useMoveTicketMutation, type Ticket } from '../api/booking-api';
import { useTicketText } from './ticket-list';

interface MoveTicketDialogProps {
  ownerId: string;
  ticket: Ticket;
  onCancel: () => void;
  onMoved: () => void;
}

/**
 * Rebooking (docs/product.md#rebooking): the visitor picks another slot of the ticket's room that
 * has a free seat (the room's bookable slots, as the calendar shows them for an empty cart) and
 * moves the ticket in one step. The server decides with the seat rule and the visitor's other
 * bookings; its refusal shows in the dialog and leaves the booking as it was.
 */
export function MoveTicketDialog({ ownerId, ticket, onCancel, onMoved }: MoveTicketDialogProps) {
  const { t, i18n } = useTranslation('booking');
  const ticketText = useTicketText();
  const today = todayIso();
  const { data } = useGetBookableSlotsQuery({
    roomId: ticket.roomId,
    transactionId: null,
    fromDate: today,
    untilDate: addDaysIso(today, 366),
  });
  const free = (data ?? []).filter(
    (slot) => slot.failedRules.length === 0 && slot.id !== ticket.timeSlotId,
  );
  const [choice, setChoice] = useState('');
  const [move, { isLoading, error }] = useMoveTicketMutation();

  const confirm = async () => {
    const timeSlotId = choice || free[0]?.id;
    if (!timeSlotId) return;
    const answer = await move({ ownerId, ticketId: ticket.id, timeSlotId });
    if (!('error' in answer)) onMoved();
  };

  return (
    <ConfirmDialog
      title={t('move.title')}
      confirmLabel={t('move.confirm')}
      cancelLabel={t('confirmation.confirm-no')}
      busy={isLoading || free.length === 0}
      error={error}
      onCancel={onCancel}
      onConfirm={confirm}
    >
      <p>{ticketText(ticket)}</p>
      {data && free.length === 0 ? (
        <p>{t('move.none')}</p>
      ) : (
        <p className="field">
          <label htmlFor="move-slot">{t('move.slot')}</label>
          <select id="move-slot" value={choice} onChange={(event) => setChoice(event.target.value)}>
            {free.map((slot) => (
              <option key={slot.id} value={slot.id}>
                {formatLongDate(slot.date, i18n.language)},{' '}
                {formatTimeRange(slot.startTime, slot.endTime)}
              </option>
            ))}
          </select>
        </p>
      )}
    </ConfirmDialog>
  );
}
