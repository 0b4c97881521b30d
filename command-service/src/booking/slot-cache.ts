import type { EventStore } from '@rr/events';
import type { SlotState } from '../timeslots/decider.ts';

/**
 * Folded time-slot states by slot id, each as of its version (the most recently used first to
 * stay). Events never change once written and the fold is pure, so a state folded up to version
 * v stays true: a writer that holds the slot's lock reads only the events after v and folds them
 * on. A busy slot's stream grows by a few events per cart command (holds, their extensions,
 * releases); without the cache every command would read and fold all of them.
 */
export class SlotStateCache {
  private readonly states = new Map<string, SlotState>();

  constructor(private readonly capacity = 20_000) {}

  get(timeSlotId: string): SlotState | undefined {
    const state = this.states.get(timeSlotId);
    if (state) {
      this.states.delete(timeSlotId);
      this.states.set(timeSlotId, state);
    }
    return state;
  }

  /** Keeps the state unless a newer one is cached already (a concurrent reader got further). */
  set(timeSlotId: string, state: SlotState): void {
    const current = this.states.get(timeSlotId);
    if (current && current.version > state.version) return;
    this.states.delete(timeSlotId);
    this.states.set(timeSlotId, state);
    if (this.states.size > this.capacity) {
      this.states.delete(this.states.keys().next().value!);
    }
  }

  get size(): number {
    return this.states.size;
  }
}

// One cache per event store (per database): tests run several in one process.
const caches = new WeakMap<EventStore, SlotStateCache>();
export function slotCacheOf(store: EventStore): SlotStateCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new SlotStateCache();
    caches.set(store, cache);
  }
  return cache;
}
