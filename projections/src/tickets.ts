import {
  asStreamEvent,
  type Actor,
  type RecordedEvent,
  type SlotTicketEvent,
  type TransactionEvent,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';
import { RowCache } from './row-cache.ts';

interface TransactionRow extends Record<string, unknown> {
  id: string;
  status: string;
  expires_at: unknown;
  owner_id: string | null;
  created_at: unknown;
}

interface TicketRow extends Record<string, unknown> {
  id: string;
  transaction_id: string | null;
  owner_id: string | null;
  time_slot_id: string;
  room_id: string;
  date: string;
  start_time: string;
  end_time: string;
  status: string;
  booking_number: string | null;
  created_at: unknown;
  booked_at: unknown;
  cancelled_at: unknown;
  personal_data_erased: boolean;
  checked_in_at: unknown;
  checked_in_by: string | null;
  no_show: boolean;
  released_at: unknown;
  confirm_by: unknown;
  confirmed_at: unknown;
  unconfirmed: boolean;
  release_reason: string | null;
}

const transactionColumns = [
  { name: 'id', type: 'uuid' },
  { name: 'status', type: 'text' },
  { name: 'expires_at', type: 'timestamptz' },
  { name: 'owner_id', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
];
const ticketColumns = [
  { name: 'id', type: 'uuid' },
  { name: 'transaction_id', type: 'uuid' },
  { name: 'owner_id', type: 'text' },
  { name: 'time_slot_id', type: 'uuid' },
  { name: 'room_id', type: 'uuid' },
  { name: 'date', type: 'date' },
  { name: 'start_time', type: 'text' },
  { name: 'end_time', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'booking_number', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'booked_at', type: 'timestamptz' },
  { name: 'cancelled_at', type: 'timestamptz' },
  { name: 'personal_data_erased', type: 'boolean' },
  { name: 'checked_in_at', type: 'timestamptz' },
  { name: 'checked_in_by', type: 'text' },
  { name: 'no_show', type: 'boolean' },
  { name: 'released_at', type: 'timestamptz' },
  { name: 'confirm_by', type: 'timestamptz' },
  { name: 'confirmed_at', type: 'timestamptz' },
  { name: 'unconfirmed', type: 'boolean' },
  { name: 'release_reason', type: 'text' },
];

/** Who acted, as the check-in screen names them: a staff user's or token's name, else the kind. */
const actorName = (actor: Actor): string =>
  actor.kind === 'admin'
    ? actor.username
    : actor.kind === 'api-token'
      ? actor.name
      : actor.kind === 'system'
        ? actor.job
        : actor.kind;

const cartOf = (event: RecordedEvent) =>
  event.streamId.startsWith('transaction-') ? event.streamId.slice('transaction-'.length) : null;

/** The keys an event touches: carts and tickets. */
function keysOf(e: TransactionEvent | SlotTicketEvent, event: RecordedEvent) {
  switch (e.type) {
    case 'TransactionStarted':
      return { carts: [e.data.transactionId], tickets: [] };
    case 'TicketAddedToTransaction':
      return { carts: [cartOf(event)], tickets: [e.data.ticketId] };
    case 'TransactionTouched':
      return { carts: [cartOf(event)], tickets: [] };
    case 'TransactionBooked':
      return { carts: [e.data.transactionId], tickets: e.data.ticketIds };
    case 'TransactionRemoved':
    case 'TransactionExpired':
      return { carts: [e.data.transactionId], tickets: [] };
    case 'TicketRemovedFromTransaction':
    case 'TicketReleased':
    case 'TicketBooked':
    case 'TicketCancelled':
    case 'TicketCheckedIn':
    case 'TicketCheckInUndone':
    case 'TicketNoShowReleased':
    case 'TicketConfirmed':
    case 'TicketConfirmationLapsed':
      return { carts: [], tickets: [e.data.ticketId] };
    default:
      return { carts: [], tickets: [] };
  }
}

/**
 * Carts and tickets. Personal data is not copied here: it is joined from the personal-data table
 * at read time, so erasing it there leaves nothing behind in read models.
 */
export const ticketsProjection: Projection = {
  name: 'tickets',
  derivedOnly: true,
  tables: ['rm_transactions', 'rm_tickets', 'rm_ticket_counts'],
  handles: new Set([
    'TransactionStarted',
    'TicketAddedToTransaction',
    'TicketRemovedFromTransaction',
    'TransactionTouched',
    'TransactionBooked',
    'TransactionRemoved',
    'TransactionExpired',
    'TicketReleased',
    'TicketBooked',
    'TicketCancelled',
    'TicketCheckedIn',
    'TicketCheckInUndone',
    'TicketNoShowReleased',
    'TicketConfirmed',
    'TicketConfirmationLapsed',
    'PersonalDataErased',
  ]),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    const e = asStreamEvent<TransactionEvent | SlotTicketEvent>(event);
    const transactionId = cartOf(event);
    switch (e.type) {
      case 'TransactionStarted':
        await client.query(
          `INSERT INTO rm_transactions (id, status, expires_at, created_at) VALUES ($1, 'NEW', $2, $3) ON CONFLICT (id) DO NOTHING`,
          [e.data.transactionId, e.data.expiresAt, event.createdAt],
        );
        return;
      case 'TicketAddedToTransaction':
        await client.query('UPDATE rm_transactions SET expires_at = $2 WHERE id = $1', [
          transactionId,
          e.data.expiresAt,
        ]);
        await client.query(
          `INSERT INTO rm_tickets (id, transaction_id, time_slot_id, room_id, date, start_time, end_time, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'NEW', $8) ON CONFLICT (id) DO NOTHING`,
          [
            e.data.ticketId,
            transactionId,
            e.data.timeSlotId,
            e.data.roomId,
            e.data.date,
            e.data.startTime,
            e.data.endTime,
            event.createdAt,
          ],
        );
        return;
      case 'TicketRemovedFromTransaction':
        await client.query(`UPDATE rm_tickets SET status = 'INVALID' WHERE id = $1`, [
          e.data.ticketId,
        ]);
        return;
      case 'TransactionTouched':
        await client.query('UPDATE rm_transactions SET expires_at = $2 WHERE id = $1', [
          transactionId,
          e.data.expiresAt,
        ]);
        return;
      case 'TransactionBooked':
        await client.query(
          `UPDATE rm_transactions SET status = 'BOOKED', owner_id = $2 WHERE id = $1`,
          [e.data.transactionId, e.data.ownerId],
        );
        await client.query(
          'UPDATE rm_tickets SET booking_number = $2, owner_id = $3 WHERE id = ANY($1::uuid[])',
          [e.data.ticketIds, e.data.bookingNumber, e.data.ownerId],
        );
        return;
      case 'TransactionRemoved':
        await client.query(`UPDATE rm_transactions SET status = 'REMOVED' WHERE id = $1`, [
          e.data.transactionId,
        ]);
        return;
      case 'TransactionExpired':
        await client.query(`UPDATE rm_transactions SET status = 'EXPIRED' WHERE id = $1`, [
          e.data.transactionId,
        ]);
        return;
      // Why the hold ended: the cart shows the holds a closure ended.
      case 'TicketReleased':
        await client.query(
          `UPDATE rm_tickets SET status = 'INVALID', release_reason = $2 WHERE id = $1`,
          [e.data.ticketId, e.data.reason],
        );
        return;
      case 'TicketBooked':
        await client.query(
          `UPDATE rm_tickets SET status = 'BOOKED', owner_id = $2, booked_at = $3,
                  booking_number = COALESCE($4, booking_number), confirm_by = $5 WHERE id = $1`,
          [
            e.data.ticketId,
            e.data.ownerId,
            event.createdAt,
            e.data.bookingNumber ?? null,
            e.data.confirmBy ?? null,
          ],
        );
        return;
      // Confirmed addresses: confirmed in time, or released unconfirmed (status INVALID, flagged).
      case 'TicketConfirmed':
        await client.query(
          'UPDATE rm_tickets SET confirm_by = NULL, confirmed_at = $2 WHERE id = $1',
          [e.data.ticketId, event.createdAt],
        );
        return;
      case 'TicketConfirmationLapsed':
        await client.query(
          `UPDATE rm_tickets SET status = 'INVALID', confirm_by = NULL, unconfirmed = true,
                  released_at = $2 WHERE id = $1`,
          [e.data.ticketId, event.createdAt],
        );
        return;
      case 'TicketCancelled':
        await client.query(
          `UPDATE rm_tickets SET status = 'CANCELLED', cancelled_at = $2 WHERE id = $1`,
          [e.data.ticketId, event.createdAt],
        );
        return;
      // Check-in, its undo, and the no-show release (status INVALID, flagged).
      case 'TicketCheckedIn':
        await client.query(
          'UPDATE rm_tickets SET checked_in_at = $2, checked_in_by = $3 WHERE id = $1',
          [e.data.ticketId, e.data.checkedInAt, actorName(event.metadata.actor)],
        );
        return;
      case 'TicketCheckInUndone':
        await client.query(
          'UPDATE rm_tickets SET checked_in_at = NULL, checked_in_by = NULL WHERE id = $1',
          [e.data.ticketId],
        );
        return;
      case 'TicketNoShowReleased':
        await client.query(
          `UPDATE rm_tickets SET status = 'INVALID', no_show = true, released_at = $2 WHERE id = $1`,
          [e.data.ticketId, event.createdAt],
        );
        return;
      // Marks the tickets whose personal data is gone (the reservations list finds them by it).
      case 'PersonalDataErased':
        await client.query(
          'UPDATE rm_tickets SET personal_data_erased = true WHERE owner_id = $1',
          [e.data.ownerId],
        );
        return;
      default:
        return;
    }
  },
  /** The same changes as `apply`, folded in memory: one SELECT and one upsert per table. */
  async applyBatch(client: PoolClient, events: RecordedEvent[]): Promise<void> {
    const carts = new RowCache<TransactionRow>('rm_transactions', transactionColumns);
    const tickets = new RowCache<TicketRow>('rm_tickets', ticketColumns);
    const cartKeys: string[] = [];
    const ticketKeys: string[] = [];
    for (const event of events) {
      const k = keysOf(asStreamEvent<TransactionEvent | SlotTicketEvent>(event), event);
      for (const c of k.carts) if (c !== null) cartKeys.push(c);
      ticketKeys.push(...k.tickets);
    }
    const erasedOwners: string[] = [];
    await carts.load(client, cartKeys);
    await tickets.load(client, ticketKeys);
    for (const event of events) {
      const e = asStreamEvent<TransactionEvent | SlotTicketEvent>(event);
      const transactionId = cartOf(event);
      switch (e.type) {
        case 'TransactionStarted':
          carts.insertIfAbsent({
            id: e.data.transactionId,
            status: 'NEW',
            expires_at: e.data.expiresAt,
            owner_id: null,
            created_at: event.createdAt,
          });
          break;
        case 'TicketAddedToTransaction':
          carts.update(transactionId, { expires_at: e.data.expiresAt });
          tickets.insertIfAbsent({
            id: e.data.ticketId,
            transaction_id: transactionId,
            owner_id: null,
            time_slot_id: e.data.timeSlotId,
            room_id: e.data.roomId,
            date: e.data.date,
            start_time: e.data.startTime,
            end_time: e.data.endTime,
            status: 'NEW',
            booking_number: null,
            created_at: event.createdAt,
            booked_at: null,
            cancelled_at: null,
            personal_data_erased: false,
            checked_in_at: null,
            checked_in_by: null,
            no_show: false,
            released_at: null,
            confirm_by: null,
            confirmed_at: null,
            unconfirmed: false,
            release_reason: null,
          });
          break;
        case 'TicketRemovedFromTransaction':
          tickets.update(e.data.ticketId, { status: 'INVALID' });
          break;
        case 'TicketReleased':
          tickets.update(e.data.ticketId, { status: 'INVALID', release_reason: e.data.reason });
          break;
        case 'TransactionTouched':
          carts.update(transactionId, { expires_at: e.data.expiresAt });
          break;
        case 'TransactionBooked':
          carts.update(e.data.transactionId, { status: 'BOOKED', owner_id: e.data.ownerId });
          for (const id of new Set(e.data.ticketIds))
            tickets.update(id, {
              booking_number: e.data.bookingNumber,
              owner_id: e.data.ownerId,
            });
          break;
        case 'TransactionRemoved':
          carts.update(e.data.transactionId, { status: 'REMOVED' });
          break;
        case 'TransactionExpired':
          carts.update(e.data.transactionId, { status: 'EXPIRED' });
          break;
        case 'TicketBooked':
          tickets.update(e.data.ticketId, {
            status: 'BOOKED',
            owner_id: e.data.ownerId,
            booked_at: event.createdAt,
            // A rebooking's new ticket names its booking's number itself.
            ...(e.data.bookingNumber ? { booking_number: e.data.bookingNumber } : {}),
            confirm_by: e.data.confirmBy ?? null,
          });
          break;
        case 'TicketConfirmed':
          tickets.update(e.data.ticketId, { confirm_by: null, confirmed_at: event.createdAt });
          break;
        case 'TicketConfirmationLapsed':
          tickets.update(e.data.ticketId, {
            status: 'INVALID',
            confirm_by: null,
            unconfirmed: true,
            released_at: event.createdAt,
          });
          break;
        case 'TicketCancelled':
          tickets.update(e.data.ticketId, { status: 'CANCELLED', cancelled_at: event.createdAt });
          break;
        case 'TicketCheckedIn':
          tickets.update(e.data.ticketId, {
            checked_in_at: e.data.checkedInAt,
            checked_in_by: actorName(event.metadata.actor),
          });
          break;
        case 'TicketCheckInUndone':
          tickets.update(e.data.ticketId, { checked_in_at: null, checked_in_by: null });
          break;
        case 'TicketNoShowReleased':
          tickets.update(e.data.ticketId, {
            status: 'INVALID',
            no_show: true,
            released_at: event.createdAt,
          });
          break;
        case 'PersonalDataErased': {
          const ownerId = e.data.ownerId;
          tickets.updateWhere((t) => t.owner_id === ownerId, { personal_data_erased: true });
          erasedOwners.push(ownerId);
          break;
        }
        default:
          break;
      }
    }
    await carts.flush(client);
    await tickets.flush(client);
    // Rows of erased owners that the batch did not load: their owner is what it was before it.
    if (erasedOwners.length) {
      await client.query(
        'UPDATE rm_tickets SET personal_data_erased = true WHERE owner_id = ANY($1::text[]) AND id <> ALL($2::uuid[])',
        [erasedOwners, tickets.loadedKeys()],
      );
    }
  },
};
