import { TableRegion } from '../../../components/table-region';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatTimeRange } from '../../../lib/dates';
import { formatClock } from '../../../lib/staff-dates';
import type { CheckInRoom, CheckInTicket } from '../api/check-in-api';
import { canUndo, displayName, matchesSearch } from '../lib/check-in-filter';

interface RoomTicketsProps {
  room: CheckInRoom;
  search: string;
  now: Date;
  busy: boolean;
  onCheckIn: (ticket: CheckInTicket) => void;
  onUndo: (ticket: CheckInTicket) => void;
}

/** One room of the check-in list: its tickets the search shows, each with its status and action. */
export function RoomTickets({ room, search, now, busy, onCheckIn, onUndo }: RoomTicketsProps) {
  const { t } = useTranslation('admin-check-in');
  const name = useTextIn()(room.roomName, room.roomNameEn);
  const shown = room.tickets.filter((x) => matchesSearch(x, search));
  return (
    <section className="check-in__room" aria-label={name}>
      <h3>{name}</h3>
      {shown.length === 0 ? (
        <p className="muted">{t('empty.no-tickets')}</p>
      ) : (
        <TableRegion label={t('caption', { room: name })}>
          <table className="data-table check-in-table">
            <caption className="visually-hidden">{t('caption', { room: name })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('column.time')}</th>
                <th scope="col">{t('column.name')}</th>
                <th scope="col">{t('column.number')}</th>
                <th scope="col">{t('column.status')}</th>
                <th scope="col">{t('column.action')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((ticket) => {
                const name = displayName(ticket);
                return (
                  <tr key={ticket.id}>
                    <td data-label={t('column.time')} className="data-table__nowrap">
                      {formatTimeRange(ticket.startTime, ticket.endTime)}
                    </td>
                    <td data-label={t('column.name')}>
                      {name}
                      {/* In a room with a seat plan, where the reader sits. */}
                      {ticket.seat ? (
                        <div className="muted">{t('seat', { label: ticket.seat.label })}</div>
                      ) : null}
                    </td>
                    <td data-label={t('column.number')}>{ticket.bookingNumber}</td>
                    <td data-label={t('column.status')}>
                      <TicketStatus ticket={ticket} />
                    </td>
                    <td data-label={t('column.action')}>
                      {ticket.noShow ? null : ticket.checkedInAt ? (
                        canUndo(ticket, now) ? (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            disabled={busy}
                            onClick={() => onUndo(ticket)}
                          >
                            {t('undo')}
                            <span className="visually-hidden"> {name}</span>
                          </button>
                        ) : null
                      ) : (
                        <button
                          type="button"
                          className="button button--small"
                          disabled={busy}
                          onClick={() => onCheckIn(ticket)}
                        >
                          {t('check-in')}
                          <span className="visually-hidden"> {name}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

/** Released, checked in (when, and by whom when known) or open; and whether it awaits confirmation. */
function TicketStatus({ ticket }: { ticket: CheckInTicket }) {
  const { t } = useTranslation('admin-check-in');
  return (
    <>
      {ticket.noShow
        ? t('status.released')
        : ticket.checkedInAt
          ? t(ticket.checkedInBy ? 'status.checked-in-by' : 'status.checked-in', {
              time: formatClock(ticket.checkedInAt),
              by: ticket.checkedInBy ?? '',
            })
          : t('status.open')}
      {ticket.awaitingConfirmation ? (
        <div className="muted">{t('status.awaiting-confirmation')}</div>
      ) : null}
    </>
  );
}
