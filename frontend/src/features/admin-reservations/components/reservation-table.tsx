import { Fragment } from 'react';
import { Link } from 'react-router';
import type { Ticket } from '../../../api/types';
import { PencilIcon } from '../../../components/pencil-icon';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatDateTime, formatTimeRange } from '../../../lib/dates';
import { ownerName } from '../utils/owner-form';
import { ticketStatus, type TicketStatus } from '../utils/ticket-status';
import { pageOf } from '../utils/pager';
import { editPath, fromList } from '../utils/paths';
import {
  cutRoomName,
  SORT_COLUMNS,
  type ListState,
  type SortColumn,
} from '../utils/reservation-list';
import { ariaSort } from '../../../lib/sorting';
import { SortButton } from '../../../components/sort-button';

interface ReservationTableProps {
  busy: boolean;
  state: ListState;
  tickets: Ticket[];
  showActions: boolean;
  /** The list's address search, handed to the edit page for its way back. */
  listSearch: string;
  onSort: (column: SortColumn) => void;
  /** Another table (every row) is printed instead of this one. */
  printHidden?: boolean;
  /** The caption; by default the page's. */
  caption?: string;
}

/** One page of tickets with sortable column headers and, for booked tickets, an edit link. */
export function ReservationTable({
  busy,
  state,
  tickets,
  showActions,
  listSearch,
  onSort,
  printHidden = false,
  caption,
}: ReservationTableProps) {
  const { t } = useTranslation('admin-reservations');
  // The seat's column only where a listed ticket holds a seat of a room's plan, as in the CSV
  // export: a list of rooms without a plan keeps its columns.
  const seated = tickets.some((ticket) => ticket.seat !== null);
  return (
    <div className={`table-wrap${printHidden ? ' no-print' : ''}`} aria-busy={busy || undefined}>
      <table className="data-table reservation-table">
        <caption className="visually-hidden">
          {caption ?? t(`list.caption.${state.type}`, { page: pageOf(state.offset) })}
        </caption>
        <thead>
          <tr>
            {SORT_COLUMNS.map((column) => {
              const direction = ariaSort(state.sort, column);
              return (
                <th key={column} scope="col" aria-sort={direction}>
                  <SortButton
                    label={t(`list.column.${column}`)}
                    direction={direction}
                    onClick={() => onSort(column)}
                  />
                  <span className="print-only">{t(`list.column.${column}`)}</span>
                </th>
              );
            })}
            <th scope="col">{t('ticket.booking-number')}</th>
            {seated ? <th scope="col">{t('ticket.seat')}</th> : null}
            <th scope="col">{t('ticket.status')}</th>
            {showActions ? (
              <th scope="col" className="no-print">
                {t('list.column.actions')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {tickets.map((ticket) => (
            <TicketRow
              key={ticket.id}
              ticket={ticket}
              showActions={showActions}
              listSearch={listSearch}
              seated={seated}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface TicketRowProps {
  ticket: Ticket;
  showActions: boolean;
  listSearch: string;
  /** The list has the seat's column. */
  seated: boolean;
}

function TicketRow({ ticket, showActions, listSearch, seated }: TicketRowProps) {
  const { t } = useTranslation('admin-reservations');
  const name = ownerName(ticket);
  const roomName = useTextIn()(ticket.roomName, ticket.roomNameEn);
  const room = cutRoomName(roomName);
  // On a phone each row is a card: every cell names its column (data-label, see staff.css).
  const label = (column: SortColumn) => t(`list.column.${column}`);
  return (
    <tr>
      <td data-label={label('room')}>
        {room === roomName ? (
          room
        ) : (
          <>
            <span aria-hidden="true" title={roomName}>
              {room}
            </span>
            <span className="visually-hidden">{roomName}</span>
          </>
        )}
      </td>
      <td data-label={label('name')}>
        {name ?? <span className="muted">{t('erased')}</span>}
        {ticket.noShowCount > 0 ? (
          <div className="muted">{t('no-show-count', { count: ticket.noShowCount })}</div>
        ) : null}
      </td>
      <td data-label={label('institution')}>{ticket.organisation}</td>
      <td data-label={label('email')} className="reservation-table__email">
        {ticket.email ? <EmailText email={ticket.email} /> : null}
      </td>
      <td data-label={label('date')}>
        {/* The date and the time each on one line; between them the cell may wrap. */}
        <span className="data-table__nowrap">{formatDate(ticket.date)}</span>{' '}
        <span className="data-table__nowrap">
          {formatTimeRange(ticket.startTime, ticket.endTime)}
        </span>
      </td>
      <td data-label={t('ticket.booking-number')} className="data-table__nowrap">
        {ticket.bookingNumber}
      </td>
      {seated ? (
        <td data-label={t('ticket.seat')} className="data-table__nowrap">
          {ticket.seat?.label}
        </td>
      ) : null}
      <td data-label={t('ticket.status')} className="reservation-table__status">
        <StatusText status={ticketStatus(ticket)} />
      </td>
      {showActions ? (
        <td data-label={t('list.column.actions')} className="no-print">
          {ticket.status === 'BOOKED' ? (
            <Link
              className="icon-link"
              to={editPath(ticket.id, listSearch)}
              state={fromList(listSearch)}
            >
              <PencilIcon />
              <span className="visually-hidden">
                {t('list.edit', {
                  name: name ?? t('erased'),
                  date: formatDate(ticket.date),
                })}
              </span>
            </Link>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

/**
 * The ticket's status and, when it is no longer booked, why (docs/product.md#screens): awaiting
 * its visitor's confirmation (until when), cancelled by whom (with the library's reason), moved
 * (to which slot), released as a no-show or unconfirmed.
 */
function StatusText({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('admin-reservations');
  switch (status.key) {
    case 'awaiting':
      return (
        <>
          <strong>{t('awaiting-confirmation')}</strong>{' '}
          <span className="muted">
            {t('confirm-by', { at: formatDateTime(new Date(status.confirmBy)) })}
          </span>
        </>
      );
    case 'no-show':
      return <strong>{t('no-show')}</strong>;
    case 'unconfirmed':
      return <strong>{t('unconfirmed')}</strong>;
    case 'by-library':
    case 'by-closure':
      return (
        <>
          <span>{t(`list.status.${status.key}`)}</span>
          {status.reason ? (
            <div className="muted">{t('list.status.reason', { reason: status.reason })}</div>
          ) : null}
        </>
      );
    case 'moved':
      return status.movedTo ? (
        <>
          {t('list.status.moved', {
            date: formatDate(status.movedTo.date),
            time: formatTimeRange(status.movedTo.startTime, status.movedTo.endTime),
          })}
        </>
      ) : (
        <>{t('list.status.moved-unknown')}</>
      );
    default:
      return <>{t(`list.status.${status.key}`)}</>;
  }
}

/**
 * An e-mail address that wraps only between its parts: before the `@` and before each dot (and
 * after a hyphen, as any text), never inside a word.
 */
function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
