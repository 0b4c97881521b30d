import {
  handlersFor,
  ignore,
  timeSlotStream,
  transactionStream,
  type Actor,
  type RecordedEvent,
  type TimeSlotEvent,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';
import { RowCache } from '../row-cache.ts';

/**
 * The tickets projection's batch: the same changes as its `apply` of each event in turn, folded
 * in memory, with one SELECT and one upsert per table.
 */

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
  cancelled_by: string | null;
  cancel_reason: string | null;
  moved_to: string | null;
  seat_id: string | null;
  seat_label: string | null;
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
  { name: 'cancelled_by', type: 'text' },
  { name: 'cancel_reason', type: 'text' },
  { name: 'moved_to', type: 'uuid' },
  { name: 'seat_id', type: 'uuid' },
  { name: 'seat_label', type: 'text' },
];

/** Who acted, as the check-in screen names them: a staff user's or token's name, else the kind. */
export const actorName = (actor: Actor): string =>
  actor.kind === 'admin'
    ? actor.username
    : actor.kind === 'api-token'
      ? actor.name
      : actor.kind === 'system'
        ? actor.job
        : actor.kind;

/**
 * Why a booked ticket was cancelled, as the reservations list names it: moved to another slot, a
 * closure's, the visitor's own, or else the library's (staff or a machine), with the reason given.
 */
export const ticketCancellation = (
  e: RecordedEvent & Extract<TimeSlotEvent, { type: 'TicketCancelled' }>,
): { cancelled_by: string; cancel_reason: string | null; moved_to: string | null } => ({
  cancelled_by: e.data.movedTo
    ? 'moved'
    : e.data.closureId
      ? 'closure'
      : e.metadata.actor.kind === 'visitor'
        ? 'visitor'
        : 'library',
  cancel_reason: e.data.reason ?? null,
  moved_to: e.data.movedTo ?? null,
});

const CART_STREAM = `${transactionStream.kind}-`;

/** The cart of an event of a cart's stream. */
export const cartOf = (event: RecordedEvent) => event.streamId.slice(CART_STREAM.length);

/** The keys a batch touches: carts and tickets, loaded before it is folded. */
interface Keys {
  carts: string[];
  tickets: string[];
}

const ticketKey = (e: { data: { ticketId: string } }, k: Keys) =>
  void k.tickets.push(e.data.ticketId);
const cartKey = (e: { data: { transactionId: string } }, k: Keys) =>
  void k.carts.push(e.data.transactionId);

