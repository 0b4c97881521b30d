import {
  asStreamEvent,
  TicketBooked,
  TicketCancelled,
  TicketCheckedIn,
  TicketCheckInUndone,
  TicketConfirmationLapsed,
  TicketConfirmed,
  TicketHeld,
  TicketNoShowReleased,
  TicketReleased,
  transactionStreamId,
  type AppendRequest,
  type CatalogueEvent,
  type HolidayEvent,
  type NewEvent,
  type RoomEvent,
  type RoomOrderEvent,
  type SlotTicketEvent,
  type StreamEvent,
  type TimeSlotLifecycleEvent,
  type TransactionEvent,
  type WaitlistEvent,
} from '@rr/events';
import { evolveHoliday, evolveRoom, initialRoomState, minutesOf, type Holiday } from '@rr/domain';
import type { StoreSession } from '@rr/events';
import { holidaysById } from './holidays/state.ts';
import { roomStates } from './write-state.ts';
import { rekeyingProjections } from './inline-projections/rekeying.ts';
import { noShowProjections } from './no-show/record.ts';

/** An event being appended, with the stream it goes to. */
export interface AppendedEvent<E extends CatalogueEvent = CatalogueEvent> {
  streamId: string;
  event: StreamEvent<E, NewEvent>;
}

/**
 * The transaction an inline projection moves its table in: `send` for its writes (their answers
 * are not awaited: they go with the append and the commit, StoreSession.send), `client` for the
 * reads a write depends on (their answers come after every write sent before them).
 */
export type InlineTransaction = Pick<StoreSession, 'client' | 'send'>;

/**
 * A table beside the log moved by the events of the command that appends them, in its
 * transaction: never behind the log (unlike the read models, which projections fill after the
 * commit). It gets the events of the types it handles, in append order, once per command.
 */
export interface InlineProjection {
  /** The table it moves. */
  table: string;
  handles: readonly string[];
  /** `at`: the instant the events are recorded at (the store's clock). */
  apply(tx: InlineTransaction, events: readonly AppendedEvent[], at: Date): Promise<void>;
}

/** An inline projection whose events are typed by the types it handles. */
export function inlineProjection<E extends CatalogueEvent>(p: {
  table: string;
  handles: readonly E['type'][];
  apply(tx: InlineTransaction, events: readonly AppendedEvent<E>[], at: Date): Promise<void>;
}): InlineProjection {
  return {
    table: p.table,
    handles: p.handles,
    apply: (tx, events, at) =>
      p.apply(
        tx,
        events.map((e) => ({ streamId: e.streamId, event: asStreamEvent<E, NewEvent>(e.event) })),
        at,
      ),
  };
}

/** The events of the appends, by the inline projection that handles them (keyed by event type). */
function eventsByProjection(
  byType: ReadonlyMap<string, readonly InlineProjection[]>,
  requests: readonly AppendRequest[],
): Map<InlineProjection, AppendedEvent[]> {
  const batches = new Map<InlineProjection, AppendedEvent[]>();
  for (const r of requests)
    for (const event of r.events)
      for (const p of byType.get(event.type) ?? []) {
        const list = batches.get(p) ?? [];
        list.push({ streamId: r.streamId, event: asStreamEvent<CatalogueEvent, NewEvent>(event) });
        batches.set(p, list);
      }
  return batches;
}

// --- the tables beside the log ------------------------------------------------------------------

/*
 * What commands decide on besides the streams they lock (write-state.ts and the loaders read
 * them), each moved by the events in the transaction that appends them, so they are never behind
 * the log (unlike the read models, which projections fill after the commit):
 *
 * - `room_state`: each existing room (evolveRoom) and its place in the manual order;
 * - `timeslot_guard`: when each slot of a room sits (no overlaps, the slots of a room or range);
 * - `holiday_state`: each holiday (evolveHoliday);
 * - `ticket_state`: each ticket's slot, cart, status, owner and whether it is checked in (what
 *   finds the ticket of a check-in, a staff change or a no-show release);
 * - `open_carts`: the expiry of each cart not booked, removed or expired (the expiry job);
 * - `bookings`: each booking's owner id, cart, visitor, booking number and language (what a
 *   cancel link, a check-in or a mail finds the booking by; its personal data is a `record`);
 * - `waitlist_entries`: each entry's status and offer (the matcher's candidates, the offer mail).
 */

