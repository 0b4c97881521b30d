import {
  ConcurrencyError,
  foldStream,
  streamAppend,
  timeSlotStreamId,
  transactionStreamId,
  visitorStreamId,
  type AppendRequest,
  type EventStore,
  type RecordedEvent,
  type RoomServices,
  type StoreSession,
} from '@rr/events';
import { NO_ROOM_SERVICES } from '@rr/contracts';
import type { PoolClient } from '@rr/platform';
import {
  addDays,
  evolveSlot,
  evolveTransaction,
  evolveVisitor,
  initialSlotState,
  initialTransaction,
  initialVisitor,
  noShowDaysCounted,
  type DayType,
  type LocalDate,
  type NoShowRule,
  type ReservationDecision,
  type RoomState,
  type ReservationState,
  type SlotState,
  type TransactionState,
  type VisitorState,
} from '@rr/domain';

export async function loadTransaction(
  s: StoreSession,
  transactionId: string,
): Promise<TransactionState> {
  const { events } = await s.readStream(transactionStreamId(transactionId));
  return foldStream(events, evolveTransaction, initialTransaction);
}

/** Locks the cart's stream and folds it, in one round trip. */
export async function lockAndLoadTransaction(
  s: StoreSession,
  transactionId: string,
): Promise<TransactionState> {
  const streamId = transactionStreamId(transactionId);
  const events = (await s.lockAndReadStreams([streamId])).get(streamId)!;
  return foldStream(events, evolveTransaction, initialTransaction);
}

export async function loadVisitor(s: StoreSession, visitorKey: string): Promise<VisitorState> {
  const { events } = await s.readStream(visitorStreamId(visitorKey));
  return foldStream(events, evolveVisitor, initialVisitor);
}

/** The cached slot states of these slots, by stream id (what lockAndReadStreams may skip). */
function knownSlots(s: StoreSession, ids: string[]): Map<string, SlotState> {
  const cache = slotCacheOf(s.store);
  const known = new Map<string, SlotState>();
  for (const id of ids) {
    const state = cache.get(id);
    if (state) known.set(timeSlotStreamId(id), state);
  }
  return known;
}

/** Folds the slots' new events onto their cached states, and caches the results. */
function foldSlots(
  s: StoreSession,
  ids: string[],
  known: Map<string, SlotState>,
  events: Map<string, RecordedEvent[]>,
): Map<string, SlotState> {
  const cache = slotCacheOf(s.store);
  const slots = new Map<string, SlotState>();
  for (const id of ids) {
    const streamId = timeSlotStreamId(id);
    const state = foldStream(
      events.get(streamId)!,
      evolveSlot,
      known.get(streamId) ?? initialSlotState,
    );
    if (state.status !== 'none') cache.set(id, state);
    slots.set(id, state);
  }
  return slots;
}

const versions = (known: Map<string, { version: number }>) =>
  new Map([...known].map(([streamId, state]) => [streamId, state.version]));

/**
 * Locks streams in one fixed order — the cart first, then the slots by id — so that concurrent
 * cart commands queue on a hot slot instead of failing, and never deadlock. The slots are locked
 * and then read in one round trip (the read sees the latest state, see lockAndReadStreams).
 */
export async function lockCartAndSlots(
  s: StoreSession,
  transactionId: string | null,
  slotIds: Iterable<string>,
): Promise<Map<string, SlotState>> {
  if (transactionId) await s.lockStream(transactionStreamId(transactionId));
  const ids = [...new Set(slotIds)].sort();
  const known = knownSlots(s, ids);
  const events = await s.lockAndReadStreams(ids.map(timeSlotStreamId), versions(known));
  return foldSlots(s, ids, known, events);
}

/**
 * A cart and the slots of its tickets (and `extraSlots`), locked in the same order as
 * lockCartAndSlots. When the cart's state is cached, its tickets are known beforehand and the
 * cart and all the slots are locked and read in one round trip; the cart's new events show
 * whether it gained tickets meanwhile (another process), and then the command runs again
 * (ConcurrencyError, see withRetry) with the cart now cached. Otherwise the cart is read first.
 */
export async function lockCartWithSlots(
  s: StoreSession,
  transactionId: string,
  extraSlots: string[],
): Promise<{ cart: TransactionState; slots: Map<string, SlotState> }> {
  const carts = cartCacheOf(s.store);
  const cached = carts.get(transactionId);
  if (!cached) {
    const cart = await lockAndLoadTransaction(s, transactionId);
    if (cart.status !== 'none') carts.set(transactionId, cart);
    const slotIds = [...cart.tickets.map((t) => t.timeSlotId), ...extraSlots];
    return { cart, slots: await lockCartAndSlots(s, null, slotIds) };
  }
  const cartStream = transactionStreamId(transactionId);
  const ids = [...new Set([...cached.tickets.map((t) => t.timeSlotId), ...extraSlots])].sort();
  const known = knownSlots(s, ids);
  const after = versions(known);
  after.set(cartStream, cached.version);
  const events = await s.lockAndReadStreams(
    [cartStream, ...ids.map(timeSlotStreamId)],
    after,
    cartStream,
  );
  const cart = foldStream(events.get(cartStream)!, evolveTransaction, cached);
  carts.set(transactionId, cart);
  if (cart.tickets.some((t) => !ids.includes(t.timeSlotId)))
    throw new ConcurrencyError(cartStream, cached.version, cart.version);
  return { cart, slots: foldSlots(s, ids, known, events) };
}

