import { Link } from 'react-router';
import type { Ticket } from '../../../api/types';
import { PencilIcon } from '../../../components/pencil-icon';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { ownerName } from '../utils/owner-form';
import { pageOf } from '../utils/pager';
import { editPath, fromList } from '../utils/paths';
import {
  ariaSort,
  cutRoomName,
  SORT_COLUMNS,
  type ListState,
  type SortColumn,
} from '../utils/reservation-list';

interface ReservationTableProps {
  busy: boolean;
  state: ListState;
  tickets: Ticket[];
  showActions: boolean;
  /** The list's address search, handed to the edit page for its way back. */
  listSearch: string;
  onSort: (column: SortColumn) => void;
}

/** One page of tickets with sortable column headers and, for booked tickets, an edit link. */
export function ReservationTable({
  busy,
  state,
  tickets,
  showActions,
  listSearch,
  onSort,
}: ReservationTableProps) {
  const { t } = useTranslation('admin-reservations');
  return (
    <div className="table-wrap" aria-busy={busy || undefined}>
      <table className="data-table reservation-table">
        <caption className="visually-hidden">
          {t(`list.caption.${state.type}`, {
            page: pageOf(state.offset),
          })}
        </caption>
        <thead>
          <tr>
            {SORT_COLUMNS.map((column) => {
              const direction = ariaSort(state.sort, column);
              return (
                <th key={column} scope="col" aria-sort={direction}>
                  <button type="button" className="sort-button" onClick={() => onSort(column)}>
                    {t(`list.column.${column}`)}
                    <span className="sort-button__icon" aria-hidden="true">
                      {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
                    </span>
                  </button>
                  <span className="print-only">{t(`list.column.${column}`)}</span>
                </th>
              );
            })}
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
}

function TicketRow({ ticket, showActions, listSearch }: TicketRowProps) {
  const { t } = useTranslation('admin-reservations');
  const name = ownerName(ticket);
  const room = cutRoomName(ticket.roomName);
  return (
    <tr>
      <td>
        {room === ticket.roomName ? (
          room
        ) : (
          <>
            <span aria-hidden="true" title={ticket.roomName}>
              {room}
            </span>
            <span className="visually-hidden">{ticket.roomName}</span>
          </>
        )}
      </td>
      <td>{name ?? <span className="muted">{t('erased')}</span>}</td>
      <td>{ticket.organisation}</td>
      <td className="data-table__break">{ticket.email}</td>
      <td className="data-table__nowrap">
        {formatDate(ticket.date)} {formatTimeRange(ticket.startTime, ticket.endTime)}
      </td>
      {showActions ? (
        <td className="no-print">
          {ticket.status === 'BOOKED' ? (
            <Link className="icon-link" to={editPath(ticket.id)} state={fromList(listSearch)}>
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