const CART_STREAM = transactionStreamId('');

const roomStateProjection = inlineProjection<RoomEvent>({
  table: 'room_state',
  handles: [
    'RoomCreated',
    'RoomUpdated',
    'RoomDeleted',
    'RoomImageSet',
    'RoomImageAltChanged',
    'RoomImageRemoved',
    'RoomServicesChanged',
  ],
  apply: (tx, events) =>
    recordRooms(
      tx,
      events.map((e) => e.event),
    ),
});

const roomOrderProjection = inlineProjection<RoomOrderEvent>({
  table: 'room_state',
  handles: ['RoomOrderChanged'],
  apply: (tx, events) => recordRoomOrder(tx, events.at(-1)!.event.data.roomIds),
});

async function recordRooms(tx: InlineTransaction, events: readonly RoomEvent[]): Promise<void> {
  const ids = [...new Set(events.map((e) => e.data.roomId))];
  const states = await roomStates(tx.client, ids);
  for (const e of events)
    states.set(e.data.roomId, evolveRoom(states.get(e.data.roomId) ?? initialRoomState, e));
  for (const [roomId, room] of states) {
    if (room.status !== 'active') {
      await tx.send('DELETE FROM room_state WHERE room_id = $1', [roomId]);
      // The room's slots go with it: their times are free (the projection drops their read rows).
      await tx.send('DELETE FROM timeslot_guard WHERE room_id = $1', [roomId]);
      continue;
    }
    await tx.send(
      `INSERT INTO room_state (room_id, version, name, has_image, open_start_type, open_start_value,
                               open_end_type, open_end_value, services, sort_order)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT coalesce(max(sort_order) + 1, 0) FROM room_state))
       ON CONFLICT (room_id) DO UPDATE SET version = excluded.version, name = excluded.name,
         has_image = excluded.has_image, open_start_type = excluded.open_start_type,
         open_start_value = excluded.open_start_value, open_end_type = excluded.open_end_type,
         open_end_value = excluded.open_end_value, services = excluded.services`,
      [
        roomId,
        room.version,
        room.name,
        room.hasImage,
        room.openStart.type,
        room.openStart.value,
        room.openEnd.type,
        room.openEnd.value,
        room.services,
      ],
    );
  }
}

/** Listed rooms take their index; rooms the event does not name keep their order after them. */
async function recordRoomOrder(tx: InlineTransaction, roomIds: string[]): Promise<void> {
  await tx.send(
    `WITH listed AS (SELECT id, (idx - 1)::int AS pos FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, idx)),
          others AS (SELECT r.room_id AS id, (cardinality($1::uuid[]) + row_number() OVER (ORDER BY r.sort_order, r.name, r.room_id) - 1)::int AS pos
                       FROM room_state r WHERE r.room_id <> ALL($1::uuid[]))
     UPDATE room_state r SET sort_order = x.pos
       FROM (SELECT * FROM listed UNION ALL SELECT * FROM others) x WHERE r.room_id = x.id`,
    [roomIds],
  );
}

// --- time slots ---------------------------------------------------------------------------------

type SlotTimesEvent = Extract<
  TimeSlotLifecycleEvent,
  { type: 'TimeSlotCreated' | 'TimeSlotUpdated' | 'TimeSlotDeleted' }
>;

// Capacity changes leave a slot's times as they are.
const slotTimesProjection = inlineProjection<SlotTimesEvent>({
  table: 'timeslot_guard',
  handles: ['TimeSlotCreated', 'TimeSlotUpdated', 'TimeSlotDeleted'],
  apply: (tx, events) =>
    recordSlotTimes(
      tx,
      events.map((e) => e.event),
    ),
});