/**
 * After the commit of a cart command: the cart's state with the decision's events folded on, so
 * the visitor's next command finds its tickets cached. Only after the commit: a cached state must
 * never hold events that were not written.
 */
export function rememberCart(
  store: EventStore,
  transactionId: string,
  cart: TransactionState,
  decision: ReservationDecision,
): void {
  if (cart.status === 'none' && decision.transaction.length === 0) return;
  const after = decision.transaction.reduce(evolveTransaction, cart);
  cartCacheOf(store).set(transactionId, after);
}

/** A reservation's state as loaded, with the ids of the streams it was read from. */
export interface LoadedReservation extends ReservationState {
  transactionId: string;
  /** The visitor's stream key (null when the command writes no visitor events). */
  visitorKey: string | null;
}

/**
 * The appends of a reservation decision, at the versions the state was read at: the cart stream
 * first (read models see the cart before the holds), then each slot, then the visitor.
 */
export function reservationAppends(
  state: LoadedReservation,
  decision: ReservationDecision,
): AppendRequest[] {
  const requests = streamAppend(
    transactionStreamId(state.transactionId),
    'transaction',
    state.cart.version,
    decision.transaction,
  );
  for (const [slotId, events] of decision.slots) {
    const slot = state.slots.get(slotId);
    if (!slot) throw new Error(`slot ${slotId} was not loaded`);
    requests.push(...streamAppend(timeSlotStreamId(slotId), 'timeslot', slot.version, events));
  }
  if (decision.visitor.length) {
    if (!state.visitorKey) throw new Error('the visitor was not loaded');
    requests.push(
      ...streamAppend(
        visitorStreamId(state.visitorKey),
        'visitor',
        state.visitor.version,
        decision.visitor,
      ),
    );
  }
  return requests;
}

/**
 * The days of the no-show releases of a visitor's key the rule counts (those after a staff
 * lift, docs/product.md#no-show-rule); empty without the rule (nothing to decide on).
 */
export async function loadNoShowDays(
  client: Pick<PoolClient, 'query'>,
  visitorKey: string,
  rule: NoShowRule | undefined,
): Promise<LocalDate[]> {
  if (!rule) return [];
  const r = await client.query<{ date: string; lifted_through: string | null }>(
    `SELECT to_char(n.date, 'YYYY-MM-DD') AS date,
            to_char(l.lifted_through, 'YYYY-MM-DD') AS lifted_through
       FROM visitor_no_shows n
       LEFT JOIN visitor_no_show_lifts l ON l.visitor_key = n.visitor_key
      WHERE n.visitor_key = $1`,
    [visitorKey],
  );
  return noShowDaysCounted(
    r.rows.map((row) => row.date),
    r.rows[0]?.lifted_through,
  );
}

/** Locks the visitor's stream and folds it. */
export async function lockAndLoadVisitor(
  s: StoreSession,
  visitorKey: string,
): Promise<VisitorState> {
  await s.lockStream(visitorStreamId(visitorKey));
  return loadVisitor(s, visitorKey);
}

/** A booking's personal data, as the booking command writes it beside the log. */
export interface PersonalDataRecord {
  ownerId: string;
  owner: {
    salutation: string;
    title?: string | undefined;
    firstName: string;
    lastName: string;
    organisation?: string | undefined;
    phone?: string | undefined;
    accessibility: boolean;
  };
  /** Normalised address; null for a staff booking without one. */
  email: string | null;
  /** The last booked day: the personal data is erased the day after it. */
  lastDate: string;
}

/**
 * Writes a booking's personal data, in the store transaction of the booking: the one row of it no
 * event may carry. The booking's own row (`bookings`) is the inline projection of its
 * TransactionBooked (inline-projections.ts), applied before this.
 */
