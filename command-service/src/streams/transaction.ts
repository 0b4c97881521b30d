import {
  ConcurrencyError,
  foldStream,
  streamAppendOf,
  transactionStream,
  timeSlotStreamId,
  transactionStreamId,
  type AppendRequest,
  type EventStore,
  type StoreSession,
  type TransactionEvent,
} from '@rr/events';
import {
  evolveTransaction,
  initialTransaction,
  type SlotState,
  type TransactionState,
} from '@rr/domain';
import { cachePerStore, type FoldedStateCache } from './folded-state-cache.ts';
import { foldSlots, knownSlots, lockSlots, versionsOf } from './timeslot.ts';

/**
 * The cart streams (`transaction-<id>`): a cart's tickets and expiry, its booking, its owner's
 * events. Their one loader (lock, read, fold, cache) and their one append.
 */

/** The command-side files whose decisions append to a cart's stream. */
export const writers = ['booking/store.ts', 'owner/stream.ts', 'waitlist/commands.ts'] as const;

export const cartCacheOf: (store: object) => FoldedStateCache<TransactionState> = cachePerStore();

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

/**
 * Locks streams in one fixed order — the cart first, then the slots by id — so that concurrent
 * cart commands queue on a hot slot instead of failing, and never deadlock.
 */
export async function lockCartAndSlots(
  s: StoreSession,
  transactionId: string | null,
  slotIds: Iterable<string>,
): Promise<Map<string, SlotState>> {
  if (transactionId) await s.lockStream(transactionStreamId(transactionId));
  return lockSlots(s, slotIds);
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
    return { cart, slots: await lockSlots(s, slotIds) };
  }
  const cartStream = transactionStreamId(transactionId);
  const ids = [...new Set([...cached.tickets.map((t) => t.timeSlotId), ...extraSlots])].sort();
  const known = knownSlots(s, ids);
  const after = versionsOf(known);
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
  events: readonly TransactionEvent[],
): void {
  if (cart.status === 'none' && events.length === 0) return;
  cartCacheOf(store).set(transactionId, events.reduce(evolveTransaction, cart));
}

/** The append of a cart's events at the version its state was read at (none without events). */
export function appendToCart(
  transactionId: string,
  cart: { version: number },
  events: readonly TransactionEvent[],
): AppendRequest[] {
  return streamAppendOf(
    transactionStream,
    transactionStreamId(transactionId),
    cart.version,
    events,
  );
}