const keys = handlersFor(transactionStream, timeSlotStream).with<Keys>({
  TransactionStarted: cartKey,
  TicketAddedToTransaction(e, k) {
    k.carts.push(cartOf(e));
    k.tickets.push(e.data.ticketId);
  },
  TicketRemovedFromTransaction: ticketKey,
  TransactionTouched: (e, k) => void k.carts.push(cartOf(e)),
  TransactionBooked(e, k) {
    k.carts.push(e.data.transactionId);
    k.tickets.push(...e.data.ticketIds);
  },
  TransactionRemoved: cartKey,
  TransactionExpired: cartKey,
  // An erasure touches its owner's rows: the loaded ones here, the others by one UPDATE.
  PersonalDataErased: ignore,
  OwnerDataChanged: ignore,
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  TimeSlotDeleted: ignore,
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ticketKey,
  TicketBooked: ticketKey,
  TicketCancelled: ticketKey,
  TicketCheckedIn: ticketKey,
  TicketCheckInUndone: ticketKey,
  TicketSeatChanged: ticketKey,
  TicketNoShowReleased: ticketKey,
  TicketConfirmed: ticketKey,
  TicketConfirmationLapsed: ticketKey,
  WaitlistJoined: ignore,
  SeatOffered: ignore,
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

/** A batch being folded: its carts and tickets, and the owners whose data it erased. */
interface Fold {
  carts: RowCache<TransactionRow>;
  tickets: RowCache<TicketRow>;
  erasedOwners: string[];
}

const setCart = (status: string) => (e: { data: { transactionId: string } }, f: Fold) =>
  f.carts.update(e.data.transactionId, { status });

const fold = handlersFor(transactionStream, timeSlotStream).with<Fold>({
  TransactionStarted(e, f) {
    f.carts.insertIfAbsent({
      id: e.data.transactionId,
      status: 'NEW',
      expires_at: e.data.expiresAt,
      owner_id: null,
      created_at: e.createdAt,
    });
  },
  TicketAddedToTransaction(e, f) {
    f.carts.update(cartOf(e), { expires_at: e.data.expiresAt });
    f.tickets.insertIfAbsent({
      id: e.data.ticketId,
      transaction_id: cartOf(e),
      owner_id: null,
      time_slot_id: e.data.timeSlotId,
      room_id: e.data.roomId,
      date: e.data.date,
      start_time: e.data.startTime,
      end_time: e.data.endTime,
      status: 'NEW',
      booking_number: null,
      created_at: e.createdAt,
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
      cancelled_by: null,
      cancel_reason: null,
      moved_to: null,
      seat_id: e.data.seat?.seatId ?? null,
      seat_label: e.data.seat?.label ?? null,
    });
  },
  TicketRemovedFromTransaction: (e, f) => f.tickets.update(e.data.ticketId, { status: 'INVALID' }),
  TransactionTouched: (e, f) => f.carts.update(cartOf(e), { expires_at: e.data.expiresAt }),
  TransactionBooked(e, f) {
    f.carts.update(e.data.transactionId, { status: 'BOOKED', owner_id: e.data.ownerId });
    for (const id of new Set(e.data.ticketIds))
      f.tickets.update(id, { booking_number: e.data.bookingNumber, owner_id: e.data.ownerId });
  },
  TransactionRemoved: setCart('REMOVED'),
  TransactionExpired: setCart('EXPIRED'),
  PersonalDataErased(e, f) {
    const ownerId = e.data.ownerId;
    f.tickets.updateWhere((t) => t.owner_id === ownerId, { personal_data_erased: true });
    f.erasedOwners.push(ownerId);
  },
  OwnerDataChanged: ignore,
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  TimeSlotDeleted: ignore,
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: (e, f) =>
    f.tickets.update(e.data.ticketId, { status: 'INVALID', release_reason: e.data.reason }),
  TicketBooked(e, f) {
    f.tickets.update(e.data.ticketId, {
      status: 'BOOKED',
      owner_id: e.data.ownerId,
      booked_at: e.createdAt,
      // A rebooking's new ticket names its booking's number itself.
      ...(e.data.bookingNumber ? { booking_number: e.data.bookingNumber } : {}),
      confirm_by: e.data.confirmBy ?? null,
    });
  },
  TicketCancelled: (e, f) =>
    f.tickets.update(e.data.ticketId, {
      status: 'CANCELLED',
      cancelled_at: e.createdAt,
      ...ticketCancellation(e),
    }),
  TicketCheckedIn(e, f) {
    f.tickets.update(e.data.ticketId, {
      checked_in_at: e.data.checkedInAt,
      checked_in_by: actorName(e.metadata.actor),
    });
  },
  TicketCheckInUndone: (e, f) =>
    f.tickets.update(e.data.ticketId, { checked_in_at: null, checked_in_by: null }),
  TicketSeatChanged: (e, f) =>
    f.tickets.update(e.data.ticketId, {
      seat_id: e.data.seat.seatId,
      seat_label: e.data.seat.label,
    }),
  TicketNoShowReleased(e, f) {
    f.tickets.update(e.data.ticketId, {
      status: 'INVALID',
      no_show: true,
      released_at: e.createdAt,
    });
  },
  TicketConfirmed: (e, f) =>
    f.tickets.update(e.data.ticketId, { confirm_by: null, confirmed_at: e.createdAt }),
  TicketConfirmationLapsed(e, f) {
    f.tickets.update(e.data.ticketId, {
      status: 'INVALID',
      confirm_by: null,
      unconfirmed: true,
      released_at: e.createdAt,
    });
  },
  WaitlistJoined: ignore,
  SeatOffered: ignore,
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

/** The types the batch folds: the projection's own (a unit test keeps them the same). */
export const ticketsBatchTypes = fold.handles;

export async function applyTicketsBatch(
  client: PoolClient,
  events: RecordedEvent[],
): Promise<void> {
  const touched: Keys = { carts: [], tickets: [] };
  for (const event of events) keys.handle(event, touched);
  const f: Fold = {
    carts: new RowCache<TransactionRow>('rm_transactions', transactionColumns),
    tickets: new RowCache<TicketRow>('rm_tickets', ticketColumns),
    erasedOwners: [],
  };
  await f.carts.load(client, touched.carts);
  await f.tickets.load(client, touched.tickets);
  for (const event of events) fold.handle(event, f);
  await f.carts.flush(client);
  await f.tickets.flush(client);
  // Rows of erased owners that the batch did not load: their owner is what it was before it.
  if (f.erasedOwners.length) {
    await client.query(
      'UPDATE rm_tickets SET personal_data_erased = true WHERE owner_id = ANY($1::text[]) AND id <> ALL($2::uuid[])',
      [f.erasedOwners, f.tickets.loadedKeys()],
    );
  }
}
