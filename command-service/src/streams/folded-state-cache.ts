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

/** One cache per event store (per database): tests run several stores in one process. */
export function cachePerStore<K extends object, S extends { version: number }>(): (
  store: K,
) => FoldedStateCache<S> {
  const caches = new WeakMap<K, FoldedStateCache<S>>();
  return (store) => {
    let cache = caches.get(store);
    if (!cache) {
      cache = new FoldedStateCache<S>();
      caches.set(store, cache);
    }
    return cache;
  };
}
