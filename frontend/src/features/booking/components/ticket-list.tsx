import type { ReactNode } from 'react';
import type { TicketSeat } from '@rr/contracts/seats';
import { Translated } from '../../../components/translated';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatLongDate, formatTimeRange } from '../../../lib/dates';
import { TicketSeatText } from './seat-text';

export interface TicketView {
  id: string;
  roomName: string;
  /** The room name's English text; absent: roomName serves both languages. */
  roomNameEn?: string | undefined;
  date: string;
  startTime: string;
  endTime: string;
  /** The room, whose seat plan names the seat's attributes. */
  roomId?: string | undefined;
  /** In a room with a seat plan: the ticket's seat. */
  seat?: TicketSeat | null | undefined;
}

/** Room, day, time and seat of a ticket, e.g. for the accessible name of its buttons. */
export function useTicketText() {
  const { i18n } = useTranslation();
  const textIn = useTextIn();
  const { t } = useTranslation('booking');
  return (ticket: TicketView) =>
    `${textIn(ticket.roomName, ticket.roomNameEn)}, ${formatLongDate(ticket.date, i18n.language)}, ${formatTimeRange(
      ticket.startTime,
      ticket.endTime,
    )}${ticket.seat ? `, ${t('seats.seat', { label: ticket.seat.label })}` : ''}`;
}

interface TicketListProps<T extends TicketView> {
  tickets: readonly T[];
  /** Extra content of a ticket: its status or an action. */
  renderExtra?: (ticket: T) => ReactNode;
}

/** Tickets in date order: room, long date, time range and seat. */
export function TicketList<T extends TicketView>({ tickets, renderExtra }: TicketListProps<T>) {
  const { i18n } = useTranslation();
  const sorted = [...tickets].sort((a, b) =>
    `${a.date} ${a.startTime}`.localeCompare(`${b.date} ${b.startTime}`),
  );
  return (
    <ul className="ticket-list">
      {sorted.map((ticket) => (
        <li key={ticket.id} className="ticket-list__item">
          <p className="ticket-list__room">
            <Translated german={ticket.roomName} english={ticket.roomNameEn} />
          </p>
          <p>
            {formatLongDate(ticket.date, i18n.language)},{' '}
            <span className="time-range">{formatTimeRange(ticket.startTime, ticket.endTime)}</span>
          </p>
          <TicketSeatText roomId={ticket.roomId} seat={ticket.seat} />
          {renderExtra ? <div className="ticket-list__extra">{renderExtra(ticket)}</div> : null}
        </li>
      ))}
    </ul>
  );
}

/** Where a rebooking moved a ticket: "moved to <day>, <time>" (docs/product.md#rebooking). */
export function MovedTo({
  movedTo,
}: {
  movedTo: { date: string; startTime: string; endTime: string } | null | undefined;
}) {
  const { t, i18n } = useTranslation('booking');
  if (!movedTo) return null;
  const slot = `${formatLongDate(movedTo.date, i18n.language)}, ${formatTimeRange(
    movedTo.startTime,
    movedTo.endTime,
  )}`;
  return <p className="ticket-list__moved">{t('confirmation.moved-to', { slot })}</p>;
}
