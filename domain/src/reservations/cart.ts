import type { CartTicket, TransactionEvent, VisitorEvent } from '@rr/events/catalogue';
import { VisitorTicketCancelled, VisitorTicketsBooked } from '@rr/events/catalogue';

/** A cart's ticket of a slot: the slot's room, day and times (a cart add, a staff booking, a taken offer). */
export function cartTicketOf(
  slot: { roomId: string; date: string; startTime: string; endTime: string },
  timeSlotId: string,
  ticketId: string,
): CartTicket {
  const { roomId, date, startTime, endTime } = slot;
  return { ticketId, timeSlotId, roomId, date, startTime, endTime };
}

/**
 * A reservation cart ("transaction" in the spec): open while it holds seats, then booked by its
 * owner, removed, or expired. Its stream also records staff edits of the owner data and the
 * erasure of the personal data.
 */
export interface TransactionState {
  status: 'none' | 'open' | 'booked' | 'removed' | 'expired';
  version: number;
  transactionId: string;
  expiresAt: string | null;
  tickets: CartTicket[];
  ownerId: string | null;
  /** The booking's personal data was erased (the day after its last booked day). */
  erased: boolean;
}

export const initialTransaction: TransactionState = {
  status: 'none',
  version: 0,
  transactionId: '',
  expiresAt: null,
  tickets: [],
  ownerId: null,
  erased: false,
};

export function evolveTransaction(
  state: TransactionState,
  event: TransactionEvent,
): TransactionState {
  const version = state.version + 1;
  switch (event.type) {
    case 'TransactionStarted':
      return {
        ...state,
        version,
        status: 'open',
        transactionId: event.data.transactionId,
        expiresAt: event.data.expiresAt,
      };
    case 'TicketAddedToTransaction': {
      const { expiresAt, ...ticket } = event.data;
      return { ...state, version, expiresAt, tickets: [...state.tickets, ticket] };
    }
    case 'TicketRemovedFromTransaction':
      return {
        ...state,
        version,
        tickets: state.tickets.filter((t) => t.ticketId !== event.data.ticketId),
      };
    case 'TransactionTouched':
      return { ...state, version, expiresAt: event.data.expiresAt };
    case 'TransactionBooked':
      return { ...state, version, status: 'booked', ownerId: event.data.ownerId };
    case 'TransactionRemoved':
      return { ...state, version, status: 'removed' };
    case 'TransactionExpired':
      return { ...state, version, status: 'expired' };
    case 'PersonalDataErased':
      return { ...state, version, erased: true };
    case 'OwnerDataChanged':
      return { ...state, version };
  }
}

export function isExpired(state: TransactionState, now: Date): boolean {
  return state.status === 'open' && state.expiresAt !== null && new Date(state.expiresAt) <= now;
}

/** A visitor's booked tickets (one stream per keyed e-mail address): the per-visitor limits. */
export interface VisitorTicket {
  ticketId: string;
  date: string;
  startTime: string;
  endTime: string;
  cancelled: boolean;
  /**
   * The site of the ticket's room, when the limits count per site (LIMITS_PER_SITE): not in the
   * events, given by the loader from the command side's state (command-service/src/streams/visitor.ts).
   */
  siteId?: string | undefined;
}

export interface VisitorState {
  version: number;
  tickets: VisitorTicket[];
}

export const initialVisitor: VisitorState = { version: 0, tickets: [] };

export function evolveVisitor(state: VisitorState, event: VisitorEvent): VisitorState {
  const version = state.version + 1;
  switch (event.type) {
    case 'VisitorTicketsBooked':
      return {
        version,
        tickets: [...state.tickets, ...event.data.tickets.map((t) => ({ ...t, cancelled: false }))],
      };
    case 'VisitorTicketCancelled':
      return {
        version,
        tickets: state.tickets.map((t) =>
          t.ticketId === event.data.ticketId ? { ...t, cancelled: true } : t,
        ),
      };
  }
}

/**
 * A booking's tickets still to come, moved from the visitor stream of an older key of its address
 * to the stream of its key now (docs/product.md#one-person-one-key): cancelled on the one, booked
 * on the other, so the per-visitor limits count them for the person once. Past tickets stay: no
 * limit counts them.
 */
export function moveVisitorTickets(
  from: VisitorState,
  ownerId: string,
  ticketIds: ReadonlySet<string>,
  today: string,
): { from: VisitorEvent[]; to: VisitorEvent[] } {
  const moved = from.tickets.filter(
    (t) => ticketIds.has(t.ticketId) && !t.cancelled && t.date >= today,
  );
  if (moved.length === 0) return { from: [], to: [] };
  return {
    from: moved.map((t) => VisitorTicketCancelled.create({ ticketId: t.ticketId })),
    to: [
      VisitorTicketsBooked.create({
        ownerId,
        tickets: moved.map(({ ticketId, date, startTime, endTime }) => ({
          ticketId,
          date,
          startTime,
          endTime,
        })),
      }),
    ],
  };
}
