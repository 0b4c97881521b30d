/**
 * Session storage access that never throws (storage may be disabled or full).
 * Keys used by the app are listed here; docs/product.md#limits names three: transaction id,
 * personal data and the privacy-notice flag.
 */
export const SESSION_KEYS = {
  privacyAccepted: 'privacyAccepted',
  /** Prefix of a slot's waitlist reference (`waitlist:<slot id>`): the place after a reload. */
  waitlist: 'waitlist:',
  /** The highest write position the page has seen: after a reload it still reads its writes. */
  position: 'position',
} as const;

export function readSession(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeSession(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // the flag then lasts only for this page view
  }
}

export function removeSession(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // nothing was kept
  }
}
