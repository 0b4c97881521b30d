import type { Ticket } from '../../../api/types';

/**
 * What the reservations list says of a ticket's status (docs/product.md#screens): booked or
 * awaiting confirmation, and for a ticket no longer booked why. `key` is of the catalogue's
 * `admin-reservations.list.status`; `reason` is the library's text (a cancellation's or a
 * closure's), `movedTo` the slot a moved ticket went to.
 */
export type TicketStatus =
  | { key: 'booked' | 'no-show' | 'unconfirmed' | 'cancelled' | 'released' | 'held' }
  | { key: 'awaiting'; confirmBy: string }
  | { key: 'by-visitor' }
  | { key: 'by-library' | 'by-closure'; reason: string | null }
  | { key: 'moved'; movedTo: { date: string; startTime: string; endTime: string } | null };

export function ticketStatus(ticket: Ticket): TicketStatus {
  switch (ticket.status) {
    case 'BOOKED':
      return ticket.confirmBy
        ? { key: 'awaiting', confirmBy: ticket.confirmBy }
        : { key: 'booked' };
    case 'NEW':
      return { key: 'held' };
    case 'INVALID':
      if (ticket.noShow) return { key: 'no-show' };
      return ticket.unconfirmed ? { key: 'unconfirmed' } : { key: 'released' };
    case 'CANCELLED': {
      const why = ticket.cancellation;
      if (!why) return { key: 'cancelled' };
      switch (why.by) {
        case 'visitor':
          return { key: 'by-visitor' };
        case 'library':
          return { key: 'by-library', reason: why.reason };
        case 'closure':
          return { key: 'by-closure', reason: why.reason };
        case 'moved':
          return { key: 'moved', movedTo: why.movedTo };
      }
    }
  }
}