async function recordSlotTimes(tx: InlineTransaction, events: SlotTimesEvent[]): Promise<void> {
  const created = events.flatMap((e) => (e.type === 'TimeSlotCreated' ? [e.data] : []));
  if (created.length)
    await tx.send(
      `INSERT INTO timeslot_guard (time_slot_id, room_id, date, start_min, end_min)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::int[], $5::int[])`,
      [
        created.map((d) => d.timeSlotId),
        created.map((d) => d.roomId),
        created.map((d) => d.date),
        created.map((d) => minutesOf(d.startTime)),
        created.map((d) => minutesOf(d.endTime)),
      ],
    );
  for (const e of events) {
    if (e.type === 'TimeSlotUpdated')
      await tx.send(
        'UPDATE timeslot_guard SET start_min = $2, end_min = $3 WHERE time_slot_id = $1',
        [e.data.timeSlotId, minutesOf(e.data.startTime), minutesOf(e.data.endTime)],
      );
    if (e.type === 'TimeSlotDeleted')
      await tx.send('DELETE FROM timeslot_guard WHERE time_slot_id = $1', [e.data.timeSlotId]);
  }
}

// --- holidays -----------------------------------------------------------------------------------

const holidayStateProjection = inlineProjection<HolidayEvent>({
  table: 'holiday_state',
  handles: ['HolidayCreated', 'HolidayUpdated', 'HolidayDeleted'],
  apply: (tx, events) =>
    recordHolidays(
      tx,
      events.map((e) => e.event),
    ),
});

async function recordHolidays(
  tx: InlineTransaction,
  changes: readonly HolidayEvent[],
): Promise<void> {
  const ids = [...new Set(changes.map((e) => e.data.holidayId))];
  const creates = changes.every((e) => e.type === 'HolidayCreated');
  const state = creates ? new Map<string, Holiday>() : await holidaysById(tx.client, ids);
  const gone: string[] = [];
  for (const event of changes) {
    const next = evolveHoliday(state.get(event.data.holidayId), event);
    if (next) state.set(next.id, next);
    else {
      state.delete(event.data.holidayId);
      gone.push(event.data.holidayId);
    }
  }
  if (gone.length)
    await tx.send('DELETE FROM holiday_state WHERE holiday_id = ANY($1::uuid[])', [gone]);
  const rows = [...state.values()];
  if (rows.length)
    await tx.send(
      `INSERT INTO holiday_state (holiday_id, date, name, description, version)
       SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::int[])
       ON CONFLICT (holiday_id) DO UPDATE SET date = excluded.date, name = excluded.name,
         description = excluded.description, version = excluded.version`,
      [
        rows.map((h) => h.id),
        rows.map((h) => h.date),
        rows.map((h) => h.name),
        rows.map((h) => h.description ?? null),
        rows.map((h) => h.version),
      ],
    );
}

// --- tickets and carts --------------------------------------------------------------------------

interface TicketChange {
  status?: string;
  ownerId?: string;
  checkedIn?: boolean;
  /** Confirmed addresses: the deadline (null: none any more); undefined: unchanged. */
  confirmBy?: string | null;
}

const statusOf: Record<string, string> = {
  [TicketHeld.type]: 'NEW',
  [TicketReleased.type]: 'INVALID',
  [TicketBooked.type]: 'BOOKED',
  [TicketCancelled.type]: 'CANCELLED',
  [TicketNoShowReleased.type]: 'INVALID',
  [TicketConfirmationLapsed.type]: 'INVALID',
};

type TicketStateEvent = Exclude<SlotTicketEvent, { type: 'TicketHoldExtended' }>;

/** New holds are inserted; the changes of each ticket are folded into one update. */
const ticketStateProjection = inlineProjection<TicketStateEvent>({
  table: 'ticket_state',
  handles: [
    'TicketHeld',
    'TicketReleased',
    'TicketBooked',
    'TicketCancelled',
    'TicketNoShowReleased',
    'TicketCheckedIn',
    'TicketCheckInUndone',
    'TicketConfirmed',
    'TicketConfirmationLapsed',
  ],
  apply: (tx, events) =>
    recordTickets(
      tx,
      events.map((e) => e.event),
    ),
});

