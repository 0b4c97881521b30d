import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';
import type { DeskSeat, DeskSeatTicket } from '../api/desk-seats-api';

interface DeskSeatMoveProps {
  ticket: DeskSeatTicket;
  /** The ticket's seat now; null: it holds none. */
  from: DeskSeat | null;
  /** The slot's free seats, in the plan's order. */
  free: readonly DeskSeat[];
  busy: boolean;
  onMove: (seatId: string, reason: string) => void;
  onCancel: () => void;
}

/** Moving a booked ticket to a free seat of its slot, with an optional reason. */
export function DeskSeatMove({ ticket, from, free, busy, onMove, onCancel }: DeskSeatMoveProps) {
  const { t } = useTranslation('admin-check-in');
  // "Platz A12, Fensterplatz, Steckdose", as the visitor's seat picker names a seat.
  const seatText = (seat: DeskSeat) =>
    [
      t('seats.seat', { ns: 'booking', label: seat.label }),
      ...seat.attributes.map((a) => t(`seats.attribute.${a}`, { ns: 'booking' })),
    ].join(', ');
  const id = useId();
  const [seatId, setSeatId] = useState(free[0]?.id ?? '');
  const [reason, setReason] = useState('');
  const name =
    [ticket.firstName, ticket.lastName].filter(Boolean).join(' ') || ticket.bookingNumber;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (seatId) onMove(seatId, reason.trim());
  };
  return (
    <form className="desk-seat-move" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>
        {from
          ? t('seats.move.title', { name, seat: from.label })
          : t('seats.move.title-without', { name })}
      </h4>
      {free.length === 0 ? (
        <p>{t('seats.move.none-free')}</p>
      ) : (
        <>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-seat`}>
              {t('seats.move.seat')}
            </label>
            <select
              id={`${id}-seat`}
              className="field__control"
              value={seatId}
              onChange={(event) => setSeatId(event.target.value)}
            >
              {free.map((seat) => (
                <option key={seat.id} value={seat.id}>
                  {seatText(seat)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-reason`}>
              {t('seats.move.reason')}
            </label>
            <input
              id={`${id}-reason`}
              className="field__control"
              maxLength={500}
              aria-describedby={`${id}-reason-hint`}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
            <p id={`${id}-reason-hint`} className="field__hint">
              {t('seats.move.reason-hint')}
            </p>
          </div>
        </>
      )}
      <div className="desk-seat-move__actions">
        {free.length ? (
          <button type="submit" className="button" disabled={busy}>
            {t('seats.move.submit')}
          </button>
        ) : null}
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('seats.move.cancel')}
        </button>
      </div>
    </form>
  );
}