export async function recordPersonalData(s: StoreSession, b: PersonalDataRecord): Promise<void> {
  await s.client.query(
    `INSERT INTO personal_data (owner_id, salutation, title, first_name, last_name, organisation, email, phone, accessibility, erase_after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      b.ownerId,
      b.owner.salutation,
      b.owner.title ?? null,
      b.owner.firstName,
      b.owner.lastName,
      b.owner.organisation ?? null,
      b.email,
      b.owner.phone ?? null,
      b.owner.accessibility,
      addDays(b.lastDate, 1),
    ],
  );
}

// --- the rooms and holidays a cart command decides on (room_state, holiday_state) ---------------

export interface RoomRow {
  room_id: string;
  version: number;
  name: string;
  has_image: boolean;
  open_start_type: DayType;
  open_start_value: number;
  open_end_type: DayType;
  open_end_value: number;
  services: Partial<RoomServices>;
}

export const toRoom = (r: RoomRow): RoomState => ({
  status: 'active',
  version: r.version,
  hasImage: r.has_image,
  name: r.name,
  openStart: { type: r.open_start_type, value: r.open_start_value },
  openEnd: { type: r.open_end_type, value: r.open_end_value },
  services: { ...NO_ROOM_SERVICES, ...r.services },
});

/**
 * What the booking window of these rooms needs, in one round trip: the rooms, and the holiday
 * dates from today on (800 days: beyond any window of 365 working days).
 */
export async function roomsWithHolidays(
  client: PoolClient,
  roomIds: readonly string[],
  today: LocalDate,
): Promise<{ rooms: Map<string, RoomState>; holidays: Set<LocalDate> }> {
  if (roomIds.length === 0) return { rooms: new Map(), holidays: new Set() };
  const r = await client.query<RoomRow & { holidays: string[] }>({
    name: 'rr_rooms_with_holidays',
    text: `SELECT room_id::text AS room_id, version, name, has_image, open_start_type, open_start_value,
                  open_end_type, open_end_value, services,
                  ARRAY(SELECT DISTINCT to_char(date, 'YYYY-MM-DD') FROM holiday_state
                         WHERE date BETWEEN $2 AND $3) AS holidays
             FROM room_state WHERE room_id = ANY($1::uuid[])`,
    values: [[...new Set(roomIds)], today, addDays(today, 800)],
  });
  return {
    rooms: new Map(r.rows.map((row) => [row.room_id, toRoom(row)])),
    holidays: new Set(r.rows[0]?.holidays ?? []),
  };
}

/**
 * The streams a cart command locks and reads (`lock`), and the booking window of their slots'
 * rooms (roomsWithHolidays). When the rooms are known beforehand (`knownRooms`: a cached slot's
 * room, which never changes) and the connection is pipelined, both reads go in one round trip;
 * otherwise, or when the streams read name other rooms, the window is read after the lock.
 */
export async function lockedWithWindow<T>(
  s: StoreSession,
  today: LocalDate,
  knownRooms: readonly string[] | null,
  lock: () => Promise<T>,
  roomsOf: (locked: T) => string[],
): Promise<{ locked: T; rooms: Map<string, RoomState>; holidays: Set<LocalDate> }> {
  if (knownRooms && s.isPipelined) {
    const [locked, window] = await Promise.all([
      lock(),
      roomsWithHolidays(s.client, knownRooms, today),
    ]);
    const asked = new Set(knownRooms);
    if (roomsOf(locked).every((id) => asked.has(id))) return { locked, ...window };
    return { locked, ...(await roomsWithHolidays(s.client, roomsOf(locked), today)) };
  }
  const locked = await lock();
  return { locked, ...(await roomsWithHolidays(s.client, roomsOf(locked), today)) };
}

/** The room of a slot as cached (a slot never changes its room), or null when not cached. */
export function cachedRoomOf(store: EventStore, timeSlotId: string): string | null {
  const slot = slotCacheOf(store).get(timeSlotId);
  return slot && slot.roomId !== '' ? slot.roomId : null;
}

// --- folded stream states, cached -----------------------------------------------------------------

/**
 * Folded stream states by id, each as of its version (the most recently used stay). Events never
 * change once written and the folds are pure, so a state folded up to version v stays true: a
 * writer that holds the stream's lock reads only the events after v and folds them on.
 *
 * Time slots: a busy slot's stream grows by a few events per cart command (holds, their
 * extensions, releases); without the cache every command would read and fold all of them.
 * Carts: a cart command locks the cart and the slots of its tickets; knowing the cart's tickets
 * beforehand, it locks and reads all of them in one round trip instead of two.
 */
export class FoldedStateCache<S extends { version: number }> {
  private readonly states = new Map<string, S>();

  constructor(private readonly capacity = 20_000) {}

  get(id: string): S | undefined {
    const state = this.states.get(id);
    if (state) {
      this.states.delete(id);
      this.states.set(id, state);
    }
    return state;
  }

  /** Keeps the state unless a newer one is cached already (a concurrent reader got further). */
  set(id: string, state: S): void {
    const current = this.states.get(id);
    if (current && current.version > state.version) return;
    this.states.delete(id);
    this.states.set(id, state);
    if (this.states.size > this.capacity) {
      this.states.delete(this.states.keys().next().value!);
    }
  }

  get size(): number {
    return this.states.size;
  }
}

export type SlotStateCache = FoldedStateCache<SlotState>;

// One cache of each kind per event store (per database): tests run several in one process.
const slotCaches = new WeakMap<EventStore, SlotStateCache>();
export function slotCacheOf(store: EventStore): SlotStateCache {
  let cache = slotCaches.get(store);
  if (!cache) {
    cache = new FoldedStateCache<SlotState>();
    slotCaches.set(store, cache);
  }
  return cache;
}

const cartCaches = new WeakMap<EventStore, FoldedStateCache<TransactionState>>();
export function cartCacheOf(store: EventStore): FoldedStateCache<TransactionState> {
  let cache = cartCaches.get(store);
  if (!cache) {
    cache = new FoldedStateCache<TransactionState>();
    cartCaches.set(store, cache);
  }
  return cache;
}