async function recordTickets(tx: InlineTransaction, events: TicketStateEvent[]): Promise<void> {
  const held: { ticketId: string; timeSlotId: string; transactionId: string }[] = [];
  const changes = new Map<string, TicketChange>();
  for (const e of events) {
    if (e.type === 'TicketHeld') {
      held.push(e.data);
      continue;
    }
    const change = changes.get(e.data.ticketId) ?? {};
    const status = statusOf[e.type];
    if (status) change.status = status;
    if (e.type === 'TicketBooked') {
      change.ownerId = e.data.ownerId;
      change.confirmBy = e.data.confirmBy ?? null;
    }
    if (e.type === TicketConfirmed.type || e.type === TicketConfirmationLapsed.type)
      change.confirmBy = null;
    if (e.type === TicketCheckedIn.type) change.checkedIn = true;
    if (e.type === TicketCheckInUndone.type) change.checkedIn = false;
    changes.set(e.data.ticketId, change);
  }
  if (held.length)
    await tx.send(
      `INSERT INTO ticket_state (ticket_id, time_slot_id, transaction_id, status)
       SELECT *, 'NEW' FROM unnest($1::uuid[], $2::uuid[], $3::uuid[])
       ON CONFLICT (ticket_id) DO NOTHING`,
      [
        held.map((h) => h.ticketId),
        held.map((h) => h.timeSlotId),
        held.map((h) => h.transactionId),
      ],
    );
  if (changes.size) {
    const rows = [...changes];
    await tx.send(
      `UPDATE ticket_state t SET status = coalesce(u.status, t.status),
              owner_id = coalesce(u.owner_id, t.owner_id), checked_in = coalesce(u.checked_in, t.checked_in),
              confirm_by = CASE WHEN u.confirm_set THEN u.confirm_by ELSE t.confirm_by END
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::boolean[], $6::timestamptz[])
              AS u(id, status, owner_id, checked_in, confirm_set, confirm_by)
        WHERE t.ticket_id = u.id`,
      [
        rows.map(([id]) => id),
        rows.map(([, c]) => c.status ?? null),
        rows.map(([, c]) => c.ownerId ?? null),
        rows.map(([, c]) => c.checkedIn ?? null),
        rows.map(([, c]) => c.confirmBy !== undefined),
        rows.map(([, c]) => c.confirmBy ?? null),
      ],
    );
  }
}

type CartExpiryEvent = Extract<
  TransactionEvent,
  {
    type:
      | 'TransactionStarted'
      | 'TicketAddedToTransaction'
      | 'TransactionTouched'
      | 'TransactionBooked'
      | 'TransactionRemoved'
      | 'TransactionExpired';
  }
>;
const CART_CLOSED: readonly string[] = [
  'TransactionBooked',
  'TransactionRemoved',
  'TransactionExpired',
];

/** A cart is open from its start until it is booked, removed or expired; its last expiry counts. */
const openCartsProjection = inlineProjection<CartExpiryEvent>({
  table: 'open_carts',
  handles: [
    'TransactionStarted',
    'TicketAddedToTransaction',
    'TransactionTouched',
    'TransactionBooked',
    'TransactionRemoved',
    'TransactionExpired',
  ],
  async apply(tx, events) {
    const byCart = new Map<string, CartExpiryEvent[]>();
    for (const { streamId, event } of events) {
      const transactionId = streamId.slice(CART_STREAM.length);
      byCart.set(transactionId, [...(byCart.get(transactionId) ?? []), event]);
    }
    for (const [transactionId, cartEvents] of byCart) {
      if (cartEvents.some((e) => CART_CLOSED.includes(e.type))) {
        await tx.send('DELETE FROM open_carts WHERE transaction_id = $1', [transactionId]);
        continue;
      }
      const expiresAt = cartEvents
        .map((e) => ('expiresAt' in e.data ? e.data.expiresAt : undefined))
        .filter((x) => x !== undefined)
        .at(-1);
      // A booked cart that gains a ticket (a rebooking's) stays closed: its booking says so.
      if (expiresAt)
        await tx.send(
          `INSERT INTO open_carts (transaction_id, expires_at)
           SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE transaction_id = $1)
           ON CONFLICT (transaction_id) DO UPDATE SET expires_at = excluded.expires_at`,
          [transactionId, expiresAt],
        );
    }
  },
});

