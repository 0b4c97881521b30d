/**
 * The visitor's booking state in the browser session (docs/product.md#entities: the session keeps the
 * transaction id, the personal data and the privacy flag), as an external store for
 * `useSyncExternalStore`. Access never throws: when storage is disabled the values live in
 * memory, for this page view only.
 */
export const BOOKING_KEYS = {
  transactionId: 'transactionId',
  personalData: 'personalData',
  /**
   * The owner id of the booking just made, until a new cart starts: the browser's back button
   * from its confirmation then shows it again instead of an empty step.
   */
  bookedOwnerId: 'bookedOwnerId',
} as const;

export type BookingKey = (typeof BOOKING_KEYS)[keyof typeof BOOKING_KEYS];

const memory = new Map<BookingKey, string>();
const listeners = new Set<() => void>();

export function readItem(key: BookingKey): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

/** Writes the value, or removes the key for null, and tells the subscribers. */
export function writeItem(key: BookingKey, value: string | null): void {
  if (value === null) memory.delete(key);
  else memory.set(key, value);
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // storage disabled or full: the value stays in memory
  }
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let expiredCart = false;

/**
 * Whether the cart expired during this page view (the data form then says so and
 * keeps what was typed). Memory only, not one of the session's keys.
 */
export const readExpired = (): boolean => expiredCart;

export function writeExpired(value: boolean): void {
  if (expiredCart === value) return;
  expiredCart = value;
  for (const listener of listeners) listener();
}
