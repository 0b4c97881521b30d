import {
  asStreamEvents,
  streamAppendOf,
  timeSlotStream,
  timeSlotStreamId,
  type AppendRequest,
  type EventStore,
  type RecordedEvent,
  type StoreSession,
} from '@rr/events';
import { evolveSlotWith, initialSlotState, type SlotEvent, type SlotState } from '@rr/domain';
import { cachePerStore, type FoldedStateCache } from './folded-state-cache.ts';

/**
 * The time slot streams (`timeslot-<id>`): where seats are counted. This module is their one
 * loader (lock, read, fold, cache) and their one append; the commands that decide on a slot
 * (`writers`) call it and never build a slot's append themselves.
 */

/** The command-side files whose decisions append to a slot's stream (checked by streams.unit.test.ts). */
export const writers = [
  'booking/store.ts',
  'booking/confirm.ts',
  'check-in/check-in.ts',
  'rooms/seat-moves.ts',
  'rooms/stream.ts',
  'timeslots/stream.ts',
  'waitlist/commands.ts',
] as const;

export type SlotStateCache = FoldedStateCache<SlotState>;
/** Keyed by the event store (a session names it as its `store`). */
export const slotCacheOf: (store: object) => SlotStateCache = cachePerStore();

/** The cached slot states of these slots, by stream id (what lockAndReadStreams may skip). */
export function knownSlots(s: StoreSession, ids: readonly string[]): Map<string, SlotState> {
  const cache = slotCacheOf(s.store);
  const known = new Map<string, SlotState>();
  for (const id of ids) {
    const state = cache.get(id);
    if (state) known.set(timeSlotStreamId(id), state);
  }
  return known;
}

/** Folds the slots' new events onto their cached states, and caches the results. */
export function foldSlots(
  s: StoreSession,
  ids: readonly string[],
  known: Map<string, SlotState>,
  events: Map<string, RecordedEvent[]>,
): Map<string, SlotState> {
  const cache = slotCacheOf(s.store);
  const slots = new Map<string, SlotState>();
  for (const id of ids) {
    const streamId = timeSlotStreamId(id);
    // The events read fold as one run (evolveSlotWith): a slot read from its start has as many
    // as its tickets have had changes.
    const state = evolveSlotWith(
      known.get(streamId) ?? initialSlotState,
      asStreamEvents<SlotEvent>(events.get(streamId)!),
    );
    if (state.status !== 'none') cache.set(id, state);
    slots.set(id, state);
  }
  return slots;
}

/** The versions the cached states stand at, by stream id: the reads start after them. */
export const versionsOf = (known: Map<string, { version: number }>) =>
  new Map([...known].map(([streamId, state]) => [streamId, state.version]));

/**
 * Locks the slots in id order (the order every command locks them in, after a cart), then reads
 * and folds them, in one round trip (the read sees the latest state, see lockAndReadStreams).
 */
export async function lockSlots(
  s: StoreSession,
  slotIds: Iterable<string>,
): Promise<Map<string, SlotState>> {
  const ids = [...new Set(slotIds)].sort();
  const known = knownSlots(s, ids);
  const events = await s.lockAndReadStreams(ids.map(timeSlotStreamId), versionsOf(known));
  return foldSlots(s, ids, known, events);
}

/** One slot, locked and folded (see lockSlots). */
export async function lockSlot(s: StoreSession, slotId: string): Promise<SlotState> {
  return (await lockSlots(s, [slotId])).get(slotId)!;
}

/** The room of a slot as cached (a slot never changes its room), or null when not cached. */
export function cachedRoomOf(store: EventStore, timeSlotId: string): string | null {
  const slot = slotCacheOf(store).get(timeSlotId);
  return slot && slot.roomId !== '' ? slot.roomId : null;
}

/** The append of a slot's events at the version its state was read at (none without events). */
export function appendToSlot(
  slotId: string,
  slot: { version: number },
  events: readonly SlotEvent[],
): AppendRequest[] {
  return streamAppendOf(timeSlotStream, timeSlotStreamId(slotId), slot.version, events);
}