type BookedEvent = Extract<TransactionEvent, { type: 'TransactionBooked' }>;

/** A booked cart is a booking: its row, which the booking's personal data refers to. */
const bookingsProjection = inlineProjection<BookedEvent>({
  table: 'bookings',
  handles: ['TransactionBooked'],
  async apply(tx, events, at) {
    const booked = events.map((e) => e.event.data);
    await tx.send(
      `INSERT INTO bookings (owner_id, transaction_id, visitor_key, booking_number, language, created_at)
       SELECT *, $6::timestamptz FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[])`,
      [
        booked.map((b) => b.ownerId),
        booked.map((b) => b.transactionId),
        booked.map((b) => b.visitorKey),
        booked.map((b) => b.bookingNumber),
        booked.map((b) => b.language),
        at,
      ],
    );
  },
});

// --- waitlist entries ----------------------------------------------------------------------------

type OfferEvent = Extract<
  WaitlistEvent,
  {
    type:
      | 'SeatOffered'
      | 'SeatOfferLapsed'
      | 'SeatOfferTaken'
      | 'WaitlistLeft'
      | 'WaitlistEntryRemovedByStaff';
  }
>;

/**
 * `waitlist_entries` beside the log: offers and lapses move the entries' status and offer (the
 * offer mail's recipient, the matcher's candidate slots). The row itself, with the address, is
 * written by the join and deleted by the erasure (personal data: never in an event).
 */
const statusAfter = {
  SeatOfferLapsed: 'lapsed',
  SeatOfferTaken: 'taken',
  WaitlistLeft: 'left',
  WaitlistEntryRemovedByStaff: 'removed',
} as const;

const waitlistEntriesProjection = inlineProjection<OfferEvent>({
  table: 'waitlist_entries',
  handles: [
    'SeatOffered',
    'SeatOfferLapsed',
    'SeatOfferTaken',
    'WaitlistLeft',
    'WaitlistEntryRemovedByStaff',
  ],
  async apply(tx, events) {
    for (const { event: e } of events) {
      if (e.type === 'SeatOffered')
        await tx.send(
          `UPDATE waitlist_entries SET status = 'offered', offer_id = $2, offer_expires_at = $3 WHERE entry_id = $1`,
          [e.data.entryId, e.data.offerId, e.data.expiresAt],
        );
      else
        await tx.send(`UPDATE waitlist_entries SET status = $2 WHERE entry_id = $1`, [
          e.data.entryId,
          statusAfter[e.type],
        ]);
    }
  },
});

// --- the registry ----------------------------------------------------------------------------------

/**
 * Every table beside the log that events move, in the order they are applied: the one registry.
 * The command handler (command.ts) alone applies it, to the events it appends, in their
 * transaction. Rows that are no events (personal data, image bytes) are the commands' `record`,
 * written after these.
 */
export const inlineProjections: readonly InlineProjection[] = [
  roomStateProjection,
  roomOrderProjection,
  slotTimesProjection,
  holidayStateProjection,
  ticketStateProjection,
  openCartsProjection,
  bookingsProjection,
  waitlistEntriesProjection,
  ...rekeyingProjections,
  ...noShowProjections,
];

/** The inline projections by the event types they handle. */
const byType = new Map<string, InlineProjection[]>();
for (const p of inlineProjections)
  for (const type of p.handles) byType.set(type, [...(byType.get(type) ?? []), p]);

/** Moves the tables beside the log by the events of these appends (in the registry's order). */
export async function projectInline(
  tx: InlineTransaction,
  requests: readonly AppendRequest[],
  at: Date,
): Promise<void> {
  const batches = eventsByProjection(byType, requests);
  for (const p of inlineProjections) {
    const events = batches.get(p);
    if (events?.length) await p.apply(tx, events, at);
  }
}
