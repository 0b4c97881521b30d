import type { ReactNode } from 'react';
import { Translated } from '../../../components/translated';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatLongDate, formatTimeRange } from '../../../lib/dates';

export interface TicketView {
  id: string;
  roomName: string;
  /** The room name's English text; absent: roomName serves both languages. */
  roomNameEn?: string | undefined;
  date: string;
  startTime: string;
  endTime: string;
}

/** Room, day and time of a ticket, e.g. for the accessible name of its buttons. */
export function useTicketText() {
  const { i18n } = useTranslation();
  const textIn = useTextIn();
  return (ticket: TicketView) =>
    `${textIn(ticket.roomName, ticket.roomNameEn)}, ${formatLongDate(ticket.date, i18n.language)}, ${formatTimeRange(
      ticket.startTime,
      ticket.endTime,
    )}`;
}

interface TicketListProps<T extends TicketView> {
  tickets: readonly T[];
  /** Extra content of a ticket: its status or an action. */
  renderExtra?: (ticket: T) => ReactNode;
}

/** Tickets in date order: room, long date and time range. */
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
