/**
 * Pure rules of the visitor's cart (docs/product.md#states, "Cart"): expiry, what a refreshed cart
 * means for the local transaction, keeping it alive, and the state of a slot's book button.
 */

/** The cart expiry is checked this often (docs/product.md#limits). */
export const CART_CHECK_MS = 5_000;
/** Touch on activity at most this often, and only when the cart expires within touchWithinMs. */
export const TOUCH_INTERVAL_MS = 60_000;
/** Touch once a fifth of the hold (`holdMinutes` of the server's settings) has passed. */
export const touchWithinMs = (holdMinutes: number) => holdMinutes * 0.8 * 60_000;

/** The hold warns this long before the cart expires. */
export const HOLD_WARNING_MS = 60_000;

/** The time left of a hold as minutes and seconds, e.g. `14:05`; never below `0:00`. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The time left of a hold ending at `expiresAt`, counted at `now`: never more than the hold's
 * length (`holdMinutes` of the server's settings, when known). A clock read a moment before the
 * add that set the end, or a device's clock behind the server's, would otherwise count more than
 * the hold (15:01 of a hold of 15 minutes).
 */
export function holdTimeLeft(
  expiresAt: number,
  now: number,
  holdMinutes: number | undefined,
): number {
  const left = expiresAt - now;
  return holdMinutes === undefined ? left : Math.min(left, holdMinutes * 60_000);
}

/** True when the cart's expiry time has passed (an unreadable expiry counts as passed). */
export function isCartExpired(expiredAt: string | null | undefined, now: number): boolean {
  const time = expiredAt ? Date.parse(expiredAt) : Number.NaN;
  return Number.isNaN(time) || time <= now;
}

export interface CartLike {
  status?: unknown;
  tickets?: unknown;
}

/**
 * What a refreshed cart means for the local transaction:
 * - `expired`: the server says it expired: reset (clear it and start again at `/?reset=y`);
 * - `clear`: no such cart (404), a bad answer, not open any more or no tickets: forget it;
 * - `keep`: an open cart with tickets, or the check could not reach the server or found it busy
 *   (a timeout, too many requests, a server or gateway error say nothing about the cart).
 */
export type CartVerdict = 'keep' | 'clear' | 'expired';

export function judgeCart(cart: CartLike | undefined, error: unknown): CartVerdict {
  if (error !== undefined && error !== null) {
    const status = (error as { status?: unknown }).status;
    // Network failures, timeouts and a busy or failing server say nothing about the cart; the
    // server's answer about the cart itself (not found, bad request) does.
    const aboutTheCart =
      typeof status === 'number' && status < 500 && status !== 408 && status !== 429;
    return aboutTheCart ? 'clear' : 'keep';
  }
  if (cart === undefined) return 'keep';
  if (cart.status === 'EXPIRED') return 'expired';
  if (cart.status !== 'NEW' || !Array.isArray(cart.tickets) || cart.tickets.length === 0) {
    return 'clear';
  }
  return 'keep';
}

/**
 * On visitor activity: touch (keep alive) when the last touch is a while ago and the cart
 * would expire soon, so it does not expire while the visitor types. Without the hold time
 * (settings not loaded) any open cart counts as expiring soon.
 */
export function shouldTouch(
  expiredAt: string | null | undefined,
  now: number,
  lastTouch: number,
  holdMinutes: number | undefined,
): boolean {
  if (now - lastTouch < TOUCH_INTERVAL_MS) return false;
  const time = expiredAt ? Date.parse(expiredAt) : Number.NaN;
  const within = holdMinutes === undefined ? Number.POSITIVE_INFINITY : touchWithinMs(holdMinutes);
  return !Number.isNaN(time) && time > now && time - now < within;
}

/** docs/product.md#errors: an add answer lacking transactionId, expiredAt or ticket counts as a failure. */
export function isCompleteAddAnswer(answer: unknown): boolean {
  if (answer === null || typeof answer !== 'object') return false;
  const { transactionId, expiredAt, ticket } = answer as Record<string, unknown>;
  return (
    typeof transactionId === 'string' &&
    transactionId !== '' &&
    typeof expiredAt === 'string' &&
    expiredAt !== '' &&
    ticket !== null &&
    typeof ticket === 'object'
  );
}

/**
 * A failure of the booking flow that did not come from the server, with the `error` code the
 * message catalogue knows (docs/product.md#errors), e.g. `unknown` for an incomplete add answer.
 */
export class BookingFailure extends Error {
  readonly payload: readonly string[] = [];
  constructor(readonly error: string) {
    super(error);
  }
}

/**
 * The action a visitor gets for a slot in the day dialog:
 * - `book`: the book button;
 * - `in-cart`: already in the cart (duplicate message and a back button);
 * - `cart-full`: the cart holds the maximum of the server's settings (max reservations message);
 * - `visitor-full`: the cart holds the per-visitor maximum (its message of docs/product.md#errors);
 * - `day-full`: the cart holds the per-day maximum on the slot's day (its message);
 * - `overlap`: the slot overlaps a ticket of the cart (its message);
 * - `fully-booked`: no seats left (disabled, "fully booked");
 * - `unavailable`: any other failed rule (disabled, "temporarily full").
 */
export type SlotAction =
  | 'book'
  | 'in-cart'
  | 'cart-full'
  | 'visitor-full'
  | 'day-full'
  | 'overlap'
  | 'fully-booked'
  | 'unavailable';

/** What the day dialog offers for a slot, from the server's seat answer alone (its rules). */
export function slotAction(slot: { failedRules?: readonly string[] | undefined }): SlotAction {
  const rules = slot.failedRules ?? [];
  if (rules.includes('timeslot_already_in_transaction')) return 'in-cart';
  if (rules.includes('max_tickets_per_transaction_reached')) return 'cart-full';
  if (rules.includes('max_tickets_by_user_reached')) return 'visitor-full';
  if (rules.includes('max_tickets_per_day_reached')) return 'day-full';
  if (rules.includes('max_tickets_per_time_reached')) return 'overlap';
  if (rules.includes('timeslot_no_tickets_left')) return 'fully-booked';
  return rules.length > 0 ? 'unavailable' : 'book';
}

/** The cart's tickets lie on these days, in date order, each once. */
export const cartDays = (tickets: readonly { date: string }[]): string[] =>
  [...new Set(tickets.map(({ date }) => date))].sort();

/**
 * The days on which the cart holds the per-day maximum (`maxTicketsPerDay` of the server's
 * settings), in date order, with their count: no further slot of such a day can be added. When
 * the server counts the maxima per site (`limitsPerSite`), a day's tickets of each site count
 * apart, and a day is listed when it holds the maximum at one of them (with that site's count):
 * no further slot of that day at that site.
 */
export function fullDays(
  tickets: readonly { date: string; siteId?: string | null }[],
  maxTicketsPerDay: number,
  perSite = false,
): { date: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const { date, siteId } of tickets) {
    const key = perSite ? `${date} ${siteId ?? ''}` : date;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const full = new Map<string, number>();
  for (const [key, count] of counts) {
    const date = key.slice(0, 10);
    if (count >= maxTicketsPerDay) full.set(date, Math.max(count, full.get(date) ?? 0));
  }
  return [...full].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count }));
}
